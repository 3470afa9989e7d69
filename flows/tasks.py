"""One Prefect task per stage: a few lines naming the inputs that key the stage and the
pipeline call that makes its output. The stage runner (pipeline.runner) reuses a fresh
output or runs the call, stamps provenance, writes atomically and records the stage.

Prefect's own caching is off (cache_policy=NONE): its default policy includes the run id
and hashes `Path` arguments by value, so the runner keys outputs by content instead.
"""

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from prefect import task
from prefect.cache_policies import NONE
from prefect.context import FlowRunContext
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, TimeElapsedColumn

from pipeline import deck as deck_stage
from pipeline import stages
from pipeline import transcript as transcript_stage
from pipeline.article import typeset
from pipeline.core.models import resolve_whisper
from pipeline.core.prompts import load_prompt
from pipeline.core.replacements import heard_in, library_corrections
from pipeline.core.text import writing_language
from pipeline.edits import EDITS_FILE, apply_edits, read_edits
from pipeline.evidence import build_evidence, judges_words
from pipeline.ledger import LedgerPrompts, write_ledger
from pipeline.llm.cache import CallCache
from pipeline.llm.client import OpenAILLM
from pipeline.llm.session import LLMSession
from pipeline.notes import build_notes
from pipeline.outline import build_outline
from pipeline.progress import Pace, progress_line
from pipeline.questions import QuestionPrompts, write_questions
from pipeline.review import review as review_ledger
from pipeline.runner import Stage, TalkRun
from pipeline.schema import (
    Article,
    Deck,
    EditedLedger,
    Evidence,
    Ledger,
    Notes,
    Outline,
    Questions,
    Review,
    Talk,
    TalkMeta,
    Timeline,
    Transcript,
)
from pipeline.settings import Settings
from pipeline.talk import read_talk
from pipeline.timeline import build_timeline

C = TypeVar("C")
console = Console(stderr=True, soft_wrap=True)  # a path or command is never cut


def run_stage(run: TalkRun, stage: Stage[C], make: Callable[[], C], key=None) -> C | None:
    """`run.run(stage, make, key)`: as a Prefect task named after the stage inside a flow
    run, as a plain call outside one (the CLI without a Prefect server)."""
    if FlowRunContext.get() is None:
        return _run(run, stage, make, key)
    as_task = task(_run, name=stage.name, cache_policy=NONE, persist_result=False)
    return as_task(run, stage, make, key)


def _run(run: TalkRun, stage: Stage[C], make: Callable[[], C], key) -> C | None:
    return run.run(stage, make, key)


def talk(run: TalkRun, folder: Path, slug: str, settings: Settings) -> Talk:
    listed = library_corrections(settings.inputs_dir, settings.outputs_dir).corrections
    return run_stage(run, stages.TALK, lambda: read_talk(folder, slug, listed))


def deck(run: TalkRun, talk: Talk, settings: Settings) -> Deck | None:
    if not talk.decks:
        run.skip(stages.DECK)
        return None
    opts = settings.deck
    key = {"decks": talk.decks, "options": deck_stage.options_key(talk.decks, opts)}
    pictures = run.store.path("slides")
    return run_stage(run, stages.DECK, lambda: deck_stage.read_deck(talk, opts, pictures), key)


PUNCTUATE_PROMPT = "punctuate_zh"


def transcript(
    run: TalkRun, talk: Talk, vocabulary: list[str], settings: Settings, llm: LLMSession
) -> Transcript:
    """The talk's speech: its subtitles (unpunctuated Chinese ones punctuated by the model)
    or what Whisper heard in its recording."""
    opts, language = settings.transcript, talk.meta.language
    if talk.subtitles and (not opts.force_asr or talk.media is None):
        source, prompt = talk.subtitles, load_prompt(PUNCTUATE_PROMPT, settings.prompts_dir)
        # keyed by the LLM that punctuates unpunctuated Chinese subtitles, and its prompt
        by = {"prompts": [prompt]} | llm_key(settings, llm)

        def make() -> Transcript:
            return transcript_stage.read_punctuated(
                talk.subtitles, language, talk.media, lambda: llm_for(llm, run), prompt
            )
    else:
        model = resolve_whisper(opts.model, language, settings.cache_dir)
        source, by = talk.media, {"model": model.id, "prompts": [], "sampling": None}

        def make() -> Transcript:
            with audio_progress(f"transcribing {talk.media.name}") as progress:
                return transcript_stage.transcribe(talk, model, opts, vocabulary, progress)

    key = {
        "source": source,
        "recording": talk.media,
        "language": language,
        "vocabulary": vocabulary,
        "options": transcript_stage.options_key(opts),
    }
    return run_stage(run, stages.TRANSCRIPT, make, key | by)


def timeline(
    run: TalkRun, talk: Talk, transcript: Transcript, deck: Deck | None, settings: Settings
) -> Timeline | None:
    opts = settings.timeline

    def make() -> Timeline:
        source = talk.media or talk.subtitles
        with audio_progress(f"matching {source.name} to slides") as progress:
            return build_timeline(talk, transcript, deck, run.store.root, opts, progress)

    key = {"recording": talk.media, "transcript": transcript, "deck": deck, "options": dict(opts)}
    return run_stage(run, stages.TIMELINE, make, key)


def evidence(
    run: TalkRun,
    talk: Talk,
    transcript: Transcript,
    deck: Deck | None,
    timeline: Timeline | None,
    vocabulary: list[str],
    settings: Settings,
    llm: LLMSession,
) -> Evidence:
    """Evidence from the transcript as the library's corrections that it needs write it;
    the LLM judges the words recognition doubted."""
    opts, corrections = settings.evidence, heard_in(transcript, talk.corrections)
    key = {
        "transcript": transcript,
        "corrections": corrections,
        "deck": deck,
        "timeline": timeline,
        "vocabulary": vocabulary,
        "options": dict(opts),
    }

    judged = judges_words(transcript)

    def make() -> Evidence:
        judge = llm_for(llm, run) if judged else None
        return build_evidence(transcript, deck, timeline, vocabulary, opts, corrections, judge)

    return run_stage(run, stages.EVIDENCE, make, key | {"model": llm.model_id if judged else None})


def notes(run: TalkRun, evidence: Evidence, vocabulary: list[str], settings: Settings) -> Notes:
    opts = settings.notes
    key = {"evidence": evidence, "vocabulary": vocabulary, "options": dict(opts)}

    def make() -> Notes:
        return build_notes(evidence, vocabulary, opts)

    return run_stage(run, stages.NOTES, make, key)


OUTLINE_PROMPTS = ("outline", "outline_heading")


def outline(
    run: TalkRun,
    notes: Notes,
    evidence: Evidence,
    meta: TalkMeta,
    settings: Settings,
    llm: LLMSession,
) -> Outline:
    prompt, heading = (load_prompt(n, settings.prompts_dir) for n in OUTLINE_PROMPTS)
    # The topic places the article on the site; it changes nothing the model writes.
    planned = meta.model_copy(update={"topic": None})
    key = {"notes": notes, "evidence": evidence, "meta": planned, "prompts": [prompt, heading]}

    def make() -> Outline:
        return build_outline(notes, evidence, meta, llm_for(llm, run), prompt, heading)

    return run_stage(run, stages.OUTLINE, make, key | llm_key(settings, llm))


def ledger(
    run: TalkRun,
    outline: Outline,
    notes: Notes,
    evidence: Evidence,
    vocabulary: list[str],
    settings: Settings,
    llm: LLMSession,
) -> Ledger:
    prompts = LedgerPrompts.load(settings.prompts_dir)
    key = {
        "outline": outline,
        "notes": notes,
        "evidence": evidence,
        "vocabulary": vocabulary,
        "prompts": prompts.all(),
    }

    def make() -> Ledger:
        return write_ledger(outline, notes, evidence, vocabulary, llm_for(llm, run), prompts)

    return run_stage(run, stages.LEDGER, make, key | llm_key(settings, llm))


def edits(run: TalkRun, ledger: Ledger, folder: Path) -> EditedLedger:
    """The reviewers' edits applied; a broken edits.yaml fails this stage, naming it."""
    path = folder / EDITS_FILE
    key = {"ledger": ledger, "edits": path if path.is_file() else None}
    return run_stage(run, stages.EDITS, lambda: apply_edits(ledger, read_edits(folder)), key)


def review(
    run: TalkRun,
    ledger: Ledger,
    evidence: Evidence,
    vocabulary: list[str],
    settings: Settings,
) -> Review:
    """The checks, the verdict and the card, in code."""
    names = (*OUTLINE_PROMPTS, *LedgerPrompts.NAMES, *QuestionPrompts.NAMES)
    prompts = [load_prompt(name, settings.prompts_dir) for name in names]
    language = writing_language(evidence.language)
    key = {
        "ledger": ledger,
        "evidence": evidence,
        "language": language,
        "vocabulary": vocabulary,
        "prompts": prompts,
    }

    def make() -> Review:
        return review_ledger(ledger, evidence, language, vocabulary, prompts)

    return run_stage(run, stages.REVIEW, make, key)


def questions(
    run: TalkRun, ledger: Ledger, vocabulary: list[str], settings: Settings, llm: LLMSession
) -> Questions | None:
    """The article's companion in questions and answers; None if it could not be made."""
    asking = QuestionPrompts.load(settings.prompts_dir)
    writing = LedgerPrompts.load(settings.prompts_dir)
    key = {"ledger": ledger, "vocabulary": vocabulary, "prompts": [*asking.all(), *writing.all()]}

    def make() -> Questions:
        return write_questions(ledger, vocabulary, llm_for(llm, run), asking, writing)

    return run_stage(run, stages.QUESTIONS, make, key | llm_key(settings, llm))


def article(
    run: TalkRun, ledger: Ledger, evidence: Evidence, talk: Talk, review: Review
) -> list[Article]:
    def make() -> list[Article]:
        return typeset(ledger.draft(), evidence, talk, review)

    return run_stage(run, stages.ARTICLE, make)


def llm_key(settings: Settings, llm: LLMSession) -> dict[str, object]:
    """What an LLM stage's output depends on besides its inputs and prompts."""
    sampling = {"temperature": settings.llm.temperature, "seed": settings.llm.seed}
    return {"model": llm.model_id, "sampling": sampling}


@contextmanager
def count_progress(label: str) -> Iterator[Callable[[float, float], None]]:
    """A rich progress bar over counted steps (sections)."""
    with Progress(*Progress.get_default_columns(), TimeElapsedColumn(), console=console) as bar:
        job = bar.add_task(label, total=None)

        def update(done: float, total: float) -> None:
            bar.update(job, completed=done, total=total)

        yield update


@contextmanager
def audio_progress(label: str) -> Iterator[Callable[[float, float], None]]:
    """A rich progress bar over seconds of audio."""
    columns = (*Progress.get_default_columns(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        job = bar.add_task(label, total=None)

        def update(done_s: float, total_s: float) -> None:
            bar.update(job, completed=done_s, total=total_s)

        yield update


def announcer(run: TalkRun, pace: Pace) -> Callable[[str], None]:
    """Prints a line as each stage of the run starts: how far, and about how long is left."""
    started = time.monotonic()

    def announce(stage: str) -> None:
        line = progress_line(run.record, stage, pace, time.monotonic() - started)
        console.print(f"[bold]{escape(line)}[/bold]")

    return announce


def llm_for(session: LLMSession, run: TalkRun) -> OpenAILLM:
    """The session's LLM, logging every call of this talk to llm_calls.jsonl and the console
    (drafting takes minutes on a CPU; a line per call shows it is moving)."""
    store = run.store

    def sink(record: dict) -> None:
        store.append_jsonl("llm_calls.jsonl", record)
        tokens = record["usage"].get("completion_tokens", "?")
        verdict = "ok" if record["valid"] else f"invalid, retrying: {record['problem']}"
        if record["outage"]:
            verdict = f"endpoint failed: {record['problem']}"
        if record["usage"].get("cached"):
            verdict += " (reused from an earlier run)"
        console.print(
            f"[dim]{run.record.talk}: {record['prompt_id']} #{record['attempt']} "
            f"{record['seconds']:.1f} s, {tokens} tokens, {escape(verdict)}[/dim]"
        )

    llm = session.get().with_sink(sink, CallCache(store.path("llm_cache.jsonl")))
    if session.runtime:
        run.record.versions["llm_runtime"] = session.runtime
    return llm
