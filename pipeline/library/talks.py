"""The talks a site publishes: every outputs folder whose last run made its articles, as
the publishing policy and the reviewers' decisions allow (pipeline.review.decisions)."""

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from pipeline.core.errors import StageFailure
from pipeline.core.store import talk_outputs
from pipeline.edits import edited_answers
from pipeline.review.decisions import Policy, Standing, read_decisions, standing_of
from pipeline.schema import (
    ARTICLES_MADE,
    Deck,
    Draft,
    EditedLedger,
    Evidence,
    EvidenceUnit,
    Ledger,
    Questions,
    Review,
    RunRecord,
    StaleEdit,
    Talk,
)
from pipeline.talk import input_folder

NEEDED = ("talk.json", "edited.json", "review.json", "evidence.json", "run.json")


@dataclass
class PublishedTalk:
    slug: str
    folder: Path
    talk: Talk
    ledger: Ledger  # with the reviewers' edits applied
    draft: Draft
    review: Review
    evidence: Evidence
    run: RunRecord
    standing: Standing
    deck: Deck | None = None
    questions: Questions | None = None  # the article's companion in questions and answers
    edited: int = 0  # sentences the reviewers' edits changed or dropped
    stale: list[StaleEdit] = field(default_factory=list)  # edits not applied
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

    def input_folder(self, inputs_dir: Path) -> Path:
        return folder_of(self.run, self.slug, inputs_dir)

    def newest_first(self) -> tuple[dt.date, dt.datetime]:
        date = self.talk.meta.date or dt.date.min
        return date, self.run.finished or self.run.started


def folder_of(run: RunRecord, slug: str, inputs_dir: Path) -> Path:
    """The talk folder under inputs/ a talk's outputs were made from."""
    return input_folder(run.origin or f"inputs/{slug}", inputs_dir)


def load_talk(folder: Path, slug: str, inputs_dir: Path) -> PublishedTalk | str:
    """The talk in an outputs folder if its last run made its articles, with where it stands
    with its reviewers; else why not (a failed or running talk is not published, nor are
    outputs of an older version, nor a talk whose decisions cannot be read)."""
    if missing := [name for name in NEEDED if not (folder / name).is_file()]:
        return f"{slug}: no {', '.join(missing)} (run it again)"
    try:
        run = RunRecord.model_validate_json((folder / "run.json").read_text())
        if run.status not in ARTICLES_MADE:
            return f"{slug}: its last run is {run.status}"
        deck_file = folder / "deck.json"
        edited = EditedLedger.model_validate_json((folder / "edited.json").read_text())
        ledger, draft = edited.ledger, edited.ledger.draft()
        review = Review.model_validate_json((folder / "review.json").read_text())
        decisions = read_decisions(folder_of(run, slug, inputs_dir))
        return PublishedTalk(
            slug=slug,
            folder=folder,
            talk=Talk.model_validate_json((folder / "talk.json").read_text()),
            ledger=ledger,
            draft=draft,
            review=review,
            evidence=Evidence.model_validate_json((folder / "evidence.json").read_text()),
            run=run,
            standing=standing_of(draft, review.card.verdict, decisions),
            deck=Deck.model_validate_json(deck_file.read_text()) if deck_file.is_file() else None,
            questions=questions_of(folder, edited),
            edited=len(edited.applied),
            stale=edited.stale,
        )
    except ValidationError as err:
        return f"{slug}: outputs of another version ({err.error_count()} fields); run it again"
    except StageFailure as err:
        return f"{slug}: {err}"


def questions_of(folder: Path, edited: EditedLedger) -> Questions | None:
    """The companion written from this very ledger, with the reviewers' edits, if there is
    one: a companion of an earlier text (its stage failed since) is not shown beside a
    later one."""
    try:
        questions = Questions.model_validate_json((folder / "questions.json").read_text())
    except (OSError, ValidationError):
        return None
    made_from = questions.provenance.inputs.get("ledger") if questions.provenance else None
    written_from = edited.provenance.inputs.get("ledger") if edited.provenance else None
    if made_from != written_from or not questions.zh.items:
        return None
    return edited_answers(questions, edited.applied)


def talks_with_articles(
    outputs_dir: Path, inputs_dir: Path, skip: Path | None = None
) -> tuple[list[PublishedTalk], list[str]]:
    """Every talk under outputs/ whose last run made its articles, latest first (by talk
    date, then run), and why the others are not there."""
    talks, left_out = [], []
    for slug, folder in talk_outputs(outputs_dir, skip).items():
        found = load_talk(folder, slug, inputs_dir)
        if isinstance(found, PublishedTalk):
            talks.append(found)
        else:
            left_out.append(found)
    return sorted(talks, key=PublishedTalk.newest_first, reverse=True), left_out


def published_talks(
    outputs_dir: Path, inputs_dir: Path, policy: Policy = "recommended", skip: Path | None = None
) -> tuple[list[PublishedTalk], list[str]]:
    """The talks the policy publishes, latest first, and why the others are left out."""
    talks, left_out = talks_with_articles(outputs_dir, inputs_dir, skip)
    left_out += [
        f"{t.slug}: {t.standing.why_not(policy)}"
        for t in talks
        if not t.standing.publishable(policy)
    ]
    return [t for t in talks if t.standing.publishable(policy)], left_out


def awaiting_review(talks: list[PublishedTalk]) -> dict[str, str]:
    """slug -> why each talk awaits a reviewer: its state and the automatic verdict with the
    card's reasons, in English (the dashboard's and the CLI's language)."""
    waiting = {}
    for talk in talks:
        standing, card = talk.standing, talk.review.card
        if not standing.awaits_reviewer and not talk.stale:
            continue
        if talk.stale:
            state = f"{len(talk.stale)} edit(s) stale (their sentences' sources changed)"
        elif standing.decision is None:
            state = "no decision yet"
        elif standing.stale:
            state = f"the text changed since {standing.decision.reviewer}'s decision"
        else:
            state = f"held by {standing.decision.reviewer}: {standing.decision.note}"
        reasons = "; ".join(card.en.reasons if card.en else card.reasons)
        verdict = card.en.verdict if card.en else card.verdict
        waiting[talk.slug] = f"{state}. Automatic verdict {verdict}: {reasons}"
    return waiting
