"""The talks a site publishes, by the one rule the site, `review` and `nightly` read: a
talk's published articles are its last run that made articles, kept in its outputs folder
(.published/), shown as the publishing policy and the reviewers' decisions allow
(pipeline.review.decisions); a run that fails after it leaves them and is named beside
them."""

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from pipeline.core.errors import StageFailure
from pipeline.core.store import TalkStore, talk_outputs
from pipeline.review.decisions import Policy, Standing, decisions_standing, standing_of
from pipeline.runner import killed_run
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
    StageError,
    StaleEdit,
    Talk,
)
from pipeline.talk import input_folder, refuse_reserved

NEEDED = ("talk.json", "edited.json", "review.json", "evidence.json", "run.json")
# The files a published talk is read from, besides its slide pictures.
KEPT = (*NEEDED, "deck.json", "questions.json", "article.zh.md", "article.en.md")
PUBLISHED = ".published"  # in the talk's outputs folder: the last run that made articles


@dataclass
class PublishedTalk:
    slug: str
    folder: Path  # its outputs folder
    files: Path  # where its published articles are read (published_files)
    talk: Talk
    ledger: Ledger  # with the reviewers' edits applied
    draft: Draft
    review: Review
    evidence: Evidence
    run: RunRecord
    standing: Standing
    deck: Deck | None = None
    questions: Questions | None = None  # its companion: answers composed from `ledger`
    edited: int = 0  # sentences the reviewers' edits changed or dropped
    stale: list[StaleEdit] = field(default_factory=list)  # edits not applied
    failure: StageError | None = None  # why the talk's last run failed, if it did
    decisions_problem: str | None = None  # decisions.yaml broken: the last read ones stand
    units: dict[str, EvidenceUnit] = field(init=False)
    # slide -> (its picture's path under docs/, the file): slides whose picture exists
    slides: dict[int, tuple[str, Path]] = field(init=False)

    def __post_init__(self) -> None:
        self.units = self.evidence.by_id()
        self.slides = {
            s.index: (f"assets/{self.slug}/{Path(s.thumbnail).name}", self.files / s.thumbnail)
            for s in (self.deck.slides if self.deck else [])
            if s.thumbnail and (self.files / s.thumbnail).is_file()
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


def keep_published(store: TalkStore) -> None:
    """Keep the run that just made a talk's articles as its published one (.published/)."""
    deck = store.read("deck.json", Deck)
    pictures = [s.thumbnail for s in deck.slides if s.thumbnail] if deck else []
    store.keep([*KEPT, *pictures], PUBLISHED)


def published_is_current(folder: Path) -> bool:
    """Whether .published/ holds the talk's last run (not one before a crash between the
    run's end and its keeping)."""
    kept, last = folder / PUBLISHED / "run.json", folder / "run.json"
    try:
        return kept.samefile(last) or kept.read_bytes() == last.read_bytes()
    except OSError:
        return False


def published_files(folder: Path) -> Path | None:
    """Where a talk's published articles are: .published/ (resolved once, so a run
    replacing it meanwhile cannot mix two runs' files), or, for outputs kept before it
    existed, the folder itself when its last run made articles."""
    if (kept := folder / PUBLISHED).is_dir():
        return kept.resolve()
    last = TalkStore(folder).read("run.json", RunRecord)
    return folder if last is not None and last.status in ARTICLES_MADE else None


def keep_unkept(store: TalkStore) -> None:
    """Keep the last run's articles if it made them and they are not kept yet (outputs of a
    version that kept none), before a new run can fail."""
    if not store.path(PUBLISHED).exists() and published_files(store.root) == store.root:
        keep_published(store)


def last_failure(folder: Path, published: RunRecord, inputs_dir: Path) -> StageError | None:
    """Why the talk's last run failed (or was killed), when it did after the published
    one; its file as a path under inputs/ (the proofreading page is public)."""
    last = TalkStore(folder).read("run.json", RunRecord)
    if last is None or last.started == published.started:
        return None
    if killed := killed_run(last):
        return StageError(stage=last.stage or "talk", message=killed)
    if last.status not in ("failed", "interrupted") or not last.errors:
        return None
    error = last.errors[0]
    file = Path(error.file) if error.file else None
    if file and file.resolve().is_relative_to(inputs_dir.resolve()):
        shown = f"inputs/{file.resolve().relative_to(inputs_dir.resolve()).as_posix()}"
    else:
        shown = file.name if file else None
    return error.model_copy(update={"file": shown})


def load_talk(folder: Path, slug: str, inputs_dir: Path) -> PublishedTalk | str:
    """The talk's published articles (see the module), with where it stands with its
    reviewers and whether its last run failed since; else why there are none (no run made
    them, outputs of an older version, a name reserved for the site, decisions.yaml
    broken before it was ever read)."""
    try:
        refuse_reserved(folder, slug)
        files = published_files(folder)
        if files is None:
            last = TalkStore(folder).read("run.json", RunRecord)
            return f"{slug}: its last run is {last.status}" if last else f"{slug}: it has not run"
        if missing := [name for name in NEEDED if not (files / name).is_file()]:
            return f"{slug}: no {', '.join(missing)} (run it again)"
        return read_published(folder, files, slug, inputs_dir)
    except ValidationError as err:
        return f"{slug}: outputs of another version ({err.error_count()} fields); run it again"
    except StageFailure as err:
        return f"{slug}: {err}"
    except OSError as err:
        return f"{slug}: its articles could not be read ({err.strerror}); try again"


def read_published(folder: Path, files: Path, slug: str, inputs_dir: Path) -> PublishedTalk:
    def read(name: str, contract):
        return contract.model_validate_json((files / name).read_text())

    run = read("run.json", RunRecord)
    edited = read("edited.json", EditedLedger)
    ledger, draft = edited.ledger, edited.ledger.draft()
    review = read("review.json", Review)
    decisions, problem = decisions_standing(folder_of(run, slug, inputs_dir), folder)
    return PublishedTalk(
        slug=slug,
        folder=folder,
        files=files,
        talk=read("talk.json", Talk),
        ledger=ledger,
        draft=draft,
        review=review,
        evidence=read("evidence.json", Evidence),
        run=run,
        standing=standing_of(draft, review.card.verdict, decisions),
        deck=read("deck.json", Deck) if (files / "deck.json").is_file() else None,
        questions=questions_of(files, edited),
        edited=len(edited.applied),
        stale=edited.stale,
        failure=last_failure(folder, run, inputs_dir),
        decisions_problem=f"{problem}; the decisions last read from it stand" if problem else None,
    )


def questions_of(folder: Path, edited: EditedLedger) -> Questions | None:
    """The companion written from this very ledger, if there is one with a question still
    answered once the reviewers' edits are applied: a companion of an earlier text (its
    stage failed since) is not shown beside a later one."""
    try:
        questions = Questions.model_validate_json((folder / "questions.json").read_text())
    except (OSError, ValidationError):
        return None
    made_from = questions.provenance.inputs.get("ledger") if questions.provenance else None
    written_from = edited.provenance.inputs.get("ledger") if edited.provenance else None
    if made_from != written_from or not questions.answered(edited.ledger, "zh"):
        return None
    return questions


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
        if (state := reviewers_task(talk)) is None:
            continue
        card = talk.review.card
        reasons = "; ".join(card.en.reasons if card.en else card.reasons)
        verdict = card.en.verdict if card.en else card.verdict
        waiting[talk.slug] = f"{state}. Automatic verdict {verdict}: {reasons}"
    return waiting


def failure_line(failure: StageError) -> str:
    """'the last run failed: <file>: <why>' (the stage when no file is to blame)."""
    return f"the last run failed: {failure.file or failure.stage}: {failure.message}"


def reviewers_task(talk: PublishedTalk) -> str | None:
    """What a reviewer has to do with the talk, if anything, first things first."""
    standing = talk.standing
    if talk.failure:
        return f"{failure_line(talk.failure)} (the articles of the run before stay published)"
    if talk.decisions_problem:
        return talk.decisions_problem
    if talk.stale:
        return f"{len(talk.stale)} edit(s) stale (their sentences' sources changed)"
    if not standing.awaits_reviewer:
        return None
    if standing.decision is None:
        return "no decision yet"
    if standing.stale:
        return f"the text changed since {standing.decision.reviewer}'s decision"
    return f"held by {standing.decision.reviewer}: {standing.decision.note}"
