"""Meetup hubs: a folder of talk folders under inputs/ with a meetup.yaml (name, date,
place, optional order) is one event, read together on a hub page: the event, its talks
in reading order, and the threads that run through them.

A thread is a term two of the event's articles or more use, with the article that
explains it if one does (pipeline.library.glossary); the hub states nothing else, so its
sentences are grounded in the talks' own articles. The order is the meetup file's, else
the reading order of pipeline.library.paths.
"""

import datetime as dt
from pathlib import Path

from pydantic import Field

from pipeline.core.errors import StageFailure
from pipeline.core.store import files_named
from pipeline.core.yamlfile import read_yaml
from pipeline.library.glossary import MIN_USERS, Articles, candidate_terms, term_id
from pipeline.library.paths import prerequisites, reading_order
from pipeline.library.talks import PublishedTalk
from pipeline.schema import Contract
from pipeline.schema.library import Hub, Thread

MEETUP_FILE = "meetup.yaml"
MAX_THREADS = 3


class Meetup(Contract):
    name: str = Field(max_length=120)
    date: dt.date | None = None
    place: str | None = Field(None, max_length=120)
    order: list[str] = Field(default_factory=list, description="talk folders, first to read first")


def load_meetup(path: Path) -> Meetup:
    return read_yaml(path, Meetup, {})


def members(folder: Path, talks: list[PublishedTalk], inputs_dir: Path) -> dict[str, PublishedTalk]:
    """The published talks whose input folder lies in the meetup's folder, by that folder's
    path in the meetup's (its name, for a talk folder right inside)."""
    inside = {}
    for talk in talks:
        origin = talk.input_folder(inputs_dir).resolve()
        if origin.is_relative_to(folder.resolve()) and origin != folder.resolve():
            inside[origin.relative_to(folder.resolve()).as_posix()] = talk
    return inside


def threads_of(talks: list[PublishedTalk], articles: Articles) -> list[Thread]:
    """The terms most of the event's articles use (an explained one first on a tie)."""
    threads = []
    for term in candidate_terms(talks):
        users = [t.slug for t in talks if articles.uses(t.slug, term)]
        if len(users) < MIN_USERS:
            continue
        explainer = next((slug for slug in users if articles.explains(slug, term)), None)
        threads.append(Thread(term=term, explained_by=explainer, used_by=users))
    threads.sort(key=lambda t: (-len(t.used_by), t.explained_by is None, t.term.lower()))
    return threads[:MAX_THREADS]


def unknown_order(path: Path, meetup: Meetup, known: dict[str, PublishedTalk]) -> list[str]:
    """A warning for each entry of the meetup's order that names no talk of its folder
    (neither one of its published talks, `known`, nor a folder there)."""
    return [
        f"{path}: order names '{name}', which is no talk folder beside it; left out"
        for name in meetup.order
        if name not in known and not (path.parent / name).is_dir()
    ]


def hub_of(
    folder: Path,
    meetup: Meetup,
    by_folder: dict[str, PublishedTalk],
    articles: Articles,
    inputs_dir: Path,
) -> Hub:
    """The event of `folder`, whose published talks are `by_folder` (see members)."""
    inside = list(by_folder.values())
    pinned = [by_folder[name].slug for name in meetup.order if name in by_folder]
    relative = folder.resolve().relative_to(inputs_dir.resolve()).as_posix()
    return Hub(
        id=term_id(relative) or "meetup",
        name=meetup.name,
        date=meetup.date,
        place=meetup.place,
        talks=reading_order(inside, prerequisites(inside, articles), pinned),
        threads=threads_of(inside, articles),
    )


def hubs_of(articles: Articles, inputs_dir: Path) -> tuple[list[Hub], list[str]]:
    """A hub for every meetup file under inputs/ with two published talks or more, latest
    event first; and a warning for each file, or entry of one, that cannot be used (a bad
    meetup file costs its own hub only)."""
    hubs, warnings = [], []
    for path in files_named(inputs_dir, MEETUP_FILE):
        try:
            meetup = load_meetup(path)
        except StageFailure as err:
            warnings.append(f"{err}; its hub is left out")
            continue
        by_folder = members(path.parent, articles.talks, inputs_dir)
        warnings += unknown_order(path, meetup, by_folder)
        hub = hub_of(path.parent, meetup, by_folder, articles, inputs_dir)
        if len(hub.talks) >= MIN_USERS:
            hubs.append(hub)
    return sorted(hubs, key=lambda h: h.date or dt.date.min, reverse=True), warnings
