"""Outline and drafts: the article before typesetting."""

from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract, Provenance

Role = Literal["problem", "cause", "mechanism", "results", "limits"]
CAUSAL_ORDER: tuple[Role, ...] = ("problem", "cause", "mechanism", "results", "limits")


class OutlineSection(Contract):
    role: Role
    title: str = Field(description="English chapter title")
    evidence_ids: list[str] = Field(min_length=1)


class Outline(Contract):
    title: str = Field(description="English article title")
    sections: list[OutlineSection] = Field(min_length=1)
    provenance: Provenance


class DraftParagraph(Contract):
    text: str
    citations: list[str] = Field(description="evidence ids backing this paragraph")


class DraftSection(Contract):
    role: Role
    title: str
    paragraphs: list[DraftParagraph]


class Draft(Contract):
    lang: Literal["en", "zh"]
    title: str
    sections: list[DraftSection]
    provenance: Provenance
