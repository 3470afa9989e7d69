"""The sentence ledger: the article as a list of sentences, each made from one source and
checked against that source alone (pipeline/ledger/)."""

from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract, StageOutput

SourceKind = Literal["slide", "table", "speech", "notes"]
SentenceKind = Literal["fact", "lead", "heading", "title", "summary"]
CheckName = Literal["numbers", "names", "meaning", "language", "voice", "length", "sentence"]


class FactSource(Contract):
    """One thing the talk states: a slide line, a table row, or one sentence said."""

    id: str = Field(description="its unit's id and its place there: s-02.3, t-00:01:05.0")
    unit: str = Field(description="the evidence unit it is part of (what a citation names)")
    kind: SourceKind
    text: str
    context: str = Field("", description="the slide's title or the table's header, if any")
    slide: int | None = None
    start: float | None = Field(None, description="seconds; speech only")


class SentenceCheck(Contract):
    """One general check of a sentence against its own source."""

    check: CheckName
    passed: bool
    detail: str = Field("", description="what differs: the numbers, names or score")


class Written(Contract):
    """A ledger sentence in one language, with how it was verified."""

    text: str
    checks: list[SentenceCheck] = Field(default_factory=list)
    fallback: bool = Field(
        False, description="the model's answers failed their checks: a fallback stands in"
    )
    rejected: list[SentenceCheck] = Field(
        default_factory=list, description="with a fallback: what the last answer failed"
    )

    @property
    def verified(self) -> bool:
        return not self.fallback and all(c.passed for c in self.checks)

    def failed(self) -> list[SentenceCheck]:
        return [c for c in self.checks if not c.passed]


class LedgerSentence(Contract):
    id: str = Field(description="stable: f-<source id> for a fact")
    kind: SentenceKind
    source: str | None = Field(None, description="the FactSource it is made from (facts)")
    units: list[str] = Field(default_factory=list, description="evidence units it cites")
    zh: Written | None = None
    en: Written | None = None

    def text(self, lang: str) -> Written | None:
        return self.zh if lang == "zh" else self.en


class Ledger(StageOutput):
    language: str = Field(description="the language sentences are written in first")
    sources: list[FactSource] = Field(default_factory=list)
    sentences: list[LedgerSentence] = Field(default_factory=list)
