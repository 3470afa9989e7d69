"""Shared test helpers (fixtures live in conftest.py)."""

import json
import re
from pathlib import Path

from pipeline.schema import Segment, Talk, TalkMeta, TimelineSpan, Transcript
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
