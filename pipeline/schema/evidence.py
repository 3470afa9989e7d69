"""Citable units: every claim in an article points at one of these by id."""

from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract, Provenance


class EvidenceUnit(Contract):
    id: str = Field(description="stable id: t-MM:SS (speech), s-NN (slide), n-NN (notes)")
    kind: Literal["transcript", "slide", "notes"]
    text: str
    start: float | None = Field(None, description="seconds; speech units only")
    end: float | None = None
    slide: int | None = Field(None, description="slide number, for slide and notes units")


class Evidence(Contract):
    units: list[EvidenceUnit]
    provenance: Provenance

    def by_id(self) -> dict[str, EvidenceUnit]:
        return {unit.id: unit for unit in self.units}
