"""Outline, drafts and typeset articles."""

from typing import Literal, get_args

from pydantic import Field

from pipeline.schema.base import Contract, StageOutput

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


class Revision(Contract):
    """A paragraph or title that failed the checks: what was wrong and what was done."""

    where: str = Field(description="e.g. 'en §2¶1' or 'zh title'")
    findings: list[str]
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
