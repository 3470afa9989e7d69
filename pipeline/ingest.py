"""Classify the files of a talk folder: one recording, decks, optional talk.yaml."""

from pathlib import Path

import yaml
from pydantic import ValidationError

from pipeline.errors import StageFailure
from pipeline.schema import TalkInputs, TalkMeta

STAGE = "ingest"
MEDIA_SUFFIXES = {
    ".mp4",
    ".mkv",
    ".webm",
    ".mov",
    ".mp3",
    ".m4a",
    ".wav",
    ".flac",
    ".ogg",
    ".opus",
    ".aac",
}
DECK_SUFFIXES = {".pptx", ".pdf"}
SUBTITLE_SUFFIXES = {".srt", ".vtt"}
META_NAMES = {"talk.yaml", "talk.yml"}
IGNORED_NAMES = {"README.md", "readme.md", "PROVENANCE.md"}


def read_meta(path: Path) -> TalkMeta:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        return TalkMeta.model_validate(data)
    except (yaml.YAMLError, ValidationError, UnicodeDecodeError) as err:
        raise StageFailure(STAGE, f"talk.yaml is not valid: {err}", path) from err


def ingest(folder: Path) -> TalkInputs:
    """Find the recording, the decks and the metadata of one talk; refuse what is unclear."""
    if not folder.is_dir():
        raise StageFailure(STAGE, "talk folder does not exist", folder)
    media, decks, subtitles, meta = [], [], [], TalkMeta()
    for path in sorted(folder.iterdir()):
        name, suffix = path.name, path.suffix.lower()
        if name.startswith(".") or name in IGNORED_NAMES or path.is_dir():
            continue
        if suffix in MEDIA_SUFFIXES:
            media.append(path)
        elif suffix in DECK_SUFFIXES:
            decks.append(path)
        elif suffix in SUBTITLE_SUFFIXES:
            subtitles.append(path)
        elif name in META_NAMES:
            meta = read_meta(path)
        else:
            raise StageFailure(
                STAGE,
                f"unsupported file type '{suffix or name}'; expected a recording "
                f"({', '.join(sorted(MEDIA_SUFFIXES))}), a deck (.pptx, .pdf), subtitles (.srt, "
                ".vtt) or talk.yaml",
                path,
            )
    if not media:
        raise StageFailure(STAGE, "no recording found (video or audio file)", folder)
    if len(media) > 1:
        names = ", ".join(p.name for p in media)
        raise StageFailure(STAGE, f"more than one recording ({names}); keep one", folder)
    if len(subtitles) > 1:
        names = ", ".join(p.name for p in subtitles)
        raise StageFailure(STAGE, f"more than one subtitle file ({names}); keep one", folder)
    return TalkInputs(
        slug=folder.name,
        folder=folder,
        media=media[0],
        decks=decks,
        subtitles=subtitles[0] if subtitles else None,
        meta=meta,
    )


def discover_talks(inputs_dir: Path) -> list[Path]:
    """Every talk folder under inputs/: a folder holding files, at any depth."""
    talks = []
    for folder in sorted(p for p in inputs_dir.rglob("*") if p.is_dir()):
        if any(part.startswith(".") for part in folder.relative_to(inputs_dir).parts):
            continue
        if any(
            child.is_file() and not child.name.startswith(".") and child.name not in IGNORED_NAMES
            for child in folder.iterdir()
        ):
            talks.append(folder)
    return talks
