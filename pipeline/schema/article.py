"""Outline, drafts and typeset articles."""

from typing import Literal, get_args

from pydantic import Field

from pipeline.schema.base import Contract, StageOutput

Role = Literal["problem", "cause", "mechanism", "results", "limits"]
CAUSAL_ORDER: tuple[Role, ...] = get_args(Role)
Lang = Literal["en", "zh"]


class OutlineSection(Contract):
    role: Role
    title: str = Field(description="English chapter title")
    evidence_ids: list[str] = Field(min_length=1)


class Outline(StageOutput):
    title: str = Field(description="English article title")
    sections: list[OutlineSection] = Field(min_length=1)


class DraftParagraph(Contract):
    text: str
    citations: list[str] = Field(description="evidence ids backing this paragraph")


class DraftSection(Contract):
    role: Role
    title: str
    paragraphs: list[DraftParagraph]


class DraftText(Contract):
    """The article in one language, before typesetting."""

    lang: Lang
    title: str
    sections: list[DraftSection]


class Draft(StageOutput):
    """Both languages, with the same chapters, paragraphs and citations."""

    en: DraftText
    zh: DraftText

    def texts(self) -> tuple[DraftText, DraftText]:
        return self.zh, self.en


class Article(Contract):
    """One typeset article: Markdown with YAML front matter."""

    lang: Lang
    markdown: str

    @property
    def file_name(self) -> str:
        return f"article.{self.lang}.md"
