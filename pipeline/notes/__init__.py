"""The notes stage (notes.json): the talk cut into its own sections, and what each section
states, decided in code with no LLM call: its fact sources (every table row, the slide lines
that state something on their own, and the speech that names or measures something;
pipeline.notes.select) and the deck's
terms they name. The outline plans chapters over these; the ledger writes them.
"""

from pipeline.core.grounding import mentions
from pipeline.core.text import writing_language
from pipeline.notes.options import NotesOptions
from pipeline.notes.sections import split_sections
from pipeline.notes.select import select_facts
from pipeline.notes.sources import fact_sources
from pipeline.schema import Evidence, FactSource, Notes, Section


def with_facts(section: Section, sources: list[FactSource], vocabulary: list[str]) -> Section:
    """The section with the facts of its units, in the order it lists them, and the terms
    they name, in the order first named."""
    place = {unit: n for n, unit in enumerate(section.unit_ids)}
    own = sorted((s for s in sources if s.unit in place), key=lambda s: place[s.unit])
    facts = select_facts(own, vocabulary)
    said = "\n".join(f.text for f in facts)
    named = [t for t in vocabulary if mentions(said, t)]
    terms = sorted(named, key=lambda t: said.lower().find(t.lower()) % (len(said) + 1))
    return section.model_copy(update={"facts": facts, "terms": terms})


def what_it_states(sections: list[Section]) -> str:
    """Sections' facts and slide titles: what a heading, title or summary over them may name."""
    return "\n".join(
        [*(f.text for s in sections for f in s.facts), *(s.title or "" for s in sections)]
    )


def build_notes(evidence: Evidence, vocabulary: list[str], opts: NotesOptions) -> Notes:
    """The talk's sections with their facts; `vocabulary` is the deck's terms."""
    sources = fact_sources(evidence)
    sections = [with_facts(s, sources, vocabulary) for s in split_sections(evidence, opts)]
    return Notes(language=writing_language(evidence.language), sections=sections)
