"""Subtitle files: SRT/VTT written next to the transcript, and read as a ready transcript."""

from pathlib import Path

import webvtt

from pipeline.errors import StageFailure
from pipeline.schema import Provenance, Segment, Transcript
from pipeline.store import provenance, sha256_file

STAGE = "transcribe"


def cue_time(seconds: float, separator: str) -> str:
    millis = round(seconds * 1000)
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}{separator}{millis:03d}"


def to_srt(transcript: Transcript) -> str:
    blocks = [
        f"{i}\n{cue_time(s.start, ',')} --> {cue_time(s.end, ',')}\n{s.text}\n"
        for i, s in enumerate(transcript.segments, start=1)
    ]
    return "\n".join(blocks)


def to_vtt(transcript: Transcript) -> str:
    cues = [
        f"{cue_time(s.start, '.')} --> {cue_time(s.end, '.')}\n{s.text}\n"
        for s in transcript.segments
    ]
    return "WEBVTT\n\n" + "\n".join(cues)


def seconds(stamp: str) -> float:
    """'HH:MM:SS.mmm' as webvtt-py normalises both SRT and VTT times."""
    hours, minutes, secs = stamp.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(secs)


def subtitles_provenance(path: Path) -> Provenance:
    return provenance(STAGE, inputs={path.name: sha256_file(path)}, model="subtitles")


def read_subtitles(path: Path, language: str | None) -> Transcript:
    """An existing .srt/.vtt as the transcript, so no speech recognition is needed."""
    try:
        captions = (
            webvtt.from_srt(str(path)) if path.suffix.lower() == ".srt" else webvtt.read(str(path))
        )
    except Exception as err:  # webvtt-py raises its own MalformedFileError and others
        raise StageFailure(STAGE, f"cannot read subtitles: {err}", path) from err
    segments = [
        Segment(start=seconds(c.start), end=seconds(c.end), text=" ".join(c.text.split()))
        for c in captions
        if c.text.strip()
    ]
    if not segments:
        raise StageFailure(STAGE, "the subtitle file has no cues", path)
    return Transcript(
        source="subtitles",
        language=language or "unknown",
        duration=segments[-1].end,
        segments=segments,
        provenance=subtitles_provenance(path),
    )
