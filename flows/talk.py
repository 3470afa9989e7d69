"""The talk_to_article flow: one talk folder in, two articles and a run record out."""

from pathlib import Path

from prefect import flow

from flows import tasks
from pipeline.ingest import discover_talks
from pipeline.llm.session import LLMSession
from pipeline.runlog import RunLog
from pipeline.schema import RunRecord
from pipeline.settings import Settings
from pipeline.store import TalkStore


def run_talk(folder: Path, settings: Settings, llm: LLMSession) -> RunRecord:
    """All stages of one talk; a failure is recorded in run.json and stops only this talk."""
    store = TalkStore(settings.outputs_dir / folder.name)
    log = RunLog(store, folder.name)
    try:
        with log.stage("ingest"):
            talk = tasks.ingest_task(folder)
        deck = None  # an unusable deck is recorded; the article is then built from speech
        with log.stage("slides", fatal=False) as state:
            deck = tasks.slides_task(talk, settings, store, state)
        with log.stage("transcribe") as state:
            transcript = tasks.transcribe_task(talk, deck, settings, store, state)
        timeline = None  # without one, evidence has no slide links
        with log.stage("align", fatal=False) as state:
            timeline = tasks.align_task(talk, transcript, deck, settings, store, state)
        with log.stage("evidence") as state:
            units = tasks.evidence_task(talk, transcript, deck, timeline, settings, store, state)
        with log.stage("outline") as state:
            plan = tasks.outline_task(units, talk, settings, llm, store, state)
        with log.stage("draft") as state:
            en, zh = tasks.draft_task(plan, units, settings, llm, store, state)
        with log.stage("review"):
            verdict = tasks.review_task(en, zh, units, store)
        with log.stage("typeset"):
            articles = tasks.typeset_task((zh, en), units, talk, verdict, store)
    except Exception:  # recorded in run.json by the failing stage; other talks go on
        return log.record
    log.finish("partial" if log.record.errors else "succeeded", articles)
    return log.record


def configured(outputs_dir: Path | None) -> Settings:
    settings = Settings()
    if outputs_dir is not None:
        settings.outputs_dir = Path(outputs_dir)
    return settings


@flow(name="talk_to_article")
def talk_to_article(talk_dir: Path, outputs_dir: Path | None = None) -> RunRecord:
    """Turn one talk folder into outputs/<talk>/article.{zh,en}.md."""
    settings = configured(outputs_dir)
    with LLMSession(settings) as llm:
        return run_talk(Path(talk_dir), settings, llm)


@flow(name="all_talks")
def all_talks(inputs_dir: Path | None = None, outputs_dir: Path | None = None) -> list[RunRecord]:
    """Every talk under inputs/, one after another, sharing one LLM endpoint."""
    settings = configured(outputs_dir)
    folders = discover_talks(Path(inputs_dir) if inputs_dir else settings.inputs_dir)
    with LLMSession(settings) as llm:
        return [run_talk(folder, settings, llm) for folder in folders]
