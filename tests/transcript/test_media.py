"""Bad media: each case is a clear StageFailure naming the file, before any decoding."""

import struct
import wave
from fractions import Fraction

import av
import numpy as np
import pytest

from pipeline.core.errors import StageFailure
from pipeline.core.models import resolve_whisper
from pipeline.settings import Settings
from pipeline.transcript import transcribe
from pipeline.transcript.media import probe_audio
from pipeline.transcript.options import TranscriptOptions
from tests.helpers import DATA, EXAMPLE, talk_with


def fails_with(path, message: str) -> None:
    with pytest.raises(StageFailure) as caught:
        probe_audio(path)
    assert caught.value.file == str(path)
    assert message in caught.value.message


def test_zero_length_file(tmp_path):
    (empty := tmp_path / "talk.mp4").write_bytes(b"")
    fails_with(empty, "empty")


def test_truncated_video(tmp_path):
    data = (EXAMPLE / "talk.mp4").read_bytes()
    (cut := tmp_path / "talk.mp4").write_bytes(data[: len(data) // 2])
    fails_with(cut, "cannot read the media")


def test_not_media_at_all(tmp_path):
    (fake := tmp_path / "talk.mp3").write_text("this is a text file, not audio\n" * 50)
    fails_with(fake, "cannot read the media")


def test_video_without_audio(tmp_path):
    path = tmp_path / "silent-film.mp4"
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=2)
        stream.width, stream.height, stream.pix_fmt = 64, 64, "yuv420p"
        for i in range(4):
            frame = av.VideoFrame.from_ndarray(np.zeros((64, 64, 3), np.uint8), format="rgb24")
            frame.pts, frame.time_base = i, Fraction(1, 2)
            container.mux(stream.encode(frame))
        container.mux(stream.encode())
    fails_with(path, "no audio stream (streams found: video)")


def test_unsupported_codec(tmp_path):
    samples = np.zeros(16000, dtype=np.int16).tobytes()
    fmt = struct.pack("<IHHIIHH", 16, 0x1234, 1, 16000, 32000, 2, 16)  # unknown format tag
    header = b"RIFF" + struct.pack("<I", 36 + len(samples)) + b"WAVEfmt " + fmt
    (odd := tmp_path / "talk.wav").write_bytes(
        header + b"data" + struct.pack("<I", len(samples)) + samples
    )
    fails_with(odd, "codec is not supported")


@pytest.mark.models
def test_silence_only_is_no_speech(tmp_path):
    path = tmp_path / "silence.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1), out.setsampwidth(2), out.setframerate(16000)
        out.writeframes(np.zeros(16000 * 4, dtype=np.int16).tobytes())
    model = resolve_whisper("auto", "en", Settings().cache_dir)
    with pytest.raises(StageFailure, match="no speech found"):
        transcribe(talk_with(path, language="en"), model, TranscriptOptions(), [])


def test_good_media_reports_its_duration():
    assert probe_audio(DATA / "jfk.flac") == pytest.approx(11.0, abs=0.2)
