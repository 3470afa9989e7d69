"""Outline, drafts and typeset articles."""

from typing import Literal, get_args

from pydantic import ConfigDict, Field, model_validator

from pipeline.schema.base import Contract, StageOutput
from pipeline.schema.checks import SentenceCheck

Role = Literal["problem", "cause", "mechanism", "results", "limits"]
CAUSAL_ORDER: tuple[Role, ...] = get_args(Role)
Lang = Literal["en", "zh"]


class Chapter(Contract):
    title: str = Field(description="in the talk's language")
    role: Role | None = Field(None, description="its place in the causal chain, where it fits")
    sections: list[str] = Field(min_length=1, description="section ids, in talk order")


class Outline(StageOutput):
    language: Lang = Field(description="the language the outline (and first draft) is in")
    title: str
    summary: str = Field(
        "", description="one sentence for the index card; empty when none could stand"
    )
    tags: list[str] = Field(default_factory=list, description="1-3 category tags, broad first")
    chapters: list[Chapter] = Field(min_length=1)


class DraftParagraph(Contract):
    text: str
    citations: list[str] = Field(description="evidence ids backing this paragraph")


class DraftSection(Contract):
    role: Role | None = None
    title: str
    paragraphs: list[DraftParagraph]


class DraftText(Contract):
    """The article in one language, before typesetting."""

    lang: Lang
    title: str
    summary: str = ""
    sections: list[DraftSection]

    def lines(self) -> list[str]:
        """Its title, its chapters' titles and its paragraphs (not the summary)."""
        paragraphs = [p.text for s in self.sections for p in s.paragraphs]
        return [self.title, *(s.title for s in self.sections), *paragraphs]


PlacePart = Literal["title", "summary", "heading", "paragraph", "text", "tags", "sentence"]


class Place(Contract):
    """Where something stands: an article's title, summary or whole text, a chapter's
    heading or paragraph (numbered from 1), the tags both languages share, or a sentence
    by its ledger id (one left out, a question) — said in words only where it is shown."""

    model_config = ConfigDict(frozen=True)

    lang: Lang | None = Field(None, description="none for the tags")
    part: PlacePart
    chapter: int | None = None
    paragraph: int | None = None
    sentence: str | None = Field(None, description="the ledger sentence, where one is meant")

    @model_validator(mode="after")
    def _complete(self) -> "Place":
        needs = {
            "tags": self.lang is None,
            "heading": self.chapter is not None,
            "paragraph": self.chapter is not None and self.paragraph is not None,
            "sentence": self.sentence is not None,
        }
        if not needs.get(self.part, True) or (self.part != "tags" and self.lang is None):
            raise ValueError(f"a place of part {self.part!r} lacks what locates it")
        return self

    def __str__(self) -> str:
        """A short form for logs and run records: "en §2¶1", "zh §3 title", "tags"."""
        if self.part == "tags":
            return "tags"
        if self.part == "paragraph":
            return f"{self.lang} §{self.chapter}¶{self.paragraph}"
        if self.part == "heading":
            return f"{self.lang} §{self.chapter} title"
        if self.part == "sentence":
            return f"{self.lang} {self.sentence}"
        return self.lang if self.part == "text" else f"{self.lang} {self.part}"

    def of(self, lang: Lang) -> "Place":
        """The same place in the article in `lang`."""
        return self.model_copy(update={"lang": lang})


class Revision(Contract):
    """A sentence, heading, title or summary that failed its checks: what its last answer
    failed, and what was done."""

    place: Place
    findings: list[SentenceCheck] = Field(default_factory=list)
    reason: str = Field("", description="why it went, when no check of it failed")
    action: Literal["kept with findings", "dropped"] = Field(
        description="kept with findings: a marked fallback stands; dropped: left out"
    )


class Draft(StageOutput):
    """Both languages, with the same chapters, paragraphs and citations."""

    en: DraftText
    zh: DraftText
    tags: list[str] = Field(default_factory=list)
    revisions: list[Revision] = Field(default_factory=list)

    def texts(self) -> tuple[DraftText, DraftText]:
        return self.zh, self.en

    def text(self, lang: str) -> DraftText:
        """The article in `lang` ("zh"; anything else is the English one)."""
        return self.zh if lang == "zh" else self.en


class Article(Contract):
    """One typeset article: Markdown with YAML front matter."""

    lang: Lang
    markdown: str

    @property
    def file_name(self) -> str:
        return f"article.{self.lang}.md"
