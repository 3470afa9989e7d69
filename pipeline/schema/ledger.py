"""The sentence ledger: the article as a list of sentences, each made from one source and
checked against that source alone (pipeline/ledger/)."""

from typing import Literal

from pydantic import Field

from pipeline.schema.article import (
    Draft,
    DraftParagraph,
    DraftSection,
    DraftText,
    Lang,
    Revision,
    Role,
)
from pipeline.schema.base import Contract, StageOutput
from pipeline.schema.notes import FactSource

SentenceKind = Literal["fact", "item", "lead", "heading", "title", "summary", "question"]
CheckName = Literal["numbers", "names", "meaning", "language", "voice", "length", "sentence"]


def joined(sentences: list["LedgerSentence"], lang: str) -> str:
    """A paragraph: its sentences side by side in Chinese, a space apart otherwise; a run of
    items (a slide's labels) listed, parted by semicolons and ended as a sentence."""
    end, part, gap = ("。", "；", "") if lang == "zh" else (".", "; ", " ")
    pieces: list[str] = []
    items: list[str] = []
    for sentence in [*sentences, None]:
        written = sentence.text(lang) if sentence else None
        if sentence and sentence.kind == "item":
            items.append((written.text if written else "").rstrip(" .。;；"))
            continue
        if items:
            pieces.append(part.join(items) + end)
            items = []
        if written:
            pieces.append(written.text)
    return gap.join(piece for piece in pieces if piece)


class SentenceCheck(Contract):
    """One general check of a sentence against its own source."""

    check: CheckName
    passed: bool
    detail: str = Field("", description="what differs: the numbers, names or score")
    added: list[str] = Field(default_factory=list, description="numbers or names it added")


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
    calls: int = Field(1, description="the model calls it took (a retry is a second)")
    edited_by: str | None = Field(None, description="the reviewer whose edit this text is")

    @property
    def verified(self) -> bool:
        return not self.fallback and all(c.passed for c in self.checks)

    def failed(self) -> list[SentenceCheck]:
        return [c for c in self.checks if not c.passed]

    @property
    def unfaithful(self) -> bool:
        """A fallback that states another fact than its source: a number changed, lost or
        added, or a name added (a name left out, or a word failing the language check,
        changes no fact)."""
        return self.fallback and any(
            (c.check == "numbers" and not c.passed) or (c.check == "names" and c.added)
            for c in self.checks
        )


class LedgerSentence(Contract):
    id: str = Field(description="stable: f-<source id> for a fact")
    kind: SentenceKind
    source: str | None = Field(None, description="the FactSource it is made from (facts)")
    units: list[str] = Field(default_factory=list, description="evidence units it cites")
    zh: Written | None = None
    en: Written | None = None

    def text(self, lang: str) -> Written | None:
        return self.zh if lang == "zh" else self.en


class LedgerParagraph(Contract):
    sentences: list[str] = Field(min_length=1, description="ledger sentence ids, in order")


class LedgerChapter(Contract):
    heading: str = Field(description="the id of its heading sentence")
    role: Role | None = None
    sections: list[str] = Field(description="the notes' section ids it covers, in talk order")
    paragraphs: list[LedgerParagraph] = Field(min_length=1)


class Ledger(StageOutput):
    """The article: its sentences, where each comes from, and how they are arranged."""

    language: Lang = Field(description="the language sentences are written in first")
    title: str = Field(description="the id of the title sentence")
    summary: str = Field(description="the id of the summary sentence")
    tags: list[str] = Field(default_factory=list)
    chapters: list[LedgerChapter] = Field(default_factory=list)
    sources: list[FactSource] = Field(default_factory=list)
    sentences: list[LedgerSentence] = Field(default_factory=list)

    def by_id(self) -> dict[str, LedgerSentence]:
        return {sentence.id: sentence for sentence in self.sentences}

    def without(self, dropped: set[str]) -> "Ledger":
        """The ledger without the dropped sentences; a paragraph left empty goes, and so
        does a chapter left without paragraphs."""
        chapters = []
        for chapter in self.chapters:
            paragraphs = [
                LedgerParagraph(sentences=kept)
                for p in chapter.paragraphs
                if (kept := [i for i in p.sentences if i not in dropped])
            ]
            if paragraphs:
                chapters.append(chapter.model_copy(update={"paragraphs": paragraphs}))
        sentences = [s for s in self.sentences if s.id not in dropped]
        return self.model_copy(update={"chapters": chapters, "sentences": sentences})

    def text(self, lang: Lang) -> DraftText:
        """The article in `lang`, composed: a paragraph is its sentences joined."""
        sentences = self.by_id()

        def said(sentence_id: str) -> str:
            written = sentences[sentence_id].text(lang)
            return written.text if written else ""

        def paragraph(ids: list[str]) -> DraftParagraph:
            units = [u for i in ids for u in sentences[i].units]
            text = joined([sentences[i] for i in ids], lang)
            return DraftParagraph(text=text, citations=list(dict.fromkeys(units)))

        chapters = [
            DraftSection(
                role=chapter.role,
                title=said(chapter.heading),
                paragraphs=[paragraph(p.sentences) for p in chapter.paragraphs],
            )
            for chapter in self.chapters
        ]
        return DraftText(
            lang=lang, title=said(self.title), summary=said(self.summary), sections=chapters
        )

    def places(self) -> dict[str, str]:
        """Where each sentence stands in the article: "§2¶1", "§2 title", "title"."""
        where = {self.title: "title", self.summary: "summary"}
        for c, chapter in enumerate(self.chapters, start=1):
            where[chapter.heading] = f"§{c} title"
            for p, paragraph in enumerate(chapter.paragraphs, start=1):
                where |= dict.fromkeys(paragraph.sentences, f"§{c}¶{p}")
        return where

    def revisions(self) -> list[Revision]:
        """Each sentence a fallback stands in for, with what its last answer failed."""
        places = self.places()
        found = []
        for sentence in self.sentences:
            for lang in ("zh", "en"):
                written = sentence.text(lang)
                if written is None or not written.fallback or sentence.id not in places:
                    continue
                rejected = written.rejected or written.failed()
                failed = [f"{sentence.id} {c.check}: {c.detail}" for c in rejected]
                where = f"{lang} {places[sentence.id]}"
                found.append(Revision(where=where, findings=failed, action="kept with findings"))
        return found

    def marked(self) -> "Ledger":
        """The ledger with its fallbacks listed where they stand (what a run reports)."""
        return self.model_copy(update={"fallbacks": [r.where for r in self.revisions()]})

    def draft(self) -> Draft:
        """The article in both languages, as the review, the Q&A and typesetting read it."""
        revisions = self.revisions()
        return Draft(
            en=self.text("en"),
            zh=self.text("zh"),
            tags=self.tags,
            revisions=revisions,
            fallbacks=[r.where for r in revisions],
            warnings=self.warnings,
        )
