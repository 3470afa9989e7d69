"""What a maintainer drops into inputs/<talk>/."""

import datetime as dt
from pathlib import Path
from typing import Annotated

from pydantic import Field, StringConstraints, field_validator

from pipeline.core.links import web_address
from pipeline.schema.base import Contract
from pipeline.schema.transcript import Replacement

# Sizes a real talk never needs: a 10 MB title would otherwise reach every prompt.
Term = Annotated[str, StringConstraints(strip_whitespace=True, max_length=100)]


class TalkMeta(Contract):
    """The optional talk.yaml."""

    title: str | None = Field(None, max_length=300)
    speaker: str | None = Field(None, max_length=200)
    date: dt.date | None = None
    language: str | None = Field(
        None, max_length=8, description="ISO 639-1 code of the speech, e.g. 'en'."
    )
    glossary: list[Term] = Field(
        default_factory=list, max_length=300, description="Terms to spell right."
    )
    video_url: str | None = Field(
        None, max_length=2000, description="Public video (http or https); citations link into it."
    )
    deck_password: str | None = Field(
        None, max_length=1000, description="Opens an encrypted PDF deck."
    )
    tags: list[Term] = Field(
        default_factory=list, max_length=10, description="Category tags, broad first."
    )
    topic: str | None = Field(
        None,
        max_length=40,
        description="The site topic's id (pipeline/library/topics.yaml); else chosen by the "
        "article's own words.",
    )

    @field_validator("video_url")
    @classmethod
    def web_address(cls, url: str | None) -> str | None:
        """Only a web address becomes a link: `javascript:` or `data:` never reaches a page."""
        return None if url is None else web_address(url)


class Talk(Contract):
    """The files of one talk folder, classified."""

    slug: str = Field(description="the folder's path under inputs/; also its path under outputs/")
    folder: Path
    media: Path | None = Field(None, description="the recording; None for subtitles alone")
    decks: list[Path] = Field(default_factory=list)
    subtitles: Path | None = Field(None, description="an existing .srt/.vtt transcript")
    meta: TalkMeta = Field(default_factory=TalkMeta)
    corrections: list[Replacement] = Field(
        default_factory=list, description="the library's corrections for this talk"
    )
