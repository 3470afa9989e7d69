"""What each chapter states and in which order, decided in code: a chapter's fact sources
are those of its sections' evidence units, selected (pipeline.notes.select) and kept in
the order the talk says them; consecutive facts of one slide (or one stretch of speech)
make a paragraph.
"""

from dataclasses import dataclass

from pipeline.notes.select import select_facts
from pipeline.schema import Notes, Outline
from pipeline.schema.article import Chapter
from pipeline.schema.ledger import FactSource

# Facts a chapter states at most: every slide fact, then the speech that names and
# measures most. Bounds the model's work per chapter (about 7 s of the 1.5B per fact on 2
# cores, benchmarks/ledger_facts.py), not fitted to a case.
MAX_FACTS = 12
PARAGRAPH_FACTS = 4  # sentences a paragraph holds at most: a reader's unit, a design bound
MIN_CHAPTER_FACTS = 3  # a chapter says at least this much, or joins its neighbour


@dataclass
class PlannedChapter:
    """An outline chapter and the facts it states, in paragraphs."""

    chapter: Chapter
    paragraphs: list[list[FactSource]]

    @property
    def facts(self) -> list[FactSource]:
        return [fact for paragraph in self.paragraphs for fact in paragraph]


def in_talk_order(sources: list[FactSource], unit_ids: list[str]) -> list[FactSource]:
    """Sources in the order their units are listed (a slide where it is first shown)."""
    place = {unit: n for n, unit in enumerate(unit_ids)}
    return sorted(sources, key=lambda s: place[s.unit])  # stable: a unit's own order kept


def paragraphs_of(facts: list[FactSource]) -> list[list[FactSource]]:
    """Consecutive facts of one slide make a paragraph of up to PARAGRAPH_FACTS."""
    paragraphs: list[list[FactSource]] = []
    for fact in facts:
        last = paragraphs[-1] if paragraphs else None
        if last and len(last) < PARAGRAPH_FACTS and last[-1].slide == fact.slide:
            last.append(fact)
        else:
            paragraphs.append([fact])
    return paragraphs


def without_stubs(chapters: list[PlannedChapter]) -> list[PlannedChapter]:
    """A chapter of fewer than MIN_CHAPTER_FACTS facts joins the one before it (the first
    joins the one after); a chapter with none is left out."""
    kept: list[PlannedChapter] = []
    for planned in chapters:
        if not planned.facts:
            continue
        if kept and len(planned.facts) < MIN_CHAPTER_FACTS:
            kept[-1].paragraphs += planned.paragraphs
        else:
            kept.append(planned)
    if len(kept) > 1 and len(kept[0].facts) < MIN_CHAPTER_FACTS:
        first = kept.pop(0)
        kept[0].paragraphs[:0] = first.paragraphs
    return kept


def arrange(
    outline: Outline, notes: Notes, sources: list[FactSource], vocabulary: list[str]
) -> list[PlannedChapter]:
    """Each outline chapter with the facts it states, in paragraphs; a source belongs to
    the first chapter whose sections hold its unit."""
    sections = notes.by_id()
    placed: set[str] = set()
    planned = []
    for chapter in outline.chapters:
        unit_ids = [u for s in chapter.sections for u in sections[s].unit_ids]
        own = [s for s in sources if s.unit in set(unit_ids) and s.id not in placed]
        placed |= {s.id for s in own}
        chosen = select_facts(in_talk_order(own, unit_ids), vocabulary, MAX_FACTS)
        planned.append(PlannedChapter(chapter, paragraphs_of(chosen)))
    return without_stubs(planned)
