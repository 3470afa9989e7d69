"""What a maintainer drops into inputs/<talk>/."""

import datetime as dt
from pathlib import Path

from pydantic import Field

from pipeline.schema.base import Contract


class TalkMeta(Contract):
    """The optional talk.yaml."""

    title: str | None = None
    speaker: str | None = None
    date: dt.date | None = None
    language: str | None = Field(None, description="ISO 639-1 code of the speech, e.g. 'en'.")
    glossary: list[str] = Field(default_factory=list, description="Terms to spell right.")
    video_url: str | None = Field(None, description="Public video; citations link into it.")
    deck_password: str | None = Field(None, description="Opens an encrypted PDF deck.")
    tags: list[str] = Field(default_factory=list, description="Category tags, broad first.")


class Talk(Contract):
    """The files of one talk folder, classified."""

    slug: str = Field(description="the folder's path under inputs/; also its path under outputs/")
    folder: Path
    media: Path | None = Field(None, description="the recording; None for subtitles alone")
    decks: list[Path] = Field(default_factory=list)
    subtitles: Path | None = Field(None, description="an existing .srt/.vtt transcript")
    meta: TalkMeta = Field(default_factory=TalkMeta)
