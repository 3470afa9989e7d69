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
    Place,
    Revision,
    Role,
)
from pipeline.schema.base import Contract, StageOutput
from pipeline.schema.checks import SentenceCheck
from pipeline.schema.notes import FactSource

SentenceKind = Literal["fact", "lead", "heading", "title", "summary", "question"]
# Kinds no single source says (an article cannot do without them): bound to their own text.
COMPOSED = ("heading", "title", "summary", "lead")


def joined(sentences: list["LedgerSentence"], lang: str) -> str:
    """A paragraph: its sentences side by side in Chinese, a space apart otherwise."""
    texts = [w.text for s in sentences if (w := s.text(lang)) and w.text]
    return ("" if lang == "zh" else " ").join(texts)


class Written(Contract):
    """A ledger sentence in one language, with how it was verified."""

    text: str
    checks: list[SentenceCheck] = Field(default_factory=list)
    left_out: bool = Field(
        False, description="the model's answers failed their checks: not printed, listed"
    )
    rejected: list[SentenceCheck] = Field(
        default_factory=list, description="what the model's last answer failed"
    )
    calls: int = Field(1, description="the model calls it took (a retry is a second)")
    edited_by: str | None = Field(None, description="the reviewer whose edit this text is")

    @property
    def verified(self) -> bool:
        return not self.left_out and all(c.passed for c in self.checks)

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

    @property
    def printed(self) -> bool:
        """Written in both languages, and neither left out."""
        return all(w is not None and not w.left_out for w in (self.zh, self.en))


class LeftOut(Contract):
    """A fact sentence the article does not print: its answers in `lang` failed their
    checks (or it was never translated, its first language having failed)."""

    sentence: str = Field(description="the ledger sentence's id")
    lang: Lang = Field(description="the language whose sentence failed")
    answer: str = Field("", description="the model's last answer, never printed")
    failed: list[SentenceCheck] = Field(default_factory=list)


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
    chapters: list[LedgerChapter] = Field(
        default_factory=list, description="the printed sentences, arranged (see `arranged`)"
    )
    plan: list[LedgerChapter] = Field(
        default_factory=list, description="every fact sentence where it stands, left out or not"
    )
    sources: list[FactSource] = Field(default_factory=list)
    sentences: list[LedgerSentence] = Field(default_factory=list)

    def by_id(self) -> dict[str, LedgerSentence]:
        return {sentence.id: sentence for sentence in self.sentences}

    def arranged(self) -> "Ledger":
        """The ledger whose chapters are its plan's printed sentences: a paragraph left
        empty goes, and so does a chapter left without paragraphs."""
        printed = {s.id for s in self.sentences if s.printed}
        chapters = []
        for chapter in self.plan or self.chapters:
            paragraphs = [
                LedgerParagraph(sentences=kept)
                for p in chapter.paragraphs
                if (kept := [i for i in p.sentences if i in printed])
            ]
            if paragraphs:
                chapters.append(chapter.model_copy(update={"paragraphs": paragraphs}))
        return self.model_copy(update={"chapters": chapters})

    def without(self, dropped: set[str]) -> "Ledger":
        """The ledger without the dropped sentences, arranged again."""
        sentences = [s for s in self.sentences if s.id not in dropped]
        return self.model_copy(update={"sentences": sentences}).arranged()

    def left_out(self) -> list[LeftOut]:
        """The plan's sentences not printed, in the plan's order, with what failed."""
        by_id, found = self.by_id(), []
        languages = (self.language, "en" if self.language == "zh" else "zh")
        planned = [i for chapter in self.plan for p in chapter.paragraphs for i in p.sentences]
        for sentence in (by_id[i] for i in planned if i in by_id and not by_id[i].printed):
            lang = next(x for x in languages if not (w := sentence.text(x)) or w.left_out)
            written = sentence.text(lang)
            answer, failed = (written.text, written.rejected) if written else ("", [])
            found.append(LeftOut(sentence=sentence.id, lang=lang, answer=answer, failed=failed))
        return found

    def paragraph(self, ids: list[str], lang: str) -> DraftParagraph:
        """The sentences `ids` (each in the ledger) joined in `lang`, citing their units."""
        sentences = self.by_id()
        units = [u for i in ids for u in sentences[i].units]
        text = joined([sentences[i] for i in ids], lang)
        return DraftParagraph(text=text, citations=list(dict.fromkeys(units)))

    def text(self, lang: Lang) -> DraftText:
        """The article in `lang`, composed: a paragraph is its sentences joined."""
        sentences = self.by_id()

        def said(sentence_id: str) -> str:
            written = sentences[sentence_id].text(lang)
            return written.text if written else ""

        chapters = [
            DraftSection(
                role=chapter.role,
                title=said(chapter.heading),
                paragraphs=[self.paragraph(p.sentences, lang) for p in chapter.paragraphs],
            )
            for chapter in self.chapters
        ]
        return DraftText(
            lang=lang, title=said(self.title), summary=said(self.summary), sections=chapters
        )

    def places(self, lang: Lang) -> dict[str, Place]:
        """Where each printed sentence stands in the article in `lang`."""
        where = {
            self.title: Place(lang=lang, part="title", sentence=self.title),
            self.summary: Place(lang=lang, part="summary", sentence=self.summary),
        }
        for c, chapter in enumerate(self.chapters, start=1):
            where[chapter.heading] = Place(
                lang=lang, part="heading", chapter=c, sentence=chapter.heading
            )
            for p, paragraph in enumerate(chapter.paragraphs, start=1):
                for i in paragraph.sentences:
                    where[i] = Place(
                        lang=lang, part="paragraph", chapter=c, paragraph=p, sentence=i
                    )
        return where

    def revisions(self) -> list[Revision]:
        """Each fact sentence left out, and each heading, title or summary whose best
        failed answer stands, with what its last answer failed."""
        found = [
            Revision(
                place=Place(lang=left.lang, part="sentence", sentence=left.sentence),
                findings=left.failed,
                reason="" if left.failed else "not translated",
                action="dropped",
            )
            for left in self.left_out()
        ]
        places = {lang: self.places(lang) for lang in ("zh", "en")}
        for sentence in (s for s in self.sentences if s.id in places["zh"]):
            for lang in ("zh", "en"):
                written = sentence.text(lang)
                if written is not None and written.rejected:
                    kept = Revision(
                        place=places[lang][sentence.id],
                        findings=written.rejected,
                        action="kept with findings",
                    )
                    found.append(kept)
        return found

    def marked(self) -> "Ledger":
        """The ledger with what it left out or kept with findings listed (what a run
        reports)."""
        return self.model_copy(update={"fallbacks": [str(r.place) for r in self.revisions()]})

    def draft(self) -> Draft:
        """The article in both languages, as the review, the Q&A and typesetting read it."""
        revisions = self.revisions()
        return Draft(
            en=self.text("en"),
            zh=self.text("zh"),
            tags=self.tags,
            revisions=revisions,
            fallbacks=[str(r.place) for r in revisions],
            warnings=self.warnings,
        )
