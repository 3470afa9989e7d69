"""Which fact sources an article states, decided in code before any is rewritten, so the
model's work grows with the article, not with the talk:

- every slide line and table row is kept (what the deck shows is what the talk claims);
- a sentence said is kept when it names or measures something: a number, a name, or a
  term of the talk's vocabulary or the house terminology. Meta-talk ("next we compare a
  few of them") names nothing and is left out;
- a sentence said with a word recognition may have misheard (pipeline.evidence.uncertain)
  is left out: what was misheard is not built upon;
- speech that only says again what a kept slide line says (its content words are that
  line's) is left out, and so is speech that repeats an earlier kept sentence; a slide
  line that a kept sentence said already states whole (its words and numbers) is left
  out too: the sentence said is its fuller form;
- past `limit`, the speech that names and measures most is kept, the rest left out; what
  is kept stays in talk order.
"""

from pipeline.core import terminology
from pipeline.core.checks import names_of
from pipeline.core.grounding import duplicate_of, mentions, support
from pipeline.core.text import has_cjk, numbers
from pipeline.schema.ledger import FactSource

# Speech whose content words a slide line holds this share of says nothing beyond it: the
# support bound of pipeline.core.grounding (MIN_SUPPORT is half; "all but a word" here).
COVERED = 0.8


def weight(source: FactSource, vocabulary: list[str]) -> int:
    """What a source names and measures: its numbers, names and known terms."""
    text = source.text
    terms = terminology.chinese_terms_in(text) if has_cjk(text) else terminology.terms_in(text)
    said = [v for v in vocabulary if mentions(text, v)]
    return 2 * len(numbers(text)) + len(names_of(text)) + len(said) + len(terms)


def covering(source: FactSource, by: list[FactSource]) -> FactSource | None:
    """The first of `by` that already says `source` whole: its content words and numbers."""
    return next(
        (
            other
            for other in by
            if support(source.text, other.text) >= COVERED
            and numbers(source.text) <= numbers(other.text)
        ),
        None,
    )


def select_facts(
    sources: list[FactSource], vocabulary: list[str], limit: int | None = None
) -> list[FactSource]:
    """The sources an article states, in talk order (see the module's docstring)."""
    shown = [s for s in sources if s.shown]
    said: list[FactSource] = []
    for source in sources:
        if source.shown or source.uncertain:
            continue
        if weight(source, vocabulary) == 0:
            continue
        if covering(source, shown) or duplicate_of(source.text, [s.text for s in said]) is not None:
            continue
        said.append(source)
    if limit is not None and len(shown) + len(said) > limit:
        room = max(limit - len(shown), 0)
        ranked = {s.id for s in sorted(said, key=lambda s: -weight(s, vocabulary))[:room]}
        said = [s for s in said if s.id in ranked]
    shown = [line for line in shown if covering(line, said) is None]
    kept = {s.id for s in shown + said}
    return [s for s in sources if s.id in kept]
