"""What the slides say."""

from pydantic import Field

from pipeline.schema.base import Contract, Provenance


class Slide(Contract):
    index: int = Field(ge=1, description="1-based slide number as the audience saw it")
    title: str = ""
    text: str = Field("", description="body text in reading order, one line per item")
    notes: str = Field("", description="speaker notes (PPTX only)")
    hidden: bool = False


class Deck(Contract):
    sources: list[str] = Field(description="file names the slides were read from")
    slides: list[Slide]
    provenance: Provenance
