"""Reading paths: within each topic, the articles in an order where an article comes after
those that explain the concepts it builds on, and a path note for each.

An article builds on another when it uses a term the other explains and does not explain
itself (pipeline.library.glossary finds explanations in code). The order is a topological
sort by those terms that tolerates cycles: next comes the article with the least left to
learn from those not yet placed, the older one on a tie. Maintainers pin a path's order
and name in a paths file (paths.yaml here, or the file TALK2ARTICLE_SITE_PATHS names);
articles it does not list follow in the computed order.

A path note says where the article sits (入门, 进阶, 收官), what to read before it and
which terms that article explains, which article it is best read beside (both explain
some terms, each explains others: what differs), and what comes next: every relation is one the
articles' own sentences ground, and the notes are rendered from that structure.
"""

from pathlib import Path
from typing import NamedTuple

from pydantic import Field

from pipeline.core.yamlfile import read_yaml
from pipeline.library.glossary import Articles, candidate_terms
from pipeline.library.talks import PublishedTalk
from pipeline.library.topics import Topic
from pipeline.schema import Contract
from pipeline.schema.library import Contrast, PathNote, PathPlace, ReadingPath, Relation

DEFAULT_PATHS = Path(__file__).with_name("paths.yaml")
MAX_BEFORE = 2  # articles a note says to read first (the nearest earlier ones)
MAX_TERMS = 3  # terms a relation names


class PinnedPath(Contract):
    topic: str
    zh: str | None = Field(None, max_length=40)
    en: str | None = Field(None, max_length=80)
    order: list[str] = Field(default_factory=list, description="slugs, first to read first")


def load_paths(path: Path | None = None) -> dict[str, PinnedPath]:
    """The maintainer's pinned paths by topic id; a file that is not one fails with its
    name and why."""
    path = path or DEFAULT_PATHS
    pinned = read_yaml(path, list[PinnedPath], [])
    return {p.topic: p for p in pinned}


Grounds = dict[tuple[str, str], list[str]]  # (earlier, later) -> terms the earlier explains


class PathTerms(NamedTuple):
    """The deck terms each talk of a path explains, and those it uses, by slug."""

    explains: dict[str, set[str]]
    uses: dict[str, set[str]]


def terms_of(talks: list[PublishedTalk], articles: Articles) -> PathTerms:
    terms = PathTerms({t.slug: set() for t in talks}, {t.slug: set() for t in talks})
    for term in candidate_terms(talks):
        for talk in talks:
            if articles.uses(talk.slug, term):
                terms.uses[talk.slug].add(term)
                if articles.explains(talk.slug, term):
                    terms.explains[talk.slug].add(term)
    return terms


def prerequisites(
    talks: list[PublishedTalk], articles: Articles, terms: PathTerms | None = None
) -> Grounds:
    """For each ordered pair of talks, the terms the first explains that the second uses
    and does not explain itself; a pair without such a term is left out."""
    explains, uses = terms or terms_of(talks, articles)
    learners: dict[str, list[str]] = {}  # term -> the talks that use it unexplained
    for talk in talks:
        for term in uses[talk.slug] - explains[talk.slug]:
            learners.setdefault(term, []).append(talk.slug)
    grounds: dict[tuple[str, str], list[str]] = {}
    for talk in talks:
        for term in explains[talk.slug]:
            for learner in learners.get(term, ()):
                grounds.setdefault((talk.slug, learner), []).append(term)
    return {pair: sorted(found) for pair, found in grounds.items()}


def contrast_of(slug: str, order: list[str], terms: PathTerms) -> Contrast | None:
    """The article of the path this one is best read beside: one that explains some of the
    same terms and others of its own (what differs), the one sharing most, the nearest on
    a tie."""
    explains = terms.explains
    position = {s: k for k, s in enumerate(order)}
    best = None
    for other in order:
        shared = explains[slug] & explains[other]
        own, theirs = explains[slug] - explains[other], explains[other] - explains[slug]
        if other == slug or not shared or not (own or theirs):
            continue
        rank = (len(shared), -abs(position[other] - position[slug]))
        if best is None or rank > best[0]:
            lists = [sorted(t)[:MAX_TERMS] for t in (shared, own, theirs)]
            best = rank, Contrast(slug=other, shared=lists[0], own=lists[1], theirs=lists[2])
    return best[1] if best else None


def reading_order(
    talks: list[PublishedTalk], grounds: Grounds, pinned: list[str] = ()
) -> list[str]:
    """Slugs in reading order: the pinned ones first as pinned, then each time the talk
    with the fewest terms left to learn from the talks not yet placed (older first)."""
    by_slug = {t.slug: t for t in talks}
    order = [s for s in dict.fromkeys(pinned) if s in by_slug]
    left = {t.slug: t for t in talks if t.slug not in order}
    owed, taught = dict.fromkeys(left, 0), {}  # terms owed; teacher -> [(learner, terms)]
    for (teacher, learner), found in grounds.items():
        if teacher in left and learner in left:
            owed[learner] += len(found)
            taught.setdefault(teacher, []).append((learner, len(found)))
    age = {s: t.newest_first()[0] for s, t in left.items()}
    while left:
        nxt = min(left, key=lambda s: (owed[s], age[s], s))
        order.append(nxt)
        del left[nxt]
        for learner, count in taught.get(nxt, ()):
            owed[learner] -= count
    return order


def path_place(position: int, of: int) -> PathPlace:
    if position == 1:
        return "intro"
    return "closing" if position == of and of >= 3 else "advanced"


def path_notes(order: list[str], grounds: Grounds, terms: PathTerms) -> list[PathNote]:
    """A note per article of a path of two or more."""
    if len(order) < 2:
        return []
    notes = []
    for k, slug in enumerate(order):
        nearest = [(e, grounds.get((e, slug), [])) for e in reversed(order[:k])]
        nearest = [Relation(slug=e, terms=terms[:MAX_TERMS]) for e, terms in nearest if terms]
        before = nearest[:MAX_BEFORE][::-1]  # in the path's order
        notes.append(
            PathNote(
                slug=slug,
                place=path_place(k + 1, len(order)),
                position=k + 1,
                of=len(order),
                before=before,
                after=order[k + 1] if k + 1 < len(order) else None,
                contrast=contrast_of(slug, order, terms),
            )
        )
    return notes


def reading_paths(
    shelves: list[tuple[Topic, list[PublishedTalk]]],
    pinned: dict[str, PinnedPath],
    articles: Articles,
) -> list[ReadingPath]:
    """One path per topic that has articles, named as the topic unless pinned otherwise."""
    paths = []
    for topic, talks in shelves:
        pin = pinned.get(topic.id)
        terms = terms_of(talks, articles)
        grounds = prerequisites(talks, articles, terms)
        order = reading_order(talks, grounds, pin.order if pin else ())
        paths.append(
            ReadingPath(
                id=topic.id,
                zh=(pin and pin.zh) or topic.zh,
                en=(pin and pin.en) or topic.en,
                talks=order,
                pinned=bool(pin and pin.order),
                notes=path_notes(order, grounds, terms),
            )
        )
    return paths
