"""Fact sentences: each fact source (what was said, a slide line under its slide's title,
a table row) rewritten as one written sentence in the talk's language and verified against
that source alone (pipeline.core.checks), one call each (pipeline.llm.rounds). A
rewrite that fails twice is left out: the source's own words are never printed. A
sentence's numbers can only come from its own source: the model sees that source alone,
and a number its source lacks fails the number check.
"""

from functools import partial

from pipeline.core.checks import rewrite_checks
from pipeline.core.grounding import mentions
from pipeline.core.impersonal import impersonal
from pipeline.core.prompts import Prompt
from pipeline.core.voice import without_opener
from pipeline.llm.client import LLM
from pipeline.llm.rounds import Job, written
from pipeline.outline.headings import heading_of
from pipeline.schema.ledger import FactSource, LedgerSentence, Written

KIND_LABEL = {"slide": "slide line", "table": "table row", "speech": "said", "notes": "notes"}


def line_of(source: FactSource, lang: str) -> str:
    """How the prompt lists a source: what it is (a slide line under its title), its text.
    What the model would copy into its sentence is left out: the title's series label
    ("2025 Highlight:"), the discourse markers a spoken sentence opens with ("So, ") and
    an English "we" (pipeline.core.impersonal), said or on a slide."""
    kind = KIND_LABEL[source.kind]
    label = f'{kind} of "{heading_of(source.context)}"' if source.context else kind
    text = without_opener(source.text) if source.kind in ("speech", "notes") else source.text
    return f"({label}) {impersonal(text) if lang == 'en' else text}"


def named(text: str, terms: list[str]) -> str:
    """The terms a text names, for the prompt's list of names to keep."""
    return ", ".join(t for t in terms if mentions(text, t))


def fact_sentence(source: FactSource, lang: str, written: Written) -> LedgerSentence:
    return LedgerSentence(
        id=f"f-{source.id}", kind="fact", source=source.id, units=[source.unit], **{lang: written}
    )


def rewrite_facts(
    sources: list[FactSource], lang: str, llm: LLM, prompt: Prompt, terms: list[str]
) -> list[LedgerSentence]:
    """A fact sentence per source, in the sources' order, in language `lang`."""
    jobs = [
        Job(
            id=source.id,
            line=line_of(source, lang),
            check=partial(rewrite_checks, source=source, lang=lang),
            # the names ride in the instruction's own line: never empty, or it is left out
            values={"terms": named(f"{source.context}\n{source.text}", terms) or "(none)"},
        )
        for source in sources
    ]
    done = written(jobs, llm, prompt)
    return [fact_sentence(source, lang, done[source.id]) for source in sources]
