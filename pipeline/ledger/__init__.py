"""The sentence ledger (../shared/design.md): the article as a list of sentences, each
made from one source and checked against that source alone.

    arrange.py    each chapter's facts (pipeline.notes: sources, selection), in talk order
                  and in paragraphs
    facts.py      a fact sentence per source, in the talk's language
    translate.py  each ledger sentence in the other language, house terms written by code

The general checks are pipeline.core.checks; the model writes each sentence through
pipeline.llm.rounds; the contract is pipeline.schema.ledger.
The headings, title and summary are the outline's, checked to carry no number or name
their facts lack.
"""

from dataclasses import dataclass
from pathlib import Path

from pipeline.core.checks import composed_checks
from pipeline.core.grounding import restates
from pipeline.core.prompts import Prompt, load_prompt
from pipeline.core.text import other_language
from pipeline.ledger.arrange import PlannedChapter, arrange
from pipeline.ledger.facts import rewrite_facts
from pipeline.ledger.translate import translate_sentences
from pipeline.llm.client import LLM
from pipeline.notes import what_it_states
from pipeline.notes.sources import fact_sources
from pipeline.schema import Evidence, Notes, Outline
from pipeline.schema.ledger import (
    Ledger,
    LedgerChapter,
    LedgerParagraph,
    LedgerSentence,
    SentenceKind,
    Written,
)


@dataclass(frozen=True)
class LedgerPrompts:
    rewrite_facts_en: Prompt
    rewrite_facts_zh: Prompt
    translate_sentences_en: Prompt
    translate_sentences_zh: Prompt

    NAMES = (
        "rewrite_facts_en",
        "rewrite_facts_zh",
        "translate_sentences_en",
        "translate_sentences_zh",
    )

    @classmethod
    def load(cls, prompts_dir: Path | None = None) -> "LedgerPrompts":
        return cls(*(load_prompt(name, prompts_dir) for name in cls.NAMES))

    def all(self) -> list[Prompt]:
        return [getattr(self, name) for name in self.NAMES]

    def rewrite(self, lang: str) -> Prompt:
        return self.rewrite_facts_zh if lang == "zh" else self.rewrite_facts_en

    def translate(self, lang: str) -> Prompt:
        return self.translate_sentences_zh if lang == "zh" else self.translate_sentences_en


def composed(id: str, kind: SentenceKind, text: str, facts: str, lang: str) -> LedgerSentence:
    """A sentence no single source says, with its checks against the facts it stands over
    (an empty one, a summary none could stand for or the lead's heading, has none and is
    never translated)."""
    written = Written(text=text, checks=composed_checks(text, facts, lang) if text else [])
    return LedgerSentence(id=id, kind=kind, **{lang: written})


# A fact sentence whose content words are at least this share of an earlier sentence's
# (or its chapter's heading's), with no number that one lacks, repeats it: set on the
# readings' labelled pairs (benchmarks/readings/, 2026-12-06: catches 8 of the 63
# sentences readers marked a repeat and none of 735 they did not).
REPEAT_SUPPORT = 0.9


def unrepeated(
    planned: list[PlannedChapter], facts: dict[str, LedgerSentence], lang: str
) -> dict[str, LedgerSentence]:
    """The facts without those that say again what an earlier one (or their heading)
    said; the one kept cites the repeat's units too."""
    kept: dict[str, LedgerSentence] = {}
    for plan in planned:
        for fact in plan.facts:
            sentence, text = facts[fact.id], facts[fact.id].text(lang).text
            if not sentence.text(lang).verified:
                kept[fact.id] = sentence
                continue
            if restates(text, plan.chapter.title, REPEAT_SUPPORT):
                continue
            earlier = [k for k, s in kept.items() if s.text(lang).verified]
            said = next(
                (k for k in earlier if restates(text, kept[k].text(lang).text, REPEAT_SUPPORT)),
                None,
            )
            if said:
                units = list(dict.fromkeys([*kept[said].units, *sentence.units]))
                kept[said] = kept[said].model_copy(update={"units": units})
                continue
            kept[fact.id] = sentence
    return kept


def chapters_of(
    planned: list[PlannedChapter], facts: dict[str, LedgerSentence], notes: Notes, lang: str
) -> tuple[list[LedgerChapter], list[LedgerSentence]]:
    """The ledger's planned chapters and their sentences, headings first; a heading is
    checked against what its sections state, as the outline chose it."""
    chapters, sentences, sections = [], [], notes.by_id()
    for plan in planned:
        paragraphs = [
            [facts[fact.id] for fact in paragraph if fact.id in facts]
            for paragraph in plan.paragraphs
        ]
        paragraphs = [paragraph for paragraph in paragraphs if paragraph]
        if not paragraphs:
            continue
        said = what_it_states([sections[s] for s in plan.chapter.sections])
        heading = composed(
            f"h-{plan.chapter.sections[0]}", "heading", plan.chapter.title, said, lang
        )
        sentences += [heading, *(s for p in paragraphs for s in p)]
        chapters.append(
            LedgerChapter(
                heading=heading.id,
                role=plan.chapter.role,
                sections=plan.chapter.sections,
                paragraphs=[LedgerParagraph(sentences=[s.id for s in p]) for p in paragraphs],
            )
        )
    return chapters, sentences


def write_ledger(
    outline: Outline,
    notes: Notes,
    evidence: Evidence,
    vocabulary: list[str],
    llm: LLM,
    prompts: LedgerPrompts,
) -> Ledger:
    """The article's sentences in both languages: facts rewritten one source at a time in
    the talk's language, arranged by code, then each sentence translated; a fact whose
    rewrite or translation failed twice stays in the plan, not in the printed chapters."""
    lang = outline.language
    planned = arrange(outline, notes, fact_sources(evidence), vocabulary)
    chosen = [f for plan in planned for f in plan.facts]
    facts = {
        s.source: s for s in rewrite_facts(chosen, lang, llm, prompts.rewrite(lang), vocabulary)
    }
    chapters, sentences = chapters_of(planned, unrepeated(planned, facts, lang), notes, lang)
    # what the chosen facts say, and what the talk's sections state and title themselves
    said = "\n".join([what_it_states(notes.sections), *(f.text for f in chosen)])
    title = composed("title", "title", outline.title, said, lang)
    summary = composed("summary", "summary", outline.summary, said, lang)
    sentences = translate_sentences(
        [title, summary, *sentences],
        lang,
        other_language(lang),
        llm,
        prompts.translate(other_language(lang)),
        vocabulary,
    )
    ledger = Ledger(
        language=lang,
        title=title.id,
        summary=summary.id,
        tags=outline.tags,
        plan=chapters,
        sources=chosen,
        sentences=sentences,
    )
    return ledger.arranged().marked()
