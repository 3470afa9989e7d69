"""Work across talks (the library layer): what the site makes of many published articles
together, beside the per-talk stages of pipeline/stages.py. Its steps, in the order data
flows, each from the published talks and the steps before it:

    topics     each article's one topic                      topics.py (topics.yaml)
    glossary   terms two articles or more use, explained     glossary.py
    paths      a reading path per topic, a note per article  paths.py (paths.yaml)
    hubs       a page per meetup folder of talks             hubs.py (meetup.yaml in inputs/)
    relations  every relation stated above, checked          relations.py

No step calls a model: each relation is found in the articles' own sentences, so the whole
library is rebuilt with the site in well under a second per article and never needs a
cache of its own.
"""

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.store import update_with_files
from pipeline.library.glossary import Articles, glossary_of
from pipeline.library.hubs import MEETUP_FILE, hubs_of
from pipeline.library.paths import DEFAULT_PATHS, load_paths, reading_paths
from pipeline.library.relations import grounded
from pipeline.library.talks import PublishedTalk
from pipeline.library.topics import (
    DEFAULT_TOPICS,
    Shelves,
    load_topics,
    shelves_of,
    unknown_topics,
)
from pipeline.schema.library import Library


@dataclass
class Holdings:
    """What a site shows: the published talks (latest first), on their topics' shelves,
    and the library made of them."""

    talks: list[PublishedTalk] = field(default_factory=list)
    shelves: Shelves = field(default_factory=list)
    library: Library = field(default_factory=Library)
    by_slug: dict[str, PublishedTalk] = field(init=False)

    def __post_init__(self) -> None:
        self.by_slug = {t.slug: t for t in self.talks}


def build_library(
    talks: list[PublishedTalk],
    inputs_dir: Path,
    topics: Path | None = None,
    paths: Path | None = None,
) -> Holdings:
    """The published talks on their topics' shelves, and the library made of them: the
    glossary, a reading path per shelf, a hub per meetup, with what fails its checks left
    out (and recorded)."""
    listed = load_topics(topics)
    shelves = shelves_of(talks, listed)
    articles = Articles(talks)
    hubs, warnings = hubs_of(articles, inputs_dir)
    library = Library(
        glossary=glossary_of(articles),
        paths=reading_paths(shelves, load_paths(paths), articles),
        hubs=hubs,
        warnings=unknown_topics(talks, listed, inputs_dir) + warnings,
    )
    return Holdings(talks, shelves, grounded(library, articles))


def library_digest(inputs_dir: Path, topics: Path | None = None, paths: Path | None = None) -> str:
    """The maintainers' data the library is built from, as one hash: the topic list, the
    pinned paths and every meetup file under inputs/."""
    digest = hashlib.sha256()
    for path in (topics or DEFAULT_TOPICS, paths or DEFAULT_PATHS):
        digest.update(path.read_bytes() if path.is_file() else b"\0missing")
    update_with_files(digest, inputs_dir, MEETUP_FILE)
    return digest.hexdigest()
