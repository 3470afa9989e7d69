"""Decode a recording as 16 kHz mono in chunks, so a long talk needs bounded memory.

faster-whisper would otherwise hold the whole talk as float32 (230 MB an hour). Chunks
end at the quietest moment near the chunk length, so a cut rarely splits a word.
"""

from collections.abc import Iterator
from pathlib import Path

import av
import numpy as np

SAMPLE_RATE = 16000
FRAME = SAMPLE_RATE // 10  # 100 ms energy frames to find a quiet place to cut


def quietest_cut(samples: np.ndarray, search: int) -> int:
    """Index of the quietest 100 ms frame in the last `search` samples."""
    start = max(0, len(samples) - search)
    tail = samples[start : start + (len(samples) - start) // FRAME * FRAME]
    if len(tail) < FRAME:
        return len(samples)
    energy = np.square(tail.reshape(-1, FRAME)).mean(axis=1)
    return start + int(np.argmin(energy)) * FRAME + FRAME // 2


def decoded_frames(path: Path) -> Iterator[np.ndarray]:
    resampler = av.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
    with av.open(str(path)) as container:
        for frame in container.decode(container.streams.audio[0]):
            for out in resampler.resample(frame):
                yield out.to_ndarray().reshape(-1)
    for out in resampler.resample(None):  # flush what the resampler holds back
        yield out.to_ndarray().reshape(-1)


def audio_chunks(
    path: Path, chunk_s: float = 600.0, search_s: float = 20.0
) -> Iterator[tuple[float, np.ndarray]]:
    """(offset in seconds, float32 samples) pieces of about `chunk_s` seconds."""
    chunk, search = int(chunk_s * SAMPLE_RATE), int(search_s * SAMPLE_RATE)
    pending: list[np.ndarray] = []
    held, offset = 0, 0
    for piece in decoded_frames(path):
        pending.append(piece)
        held += len(piece)
        if held < chunk + search:
            continue
        samples = np.concatenate(pending)
        cut = quietest_cut(samples[:chunk], search)
        yield offset / SAMPLE_RATE, samples[:cut].astype(np.float32) / 32768.0
        pending, held, offset = [samples[cut:]], len(samples) - cut, offset + cut
    if held:
        yield offset / SAMPLE_RATE, np.concatenate(pending).astype(np.float32) / 32768.0
