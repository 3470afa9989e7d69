"""Prefect tasks: each reuses a stage's stored output when its provenance key matches,
else calls the pipeline function and stores the result atomically.

Prefect's own caching is off (cache_policy=NONE): its default policy includes the run id
and hashes `Path` arguments by value, so keys are built from content hashes instead.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from prefect import task
from prefect.cache_policies import NONE
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, TimeElapsedColumn

from pipeline import align, draft, evidence, outline, review, slides, subtitles, transcribe, typeset
from pipeline.ingest import ingest
from pipeline.llm.session import LLMSession
from pipeline.models import resolve_whisper
from pipeline.prompts import load_prompt
from pipeline.schema import (
    Deck,
    Draft,
    Evidence,
    Outline,
    Review,
    TalkInputs,
    Timeline,
    Transcript,
)
from pipeline.settings import Settings
from pipeline.store import M, TalkStore
from pipeline.vocabulary import collect_terms

console = Console(stderr=True)
stage_task = task(cache_policy=NONE, persist_result=False)


def reused(store: TalkStore, state: dict, name: str, cls: type[M], key: str) -> M | None:
    """The stored output if its provenance key matches; marks the stage as cached."""
    cached = store.read_fresh(name, cls, key)
    state["cached"] = cached is not None
    return cached


@stage_task
def ingest_task(folder: Path) -> TalkInputs:
    return ingest(folder)


@stage_task
def transcribe_task(
    talk: TalkInputs, deck: Deck | None, settings: Settings, store: TalkStore, state: dict
) -> Transcript:
    if talk.subtitles and not settings.whisper.force_asr:
        return subtitles_task(talk, store, state)
    model = resolve_whisper(settings.whisper.model, talk.meta.language, settings.cache_dir)
    vocabulary = collect_terms(deck, talk.meta.glossary)
    key = transcribe.transcript_provenance(talk, model, settings.whisper, vocabulary).key
    if cached := reused(store, state, "transcript.json", Transcript, key):
        return cached
    with audio_progress(f"transcribing {talk.media.name}") as progress:
        result = transcribe.transcribe(talk, model, settings.whisper, vocabulary, progress)
    return store_transcript(store, result)


def subtitles_task(talk: TalkInputs, store: TalkStore, state: dict) -> Transcript:
    key = subtitles.subtitles_provenance(talk.subtitles).key
    if cached := reused(store, state, "transcript.json", Transcript, key):
        return cached
    return store_transcript(store, subtitles.read_subtitles(talk.subtitles, talk.meta.language))


def store_transcript(store: TalkStore, result: Transcript) -> Transcript:
    store.write("transcript.json", result)
    store.write_text("transcript.srt", subtitles.to_srt(result))
    store.write_text("transcript.vtt", subtitles.to_vtt(result))
    return result


@stage_task
def slides_task(talk: TalkInputs, settings: Settings, store: TalkStore, state: dict) -> Deck | None:
    if not talk.decks:
        return None
    key = slides.deck_provenance(talk, settings.deck).key
    cached = reused(store, state, "deck.json", Deck, key)
    if cached and all(store.path(s.thumbnail).exists() for s in cached.slides if s.thumbnail):
        state["warnings"] = cached.warnings
        return cached
    state["cached"] = False
    deck = slides.read_deck(talk, settings.deck, store.path("slides"))
    store.write("deck.json", deck)
    state["warnings"] = deck.warnings
    return deck


@stage_task
def align_task(
    talk: TalkInputs,
    transcript: Transcript,
    deck: Deck | None,
    settings: Settings,
    store: TalkStore,
    state: dict,
) -> Timeline:
    opts = settings.align
    key = align.timeline_provenance(talk, transcript, deck, opts).key
    result = reused(store, state, "timeline.json", Timeline, key)
    if result is None:
        with audio_progress(f"matching frames of {talk.media.name} to slides") as progress:
            result = align.build_timeline(talk, transcript, deck, store.root, opts, progress)
        store.write("timeline.json", result)
    state["warnings"] = result.warnings
    return result


@stage_task
def evidence_task(
    talk: TalkInputs,
    transcript: Transcript,
    deck: Deck | None,
    timeline: Timeline | None,
    settings: Settings,
    store: TalkStore,
    state: dict,
) -> Evidence:
    opts = settings.evidence
    terms = collect_terms(deck, talk.meta.glossary)
    key = evidence.evidence_provenance(transcript, deck, timeline, terms, opts).key
    if cached := reused(store, state, "evidence.json", Evidence, key):
        return cached
    result = evidence.build_evidence(transcript, deck, timeline, terms, opts)
    store.write("evidence.json", result)
    return result


@stage_task
def outline_task(
    units: Evidence,
    talk: TalkInputs,
    settings: Settings,
    llm: LLMSession,
    store: TalkStore,
    state: dict,
) -> Outline:
    prompt = load_prompt(settings.prompts_dir, "outline")
    key = outline.outline_provenance(units, talk.meta, llm.model_id, prompt).key
    if cached := reused(store, state, "outline.json", Outline, key):
        return cached
    result = outline.build_outline(units, talk.meta, llm_for(llm, store), prompt)
    store.write("outline.json", result)
    return result


@stage_task
def draft_task(
    plan: Outline,
    units: Evidence,
    settings: Settings,
    llm: LLMSession,
    store: TalkStore,
    state: dict,
) -> tuple[Draft, Draft]:
    prompts = draft.DraftPrompts(
        *(load_prompt(settings.prompts_dir, name) for name in ("draft_section", "translate"))
    )
    key = draft.draft_provenance(plan, units, llm.model_id, prompts.all()).key
    en = reused(store, state, "draft/en.json", Draft, key)
    zh = reused(store, state, "draft/zh.json", Draft, key)
    if en and zh:
        return en, zh
    en, zh = draft.write_drafts(plan, units, llm_for(llm, store), prompts)
    store.write("draft/en.json", en)
    store.write("draft/zh.json", zh)
    return en, zh


@stage_task
def review_task(en: Draft, zh: Draft, units: Evidence, store: TalkStore) -> Review:
    store.write("review.json", result := review.review(en, zh, units))
    return result


@stage_task
def typeset_task(
    drafts: tuple[Draft, ...], units: Evidence, talk: TalkInputs, verdict: Review, store: TalkStore
) -> list[str]:
    paths = []
    for article in drafts:
        name = f"article.{article.lang}.md"
        store.write_text(name, typeset.typeset(article, units, talk.meta, talk.slug, verdict))
        paths.append(str(store.path(name)))
    return paths


@contextmanager
def audio_progress(label: str) -> Iterator[Callable[[float, float], None]]:
    """A rich progress bar over seconds of audio."""
    columns = (*Progress.get_default_columns(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        job = bar.add_task(label, total=None)

        def update(done_s: float, total_s: float) -> None:
            bar.update(job, completed=done_s, total=total_s)

        yield update


def llm_for(session: LLMSession, store: TalkStore):
    """The session's LLM, logging every call of this talk to llm_calls.jsonl and the console
    (drafting takes minutes on a CPU; a line per call shows it is moving)."""

    def sink(record: dict) -> None:
        store.append_jsonl("llm_calls.jsonl", record)
        tokens = record["usage"].get("completion_tokens", "?")
        verdict = "ok" if record["valid"] else f"invalid, retrying: {record['problem']}"
        console.print(
            f"[dim]{store.root.name}: {record['prompt_id']} #{record['attempt']} "
            f"{record['seconds']:.1f} s, {tokens} tokens, {escape(verdict)}[/dim]"
        )

    return session.get().with_sink(sink)
