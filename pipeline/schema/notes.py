"""The talk's own sections and the facts each one states (the notes stage), found in code."""

from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract, StageOutput

SourceKind = Literal["slide", "table", "speech", "notes"]


class FactSource(Contract):
    """One thing the talk states: a slide line, a table row, or one sentence said."""

    id: str = Field(description="its unit's id and its place there: s-02.3, t-00:01:05.0")
    unit: str = Field(description="the evidence unit it is part of (what a citation names)")
    kind: SourceKind
    text: str
    context: str = Field("", description="the slide's title or the table's header, if any")
    slide: int | None = None
    start: float | None = Field(None, description="seconds; speech only")
    uncertain: list[str] = Field(
        default_factory=list, description="its words recognition may have misheard"
    )

    @property
    def shown(self) -> bool:
        """A slide line or table row: what the deck shows, not what was said."""
        return self.kind in ("slide", "table")


class Section(Contract):
    """A stretch of the talk on one topic: a slide group, or speech between topic shifts."""

    id: str = Field(description="sec-NN, in talk order")
    title: str | None = Field(None, description="the deck's title for it, if any")
    unit_ids: list[str] = Field(min_length=1)
    start: float | None = Field(None, description="seconds; when it starts being said")
    facts: list[FactSource] = Field(
        default_factory=list, description="what it states, selected in code, in talk order"
    )
    terms: list[str] = Field(
        default_factory=list, description="the deck's terms its facts name, as it spells them"
    )


class Notes(StageOutput):
    language: str = Field(description="the language the talk is written up in")
    sections: list[Section]

    def by_id(self) -> dict[str, Section]:
        return {section.id: section for section in self.sections}
