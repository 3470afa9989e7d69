import numpy as np
from faster_whisper import decode_audio

from pipeline.transcript.audio import SAMPLE_RATE, audio_chunks, quietest_cut
from tests.helpers import EXAMPLE


def test_chunks_cover_the_recording_exactly_and_in_order():
    whole = decode_audio(str(EXAMPLE / "talk.mp4"), sampling_rate=SAMPLE_RATE)
    chunks = list(audio_chunks(EXAMPLE / "talk.mp4", chunk_s=30, search_s=5))
    assert len(chunks) >= 3
    offsets = [offset for offset, _ in chunks]
    lengths = [len(samples) / SAMPLE_RATE for _, samples in chunks]
    assert offsets == sorted(offsets) and offsets[0] == 0.0
    for (offset, _), (next_offset, _), length in zip(chunks, chunks[1:], lengths, strict=False):
        assert abs(offset + length - next_offset) < 1e-6
        assert 25 <= length <= 30.1
    assert abs(sum(lengths) - len(whole) / SAMPLE_RATE) < 0.05


def test_cut_lands_in_the_quiet_part():
    loud = np.full(SAMPLE_RATE * 3, 0.5, dtype=np.float32)
    loud[SAMPLE_RATE * 2 : SAMPLE_RATE * 2 + 2000] = 0.0  # a pause at 2.0 s
    cut = quietest_cut(loud, SAMPLE_RATE * 2)
    assert SAMPLE_RATE * 2 <= cut <= SAMPLE_RATE * 2 + 2000
