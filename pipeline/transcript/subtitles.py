"""Subtitle files: SRT/VTT written next to the transcript, and read as a ready transcript."""

from pathlib import Path

import webvtt

from pipeline.errors import StageFailure
from pipeline.schema import Segment, Transcript
from pipeline.text import clock


def cue(segment: Segment, millis: str) -> str:
    """A cue's timing and text; SRT writes milliseconds after ',', VTT after '.'."""
    start, end = (clock(t, hours=True, millis=millis) for t in (segment.start, segment.end))
    return f"{start} --> {end}\n{segment.text}\n"


def to_srt(transcript: Transcript) -> str:
    blocks = [f"{i}\n{cue(s, ',')}" for i, s in enumerate(transcript.segments, start=1)]
    return "\n".join(blocks)


def to_vtt(transcript: Transcript) -> str:
    return "WEBVTT\n\n" + "\n".join(cue(s, ".") for s in transcript.segments)


def seconds(stamp: str) -> float:
    """'HH:MM:SS.mmm' as webvtt-py normalises both SRT and VTT times."""
    hours, minutes, secs = stamp.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(secs)


def read_subtitles(path: Path, language: str | None) -> Transcript:
    """An existing .srt/.vtt as the transcript, so no speech recognition is needed."""
    try:
        captions = (
            webvtt.from_srt(str(path)) if path.suffix.lower() == ".srt" else webvtt.read(str(path))
        )
    except Exception as err:  # webvtt-py raises its own MalformedFileError and others
        raise StageFailure(f"cannot read subtitles: {err}", path) from err
    segments = [
        Segment(start=seconds(c.start), end=seconds(c.end), text=" ".join(c.text.split()))
        for c in captions
        if c.text.strip()
    ]
    if not segments:
        raise StageFailure("the subtitle file has no cues", path)
    return Transcript(
        source="subtitles",
        language=language or "unknown",
        duration=segments[-1].end,
        segments=segments,
    )
