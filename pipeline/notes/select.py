"""Which fact sources an article states, decided in code before any is rewritten, so the
model's work grows with the article, not with the talk:

- every table row is kept, and every slide line that states something on its own: a
  clause (in English, a subject and a finite verb: pipeline.core.grammar) or a quantity. A
  label that measures nothing ("LangChain JSON parser", "Pluggable backends: Mooncake,
  3FS") is not: a sentence made from it must invent how its words relate, and its
  slide's picture, beside the paragraph that cites the slide, already shows it;
- a sentence said is kept when it names or measures something: a quantity (a number with
  its unit), a name, or a term of the talk's vocabulary or the house terminology. Meta-talk
  ("next we compare a few of them") and small talk ("it was 11 at night") name nothing and
  are left out;
- a sentence said with a word recognition may have misheard (pipeline.evidence.uncertain)
  is left out: what was misheard is not built upon;
- speech that only says again what a kept slide line says (its content words are that
  line's) is left out, and so is speech that repeats an earlier kept sentence; a slide
  line that a kept sentence said already states whole (its words and numbers) is left
  out too: the sentence said is its fuller form;
- past `limit`, the speech kept is chosen greedily by what it adds: each time the sentence
  naming or measuring most that nothing kept has stated yet (the earliest among equals),
  until the room is full or nothing new is left; what is kept stays in talk order.
"""

from pipeline.core import terminology
from pipeline.core.checks import names_of
from pipeline.core.grammar import unwritten
from pipeline.core.grounding import duplicate_of, mentions, restates
from pipeline.core.text import has_cjk, quantities
from pipeline.schema.ledger import FactSource

# Speech whose content words a slide line holds this share of says nothing beyond it: the
# support bound of pipeline.core.grounding (MIN_SUPPORT is half; "all but a word" here).
COVERED = 0.8


def is_label(source: FactSource) -> bool:
    """An English slide line with no clause of its own and no quantity (a number with its
    unit: "128-GPU" and "3FS" name, "52.3k token/s" measures). Set on the English
    slide-line sentences of the dev cases' readings (7caa459, 1824e22): a reader marked
    edit 73% of those made from such a line (wrong 50%), 17% of those from a label with a
    quantity and 25% of those from a clause without one (wrong 0%)."""
    line = source.text.strip().rstrip(".!")
    return (
        source.kind == "slide"
        and not has_cjk(line)
        and not quantities(line)
        and unwritten(f"{line}.")
    )


def stated(source: FactSource, vocabulary: list[str]) -> set[str]:
    """What a source names and measures: its quantities, names and known terms."""
    text = source.text
    terms = terminology.chinese_terms_in(text) if has_cjk(text) else terminology.terms_in(text)
    said = [v for v in vocabulary if mentions(text, v)]
    named = [*names_of(text), *said, *(t.en for t in terms)]
    return quantities(text) | {name.lower() for name in named}


def most_novel(
    said: list[FactSource], known: set[str], adds: dict[str, set[str]], room: int
) -> list[FactSource]:
    """Up to `room` of `said`, each in turn the one adding most to what is `known`; `adds`
    is what each states, by id."""
    pool, picked, known = list(said), [], set(known)
    while pool and len(picked) < room:
        best = max(pool, key=lambda s: len(adds[s.id] - known))  # the earliest among equals
        if not adds[best.id] - known:
            break
        picked.append(best)
        known |= adds[best.id]
        pool.remove(best)
    return picked


def covering(source: FactSource, by: list[FactSource]) -> FactSource | None:
    """The first of `by` that already says `source` whole: its content words and numbers."""
    return next((other for other in by if restates(source.text, other.text, COVERED)), None)


def select_facts(
    sources: list[FactSource], vocabulary: list[str], limit: int | None = None
) -> list[FactSource]:
    """The sources an article states, in talk order (see the module's docstring)."""
    shown = [s for s in sources if s.shown and not is_label(s)]
    states = {s.id: stated(s, vocabulary) for s in sources if s.shown or not s.uncertain}
    said: list[FactSource] = []
    for source in sources:
        if source.shown or source.uncertain:
            continue
        if not states[source.id]:
            continue
        if covering(source, shown) or duplicate_of(source.text, [s.text for s in said]) is not None:
            continue
        said.append(source)
    if limit is not None and len(shown) + len(said) > limit:
        known = set().union(*(states[s.id] for s in shown))
        said = most_novel(said, known, states, max(limit - len(shown), 0))
    shown = [line for line in shown if covering(line, said) is None]
    kept = {s.id for s in shown + said}
    return [s for s in sources if s.id in kept]
