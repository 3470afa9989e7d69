"""Fact sentences: each fact source rewritten as one written sentence in the talk's
language and verified against that source alone (pipeline.core.checks), one call each
(pipeline.ledger.rounds). A rewrite that fails twice gives way to its source: speech as
said, marked as a fallback; a slide line or table row as shown, a label. A sentence's
numbers can only come from its own source: the model sees that source alone, and a
number its source lacks fails the number check.
"""

from functools import partial

from pipeline.core.checks import SENTENCE_ENDS, is_title_case, rewrite_checks
from pipeline.core.grounding import mentions
from pipeline.core.prompts import Prompt
from pipeline.ledger.rounds import Job, written
from pipeline.llm.client import LLM
from pipeline.schema.ledger import FactSource, LedgerSentence, Written

KIND_LABEL = {"slide": "slide line", "table": "table row", "speech": "said", "notes": "notes"}


def line_of(source: FactSource) -> str:
    """How the prompt lists a source: what it is (a slide line under its title), its text."""
    kind = KIND_LABEL[source.kind]
    label = f'{kind} of "{source.context}"' if source.context else kind
    return f"({label}) {source.text}"


def as_said(source: FactSource, lang: str, tries: list[Written] = ()) -> Written:
    """The source as said or shown stands in, with its own checks (a speaker's "I" still
    shows) and what the model's last answer failed. What was said is ended as a sentence
    and marked a fallback: speech as said is no written sentence. A slide line or table row
    stands as the deck shows it, a label: the deck's own words, no fallback."""
    text = source.text.rstrip()
    if not source.shown and not text.endswith(SENTENCE_ENDS):
        text += "。" if lang == "zh" else "."
    return Written(
        text=text,
        checks=rewrite_checks(text, source, lang),
        fallback=not source.shown,
        rejected=tries[-1].failed() if tries else [],
    )


def is_label(source: FactSource) -> bool:
    """A slide line written in title case is a label, the way slides head a list
    ("Hierarchical KV Caching Integration"): it states no claim, so it is kept as shown
    (any sentence made of it needs a predicate the deck does not give)."""
    text = source.text
    return source.kind == "slide" and is_title_case(text) and not text.endswith(SENTENCE_ENDS)


def named(text: str, terms: list[str]) -> str:
    """The terms a text names, for the prompt's list of names to keep."""
    return ", ".join(t for t in terms if mentions(text, t))


def fact_sentence(source: FactSource, lang: str, written: Written) -> LedgerSentence:
    """A fact, or an item where a slide line or table row stays a label (no sentence end)."""
    label = source.shown and not written.text.endswith(SENTENCE_ENDS)
    return LedgerSentence(
        id=f"f-{source.id}",
        kind="item" if label else "fact",
        source=source.id,
        units=[source.unit],
        **{lang: written},
    )


def rewrite_facts(
    sources: list[FactSource], lang: str, llm: LLM, prompt: Prompt, terms: list[str]
) -> list[LedgerSentence]:
    """A fact sentence per source, in the sources' order, in language `lang`."""
    jobs = [
        Job(
            id=source.id,
            line=line_of(source),
            check=partial(rewrite_checks, source=source, lang=lang),
            fallback=partial(as_said, source, lang),
            # the names ride in the instruction's own line: never empty, or it is left out
            values={"terms": named(f"{source.context}\n{source.text}", terms) or "(none)"},
        )
        for source in sources
        if not is_label(source)
    ]
    done = written(jobs, llm, prompt)
    labels = {
        s.id: as_said(s, lang).model_copy(update={"calls": 0}) for s in sources if is_label(s)
    }
    return [fact_sentence(source, lang, (done | labels)[source.id]) for source in sources]
