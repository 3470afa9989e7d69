"""The talks a site publishes: every outputs folder whose last run made its articles."""

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from pipeline.schema import (
    ARTICLES_MADE,
    Deck,
    Draft,
    Evidence,
    EvidenceUnit,
    Review,
    RunRecord,
    Talk,
)
from pipeline.store import talk_outputs

NEEDED = ("talk.json", "draft.json", "review.json", "evidence.json", "run.json")


@dataclass
class PublishedTalk:
    slug: str
    folder: Path
    talk: Talk
    draft: Draft
    review: Review
    evidence: Evidence
    run: RunRecord
    deck: Deck | None = None
    units: dict[str, EvidenceUnit] = field(init=False)
    # slide -> (its picture's path under docs/, the file): slides whose picture exists
    slides: dict[int, tuple[str, Path]] = field(init=False)

    def __post_init__(self) -> None:
        self.units = self.evidence.by_id()
        self.slides = {
            s.index: (f"assets/{self.slug}/{Path(s.thumbnail).name}", self.folder / s.thumbnail)
            for s in (self.deck.slides if self.deck else [])
            if s.thumbnail and (self.folder / s.thumbnail).is_file()
        }

    def picture(self, slide: int | None) -> str | None:
        """The docs/ path of a slide's picture, if there is one to show."""
        return self.slides[slide][0] if slide in self.slides else None

    def pictures(self) -> dict[str, Path]:
        """docs/ path -> file, for every slide picture to copy into the site."""
        return dict(self.slides.values())

    def newest_first(self) -> tuple[dt.date, dt.datetime]:
        date = self.talk.meta.date or dt.date.min
        return date, self.run.finished or self.run.started


def load_talk(folder: Path, slug: str) -> PublishedTalk | str:
    """The talk in an outputs folder if its last run made its articles, else why not (a
    failed or running talk is not published, nor are outputs of an older version)."""
    if missing := [name for name in NEEDED if not (folder / name).is_file()]:
        return f"{slug}: no {', '.join(missing)} (run it again)"
    try:
        run = RunRecord.model_validate_json((folder / "run.json").read_text())
        if run.status not in ARTICLES_MADE:
            return f"{slug}: its last run is {run.status}"
        deck_file = folder / "deck.json"
        return PublishedTalk(
            slug=slug,
            folder=folder,
            talk=Talk.model_validate_json((folder / "talk.json").read_text()),
            draft=Draft.model_validate_json((folder / "draft.json").read_text()),
            review=Review.model_validate_json((folder / "review.json").read_text()),
            evidence=Evidence.model_validate_json((folder / "evidence.json").read_text()),
            run=run,
            deck=Deck.model_validate_json(deck_file.read_text()) if deck_file.is_file() else None,
        )
    except ValidationError as err:
        return f"{slug}: outputs of another version ({err.error_count()} fields); run it again"


def published_talks(
    outputs_dir: Path, skip: Path | None = None
) -> tuple[list[PublishedTalk], list[str]]:
    """Every publishable talk under outputs/, latest first (by talk date, then run), and
    why the others are left out."""
    talks, left_out = [], []
    for slug, folder in talk_outputs(outputs_dir, skip).items():
        found = load_talk(folder, slug)
        if isinstance(found, PublishedTalk):
            talks.append(found)
        else:
            left_out.append(found)
    return sorted(talks, key=PublishedTalk.newest_first, reverse=True), left_out
