"""The talk's own sections and the claims each one makes (the notes stage)."""

from pydantic import Field

from pipeline.schema.base import Contract, StageOutput


class Claim(Contract):
    statement: str = Field(description="one fact the talk states, in the talk's language")
    units: list[str] = Field(min_length=1, description="ids of the evidence units it rests on")
    numbers: list[str] = Field(default_factory=list, description="verbatim, with their units")
    terms: list[str] = Field(default_factory=list, description="as the deck spells them")


class DroppedClaim(Contract):
    statement: str
    reason: str


class Section(Contract):
    """A stretch of the talk on one topic: a slide group, or speech between topic shifts."""

    id: str = Field(description="sec-NN, in talk order")
    title: str | None = Field(None, description="the deck's title for it, if any")
    unit_ids: list[str] = Field(min_length=1)
    start: float | None = Field(None, description="seconds; when it starts being said")
    claims: list[Claim] = Field(default_factory=list)
    dropped: list[DroppedClaim] = Field(default_factory=list, description="failed the checks")


class Notes(StageOutput):
    language: str = Field(description="the language the claims are written in")
    sections: list[Section]

    def by_id(self) -> dict[str, Section]:
        return {section.id: section for section in self.sections}
