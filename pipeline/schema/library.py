"""What the library layer makes of the published articles together (pipeline/library/):
a glossary across talks, reading paths with their notes, meetup hubs. Talks are named by
their slug (their outputs folder under outputs/); every relation names the terms that
ground it, so a checker can verify it against the articles (pipeline.library.relations)."""

import datetime as dt
from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract


class Explanation(Contract):
    """Where an article explains a term: one sentence in each language, with the citations
    of the paragraph it is in."""

    slug: str
    zh: str
    en: str
    citations: list[str] = Field(default_factory=list)


class GlossaryTerm(Contract):
    term: str
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="its page: glossary/<id>")
    explained: Explanation
    used_by: list[str] = Field(description="the articles that use it, explained first")


class Relation(Contract):
    """Read `slug` first: it explains `terms`, which this article uses."""

    slug: str
    terms: list[str] = Field(min_length=1)


class Contrast(Contract):
    """Read beside `slug`: both explain `shared`; this article explains `own`, which that one
    does not, and that one `theirs`, which this one does not."""

    slug: str
    shared: list[str] = Field(min_length=1)
    own: list[str] = Field(default_factory=list)
    theirs: list[str] = Field(default_factory=list)


PathPlace = Literal["intro", "advanced", "closing"]


class PathNote(Contract):
    slug: str
    place: PathPlace
    position: int = Field(ge=1, description="1-based, in the path's order")
    of: int = Field(ge=2, description="how many articles the path has")
    before: list[Relation] = Field(default_factory=list, description="what to read first, why")
    after: str | None = Field(None, description="the article to read next")
    contrast: Contrast | None = Field(None, description="the article it is best read beside")


class ReadingPath(Contract):
    id: str = Field(description="the topic's id: one path per topic")
    zh: str
    en: str
    talks: list[str] = Field(description="slugs in reading order")
    pinned: bool = Field(False, description="the order comes from the maintainer's paths file")
    notes: list[PathNote] = Field(default_factory=list)

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


class Thread(Contract):
    """A term several talks of a meetup share: who explains it, who else uses it."""

    term: str
    explained_by: str | None = None
    used_by: list[str] = Field(min_length=2)


class Hub(Contract):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="its page: hubs/<id>")
    name: str
    date: dt.date | None = None
    place: str | None = None
    talks: list[str] = Field(description="slugs in reading order")
    threads: list[Thread] = Field(default_factory=list)


class Library(Contract):
    glossary: list[GlossaryTerm] = Field(default_factory=list)
    paths: list[ReadingPath] = Field(default_factory=list)
    hubs: list[Hub] = Field(default_factory=list)
    dropped: list[str] = Field(
        default_factory=list, description="relations the checker found ungrounded, and why"
    )
    warnings: list[str] = Field(
        default_factory=list,
        description="what of the maintainers' files (talk.yaml, meetup.yaml) could not be "
        "used, each naming its file",
    )

    def note_of(self, slug: str) -> tuple[ReadingPath, PathNote] | None:
        for path in self.paths:
            for note in path.notes:
                if note.slug == slug:
                    return path, note
        return None
