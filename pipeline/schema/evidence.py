"""Citable units: every claim in an article points at one of these by id."""

from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract, StageOutput
from pipeline.schema.transcript import Correction


class EvidenceUnit(Contract):
    id: str = Field(description="stable id: t-HH:MM:SS (speech), s-NN (slide), n-NN (notes)")
    kind: Literal["transcript", "slide", "notes"]
    text: str
    start: float | None = Field(None, description="seconds; speech units only")
    end: float | None = None
    slide: int | None = Field(
        None, description="the slide: on screen while this was said, or the slide itself"
    )
    image: str | None = Field(None, description="slide picture, relative to the talk's outputs")
    uncertain: list[str] = Field(
        default_factory=list,
        description="recognised words no dictionary, slide or vocabulary knows: maybe misheard",
    )


class GlossaryEntry(Contract):
    term: str
    first_unit: str | None = Field(None, description="id of the unit it first appears in")
    first_time: float | None = Field(None, description="seconds; when it is first said or shown")


class Evidence(StageOutput):
    language: str = Field("en", description="the talk's language, ISO 639-1")
    units: list[EvidenceUnit]
    glossary: list[GlossaryEntry] = Field(default_factory=list)
    corrections: list[Correction] = Field(
        default_factory=list, description="speech corrected by the slide on screen"
    )

    def by_id(self) -> dict[str, EvidenceUnit]:
        return {unit.id: unit for unit in self.units}

    def lines(self) -> list[str]:
        """Every line of every unit: what a heading must not be cut out of."""
        return [line for unit in self.units for line in unit.text.splitlines()]
