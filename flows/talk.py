"""The talk_to_article flow: one talk folder in, two articles and a run record out."""

from datetime import UTC, datetime
from pathlib import Path

from prefect import flow

from flows import tasks
from pipeline.core.errors import StageFailure
from pipeline.core.replacements import library_corrections, unmatched
from pipeline.core.store import TalkStore
from pipeline.deck.vocabulary import collect_terms
from pipeline.fingerprint import stat_index, talk_fingerprint
from pipeline.library.talks import keep_published, keep_unkept, published_is_current
from pipeline.llm.session import LLMSession
from pipeline.progress import pace_of
from pipeline.runner import StageFailed, TalkRun
from pipeline.schema import ARTICLES_MADE, RunRecord, StageError
from pipeline.settings import Settings
from pipeline.talk import deck_names, discover_talks, refuse_reserved, talk_origin, talk_slug


def run_talk(folder: Path, settings: Settings, llm: LLMSession) -> RunRecord:
    """All stages of one talk, in order; a failure is recorded in run.json and stops only
    this talk (a deck or timeline failure only takes their output away). A talk another
    run holds, or whose outputs folder cannot be written, is this talk's error alone."""
    slug = talk_slug(folder, settings.inputs_dir)
    origin = talk_origin(folder, settings.inputs_dir)
    store = TalkStore(settings.outputs_dir / slug)
    try:
        refuse_reserved(folder, slug)  # before its outputs folder is made
        with store.lock():
            check_owner(store, origin)
            keep_unkept(store)
            pace = pace_of(settings.outputs_dir)  # before this run's record replaces the last
            run = TalkRun(store, slug)
            run.record.origin = origin
            run.record.fingerprint = talk_fingerprint(folder, settings)
            run.announce = tasks.announcer(run, pace)
            stat_index(settings.outputs_dir).save()
            return run_stages(run, folder, slug, settings, llm)
    except StageFailure as err:
        return unrecorded(slug, err.message, err.file)
    except OSError as err:
        return unrecorded(slug, f"cannot write the outputs folder: {err}", store.root)


def check_owner(store: TalkStore, origin: str) -> None:
    """Refuse a talk whose outputs folder holds another talk's articles (two talks from
    outside inputs/ with the same folder name): never replace them silently."""
    last = store.read("run.json", RunRecord)
    if last is not None and last.origin not in (None, origin):
        raise StageFailure(
            f"its outputs folder holds the articles of another talk with the same folder "
            f"name ({last.origin}); rename one of the two folders, move the talk under the "
            "inputs folder, or give another --outputs",
            store.root,
        )


def run_stages(
    run: TalkRun, folder: Path, slug: str, settings: Settings, llm: LLMSession
) -> RunRecord:
    try:
        talk = tasks.talk(run, folder, slug, settings)
        deck = tasks.deck(run, talk, settings)
        vocabulary = collect_terms(deck, talk.meta.glossary)
        transcript = tasks.transcript(run, talk, vocabulary, settings, llm)
        run.record.minutes = transcript.duration / 60
        timeline = tasks.timeline(run, talk, transcript, deck, settings)
        evidence = tasks.evidence(run, talk, transcript, deck, timeline, vocabulary, settings, llm)
        notes = tasks.notes(run, evidence, vocabulary, settings)
        outline = tasks.outline(run, notes, evidence, talk.meta, settings, llm)
        ledger = tasks.ledger(run, outline, notes, evidence, vocabulary, settings, llm)
        edited = tasks.edits(run, ledger, folder).ledger
        review = tasks.review(run, edited, evidence, vocabulary, settings)
        tasks.questions(run, ledger, vocabulary, settings, llm)
        articles = tasks.article(run, edited, evidence, talk, review)
    except StageFailed:
        return run.record
    except KeyboardInterrupt as stop:
        run.interrupted(getattr(stop, "signal_name", "SIGINT"))
        raise
    paths = [run.store.path(article.file_name) for article in articles]
    record = run.finish(paths, review.card.verdict)
    keep_published(run.store)
    return record


def unrecorded(slug: str, message: str, file: Path | str | None) -> RunRecord:
    """The record of a talk that could not have a run.json of its own (not written)."""
    error = StageError(stage="talk", message=message, file=str(file) if file else None)
    now = datetime.now(UTC)
    return RunRecord(talk=slug, status="failed", started=now, finished=now, errors=[error])


def is_fresh(folder: Path, settings: Settings, shared: str | None = None) -> bool:
    """Whether the talk's last run made its articles from exactly what is there now
    (`shared`: the shared_fingerprint, if already computed)."""
    store = TalkStore(settings.outputs_dir / talk_slug(folder, settings.inputs_dir))
    last = store.read("run.json", RunRecord)
    return (
        last is not None
        and last.status in ARTICLES_MADE
        and all(Path(p).is_file() for p in last.outputs)
        and published_is_current(store.root)
        and last.fingerprint == talk_fingerprint(folder, settings, shared)
    )


def library_warnings(settings: Settings, folders: list[Path] | None = None) -> list[str]:
    """What is wrong with the library's own files (inputs/corrections.yaml), said once for
    a command rather than once per talk; `folders`: the talk folders, if already found."""
    listed = library_corrections(settings.inputs_dir, settings.outputs_dir)
    if folders is None:
        try:
            folders = discover_talks(settings.inputs_dir, settings.outputs_dir)
        except StageFailure:
            folders = []
    talks = {talk_slug(folder, settings.inputs_dir): deck_names(folder) for folder in folders}
    problem = [listed.warning()] if listed.problem else []
    return problem + (unmatched(listed.corrections, talks) if talks else [])


def configured(inputs_dir: Path | None, outputs_dir: Path | None) -> Settings:
    settings = Settings()
    if inputs_dir is not None:
        settings.inputs_dir = Path(inputs_dir)
    if outputs_dir is not None:
        settings.outputs_dir = Path(outputs_dir)
    return settings


@flow(name="talk_to_article")
def talk_to_article(
    talk_dir: Path, outputs_dir: Path | None = None, inputs_dir: Path | None = None
) -> RunRecord:
    """Turn one talk folder into outputs/<its path under inputs/>/article.{zh,en}.md."""
    settings = configured(inputs_dir, outputs_dir)
    with LLMSession(settings.llm_setup) as llm:
        return run_talk(Path(talk_dir), settings, llm)


@flow(name="all_talks")
def all_talks(inputs_dir: Path | None = None, outputs_dir: Path | None = None) -> list[RunRecord]:
    """Every talk under inputs/, one after another, sharing one LLM endpoint."""
    settings = configured(inputs_dir, outputs_dir)
    folders = discover_talks(settings.inputs_dir, settings.outputs_dir)
    with LLMSession(settings.llm_setup) as llm:
        return [run_talk(folder, settings, llm) for folder in folders]
