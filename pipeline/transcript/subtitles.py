"""Subtitle files: SRT/VTT written next to the transcript; SRT, VTT (auto-captions
included) and Bilibili's BCC JSON read as a ready transcript."""

import json
import re
from pathlib import Path

import webvtt
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.core.errors import StageFailure
from pipeline.core.formats import reader_of
from pipeline.core.text import CHINESE_PROSE_SHARE, cjk_share, clock
from pipeline.schema import Segment, Transcript
from pipeline.transcript.chinese import to_simplified
from pipeline.transcript.cues import Cue, make_cue, one_language, seconds, segments_of
from pipeline.transcript.encoding import decode_text
from pipeline.transcript.media import probe_audio

MAX_SUBTITLE_BYTES = 50 * 1024 * 1024
SRT_TIMING = re.compile(r"(\d+:\d{2}:\d{2}[,.]\d{3})\s*-->\s*(\d+:\d{2}:\d{2}[,.]\d{3})")
# Kana or Hangul: Japanese or Korean, whose text also holds CJK ideographs.
KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7af]")


def cue(segment: Segment, millis: str) -> str:
    """A cue's timing and text; SRT writes milliseconds after ',', VTT after '.'."""
    start, end = (clock(t, hours=True, millis=millis) for t in (segment.start, segment.end))
    return f"{start} --> {end}\n{segment.text}\n"


def to_srt(transcript: Transcript) -> str:
    blocks = [f"{i}\n{cue(s, ',')}" for i, s in enumerate(transcript.segments, start=1)]
    return "\n".join(blocks)


def to_vtt(transcript: Transcript) -> str:
    return "WEBVTT\n\n" + "\n".join(cue(s, ".") for s in transcript.segments)


class BccLine(BaseModel):
    """One line of Bilibili's subtitle JSON (BCC); its other fields (location, sid, music)
    carry nothing for an article."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)
    start: float = Field(alias="from")
    end: float = Field(alias="to")
    content: str


class Bcc(BaseModel):
    model_config = ConfigDict(extra="ignore")
    body: list[BccLine]


def bcc_cues(text: str, path: Path) -> list[Cue]:
    try:
        bcc = Bcc.model_validate(json.loads(text))
    except (json.JSONDecodeError, ValidationError) as err:
        problem = err.errors()[0]["msg"] if isinstance(err, ValidationError) else str(err)
        raise StageFailure(
            f"not Bilibili subtitles (BCC JSON: a 'body' list of {{from, to, content}}): {problem}",
            path,
        ) from err
    return [
        make_cue(n, line.start, line.end, line.content.splitlines())
        for n, line in enumerate(bcc.body, start=1)
    ]


def timing_line_cues(text: str) -> list[Cue]:
    """SRT cues found by their timing lines alone, for files webvtt-py refuses (no cue
    numbers, as some tools write them): a cue's text runs to the next timing line, a
    blank line, or the cue number before the next timing line."""
    cues: list[Cue] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        timing = SRT_TIMING.match(line.strip())
        if not timing:
            continue
        body = []
        for following in lines[i + 1 :]:
            if not following.strip() or SRT_TIMING.match(following.strip()):
                break
            body.append(following)
        after = i + 1 + len(body)
        next_timing = after < len(lines) and SRT_TIMING.match(lines[after].strip())
        if body and body[-1].strip().isdigit() and next_timing:
            body.pop()  # the number of the cue whose timing line follows
        start, end = (seconds(t.replace(",", ".")) for t in timing.groups())
        cues.append(make_cue(len(cues) + 1, start, end, body))
    return cues


def caption_cues(text: str, path: Path, form: str) -> tuple[list[Cue], list[str], str | None]:
    """SRT or VTT (`form`) cues from their raw lines (webvtt-py's own `.text` strips every tag
    before our cleaner could keep `vector<int>` or drop a script's body), what was odd about
    the file, and the VTT header's language."""
    try:
        captions = webvtt.from_buffer(text.splitlines(), format=form)
    except Exception as err:  # webvtt-py raises its own MalformedFileError and others
        cues = timing_line_cues(text) if form == "srt" else []
        if not cues:
            raise StageFailure(f"cannot read subtitles: {err}", path) from err
        return cues, [f"{path.name} is not well-formed SRT ({err}); read by its timing lines"], None
    header = dict(
        line.split(":", 1) for line in getattr(captions, "metadata", None) or [] if ":" in line
    )
    language = header.get("Language", "").strip().lower() or None
    cues = [
        make_cue(n, seconds(c.start), seconds(c.end), c.lines)
        for n, c in enumerate(captions, start=1)
    ]
    return cues, [], language


def guess_language(segments: list[Segment]) -> str | None:
    """Chinese when the cues are Chinese prose; other languages are left to talk.yaml."""
    text = " ".join(s.text for s in segments)
    if KANA_HANGUL.search(text) or cjk_share(text) < CHINESE_PROSE_SHARE:
        return None
    return "zh"


def recording_length(recording: Path | None) -> tuple[float | None, list[str]]:
    """The recording's length, if the talk has one that can be read: subtitles do not need
    the recording, so one that cannot be read is a warning here, not a failure."""
    if recording is None:
        return None, []
    try:
        return probe_audio(recording), []
    except StageFailure as err:
        return None, [f"{recording.name}: {err.message}; its subtitles are used without it"]


def subtitle_text(path: Path) -> tuple[str, str]:
    """The subtitle file's text and the encoding it was decoded from; StageFailure when it
    is too large or empty."""
    size = path.stat().st_size
    if size > MAX_SUBTITLE_BYTES:
        raise StageFailure(
            f"the subtitle file is {size / 2**20:.1f} MB, over the "
            f"{MAX_SUBTITLE_BYTES // 2**20} MB limit",
            path,
        )
    text, encoding = decode_text(path.read_bytes(), path)
    if not text.strip():
        raise StageFailure("the subtitle file is empty", path)
    return text, encoding


def read_subtitles(path: Path, language: str | None, recording: Path | None = None) -> Transcript:
    """An existing subtitle file as the transcript, so no speech recognition is needed.

    Its encoding is detected; cues are cleaned of markup, unrolled when they roll, put in
    time order and repaired (see cues.py), each repair a warning; cues after the end of the
    talk's `recording` are dropped.
    """
    form = reader_of(path, "subtitles")  # by the table of formats: no reader guesses
    text, encoding = subtitle_text(path)
    if form == "bcc":
        cues, warnings, header_language = bcc_cues(text, path), [], None
    else:
        cues, warnings, header_language = caption_cues(text, path, form)
    cues, split = one_language(cues, language or header_language)
    recording_s, unread = recording_length(recording)
    segments, repairs = segments_of(cues, recording_s)
    warnings += split + unread + repairs
    if not segments:
        raise StageFailure("the subtitle file has no cues with text", path)
    language = language or header_language or guess_language(segments) or "unknown"
    if language == "zh":
        segments = to_simplified(segments)
    if not encoding.startswith("utf"):
        warnings.append(
            f"{path.name} is not Unicode: decoded as {encoding}, a guess; if the transcript "
            "reads wrong, save the file as UTF-8"
        )
    return Transcript(
        source="subtitles",
        language=language,
        encoding=encoding,
        duration=recording_s or max(s.end for s in segments),
        segments=segments,
        warnings=warnings,
    )
