"""What the slides say, and which picture of each slide the site can show."""

from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract, StageOutput


class Bullet(Contract):
    text: str
    level: int = Field(0, ge=0, description="outline level; 0 is a top-level bullet")


class Slide(Contract):
    index: int = Field(ge=1, description="1-based slide number as the audience saw it")
    title: str = ""
    text: str = Field("", description="body text in reading order, one line per item")
    bullets: list[Bullet] = Field(default_factory=list, description="PPTX text with levels")
    tables: list[str] = Field(default_factory=list, description="tables as Markdown")
    images: int = Field(0, ge=0, description="pictures on the slide")
    notes: str = Field("", description="speaker notes (PPTX only)")
    hidden: bool = Field(False, description="hidden in the PPTX: not shown in the talk")
    scanned: bool = Field(False, description="no text layer: only the picture is evidence")
    picture_text: str = Field(
        "", description="lines read from the slide's pictures and charts (OCR), not evidence"
    )
    thumbnail: str | None = Field(None, description="image path relative to the talk's outputs")

    def texts(self, notes: bool = True, pictures: bool = False) -> list[str]:
        """What the slide says, non-empty parts in order: title, body, tables (and notes,
        and the text of its pictures)."""
        parts = [self.title, self.text, *self.tables, self.notes if notes else ""]
        parts.append(self.picture_text if pictures else "")
        return [part for part in parts if part]


class Deck(StageOutput):
    sources: list[str] = Field(description="file names the slides were read from")
    slides: list[Slide]
    thumbnails: Literal["pdf", "libreoffice", "none"] = Field(
        "none", description="where the slide pictures came from"
    )

    def visible(self) -> list[Slide]:
        return [slide for slide in self.slides if not slide.hidden]

    def pictures(self) -> list[str]:
        """The slide pictures this deck refers to, relative to the talk's outputs."""
        return [slide.thumbnail for slide in self.slides if slide.thumbnail]
