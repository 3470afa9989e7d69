"""Shared test helpers (fixtures live in conftest.py)."""

import json
import re
from pathlib import Path

from pipeline.schema import Segment, Talk, TalkMeta, TimelineSpan, Transcript
from pipeline.schema.ledger import (
    FactSource,
    Ledger,
    LedgerChapter,
    LedgerParagraph,
    LedgerSentence,
    Written,
)
from tests.videos import share_right

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "inputs" / "examples" / "kv-cache-serving"
# ../shared beside the project (read-only in CI): real material whose licence is not
# stated is read from there at run time, never copied into tests/data.
SHARED = REPO.parent / "shared"


def talk_with(media: Path, decks: list[Path] | None = None, **meta) -> Talk:
    return Talk(
        slug="t", folder=media.parent, media=media, decks=decks or [], meta=TalkMeta(**meta)
    )


def example_truth() -> dict:
    return json.loads((DATA / "kv-cache-serving.truth.json").read_text())


def truth_transcript() -> Transcript:
    """The example talk's narration as a transcript: one segment per sentence, timed by
    its share of the slide's speech. Tests of later stages then do not depend on ASR."""
    segments = []
    for slide in example_truth()["slides"]:
        sentences = re.findall(r"[^.!?]+[.!?]", slide["narration"])
        span = slide["speech_end"] - slide["speech_start"]
        total = sum(len(s) for s in sentences)
        at = slide["speech_start"]
        for sentence in sentences:
            length = span * len(sentence) / total
            segments.append(
                Segment(start=round(at, 3), end=round(at + length, 3), text=sentence.strip())
            )
            at += length
    return Transcript(
        language="en",
        duration=example_truth()["duration"],
        segments=segments,
    )


def share_on_right_slide(spans: list[TimelineSpan]) -> float:
    """Share of the example's speech time whose timeline slide is the one truly shown."""
    truth = [(s["index"], s["speech_start"], s["speech_end"]) for s in example_truth()["slides"]]
    return share_right(truth, spans)


# How a talk run on a test double ends: its generic prose may fail the ledger's checks, so
# a sentence may be a marked fallback (a counted fallback) rather than plain `succeeded`.
MADE = ("succeeded", "fallback")


def ledger_of(
    en: list[tuple[str, list[str]]],
    zh: list[tuple[str, list[str]]],
    titles: tuple[str, str] = ("Paging the cache", "缓存分页"),
    headings: tuple[str, str] = ("Paging", "分页"),
    summaries: tuple[str, str] = ("", ""),
    sources: list[FactSource] = (),
    role: str = "results",
    chapters: int = 1,
) -> Ledger:
    """A ledger written in English whose chapter (repeated `chapters` times) has the
    paragraphs (text, citations) of `en` and `zh`, one sentence each; the n-th paragraph is
    made from the n-th of `sources` where one is given. Pairs are (en, zh)."""
    facts = [
        LedgerSentence(
            id=f"f-{n}",
            kind="fact",
            source=sources[n].id if n < len(sources) else None,
            units=cites,
            en=Written(text=e),
            zh=Written(text=z),
        )
        for n, ((e, cites), (z, _)) in enumerate(zip(en, zh, strict=True))
    ]

    def made(id: str, kind: str, pair: tuple[str, str]) -> LedgerSentence:
        return LedgerSentence(id=id, kind=kind, en=Written(text=pair[0]), zh=Written(text=pair[1]))

    paragraphs = [LedgerParagraph(sentences=[f.id]) for f in facts]
    return Ledger(
        language="en",
        title="title",
        summary="summary",
        tags=["KV CACHE", "MEMORY"],
        chapters=[
            LedgerChapter(heading="h-1", role=role, sections=["sec-01"], paragraphs=paragraphs)
            for _ in range(chapters)
        ],
        sources=list(sources),
        sentences=[
            made("title", "title", titles),
            made("summary", "summary", summaries),
            made("h-1", "heading", headings),
            *facts,
        ],
    )
