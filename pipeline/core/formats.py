"""The one table of input formats: each file suffix a talk folder may hold, the kind of input
it is (a recording, subtitles or a deck) and the reader its stage reads it with. The talk
stage sorts a folder's files by it, the subtitle and deck readers choose their reader by it,
the error messages list its suffixes, and docs/inputs.md shows it (tests/test_docs.py checks
the page against it). A suffix it does not know is read by no one."""

from pathlib import Path
from typing import Literal, NamedTuple

from pipeline.core.errors import StageFailure

Kind = Literal["recording", "subtitles", "deck"]


class InputFormat(NamedTuple):
    kind: Kind
    reader: str  # the name the stage's reader goes by: "srt" for the SRT cue reader


INPUT_FORMATS: dict[str, InputFormat] = {
    **dict.fromkeys(
        (".mp4", ".mkv", ".webm", ".mov", ".mp3", ".m4a", ".wav", ".flac", ".ogg", ".opus", ".aac"),
        InputFormat("recording", "ffmpeg"),  # its audio, decoded by ffmpeg (PyAV)
    ),
    ".pptx": InputFormat("deck", "pptx"),
    ".pdf": InputFormat("deck", "pdf"),
    ".srt": InputFormat("subtitles", "srt"),
    ".vtt": InputFormat("subtitles", "vtt"),
    ".json": InputFormat("subtitles", "bcc"),  # Bilibili's subtitle JSON (BCC)
    ".bcc": InputFormat("subtitles", "bcc"),
}
# How a message names one file of each kind, in the order the messages list them.
KIND_NAMES: dict[Kind, str] = {
    "recording": "a recording",
    "deck": "a deck",
    "subtitles": "subtitles",
}


def input_kind(path: Path) -> Kind | None:
    """The kind of input `path` is by its suffix (any case); None for a suffix not in the table."""
    found = INPUT_FORMATS.get(path.suffix.lower())
    return found.kind if found else None


def suffixes(kind: Kind) -> list[str]:
    """The suffixes the table gives to `kind`, in its order."""
    return [suffix for suffix, found in INPUT_FORMATS.items() if found.kind == kind]


def accepted() -> str:
    """Every kind with its suffixes, for a message: 'a recording (.mp4, ...), a deck (...), ...'."""
    return ", ".join(f"{name} ({', '.join(suffixes(kind))})" for kind, name in KIND_NAMES.items())


def reader_of(path: Path, kind: Kind) -> str:
    """The reader the table names for `path` read as `kind`; StageFailure naming the file and
    the kind's suffixes when its suffix is not one of them, so no reader guesses."""
    found = INPUT_FORMATS.get(path.suffix.lower())
    if found is None or found.kind != kind:
        raise StageFailure(
            f"'{path.suffix or path.name}' is not read as {KIND_NAMES[kind]}; "
            f"expected {', '.join(suffixes(kind))}",
            path,
        )
    return found.reader
