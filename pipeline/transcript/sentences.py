"""Transcript segments cut into sentences, timed by their words.

Whisper segments can run 30 s and cross a slide change; alignment and evidence work on
sentences so a change of slide can fall between them.
"""

import itertools
import re

from pipeline.schema import Segment, Transcript, Word

ENDS = (".", "!", "?", "。", "！", "？")
# After . ! ? a space must follow (so "2.2" and "vllm.ai" stay whole); Chinese marks need none.
SPLIT = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")


def split_segment(segment: Segment) -> list[Segment]:
    parts = [p.strip() for p in SPLIT.split(segment.text.strip()) if p.strip()]
    if len(parts) < 2:
        return [segment]
    cuts = _word_cuts(segment.words, len(parts))
    if cuts is None:
        return _by_characters(segment, parts)
    groups = [segment.words[a:b] for a, b in itertools.pairwise([0, *cuts, len(segment.words)])]
    starts = [segment.start, *(group[0].start for group in groups[1:])]
    ends = [*(group[-1].end for group in groups[:-1]), segment.end]
    return [
        Segment(start=start, end=max(end, start), text=text, words=group)
        for start, end, text, group in zip(starts, ends, parts, groups, strict=True)
    ]


def _word_cuts(words: list[Word], parts: int) -> list[int] | None:
    """Where each sentence after the first starts in `words`, when the words end sentences
    where the text does (corrections change words, not punctuation)."""
    enders = [i for i, w in enumerate(words) if w.text.strip().endswith(ENDS)]
    if len(enders) not in (parts - 1, parts) or (enders and enders[parts - 2] + 1 >= len(words)):
        return None
    return [i + 1 for i in enders[: parts - 1]]


def _by_characters(segment: Segment, parts: list[str]) -> list[Segment]:
    """Without usable word times: each sentence timed by its share of the characters."""
    bounds = _char_bounds(segment, parts)
    starts = [segment.start, *(start for _, start in bounds)]
    ends = [*(end for end, _ in bounds), segment.end]
    return [
        Segment(start=start, end=max(end, start), text=text)
        for start, end, text in zip(starts, ends, parts, strict=True)
    ]


def _char_bounds(segment: Segment, parts: list[str]) -> list[tuple[float, float]]:
    """Without usable word times: by each sentence's share of the characters."""
    total = sum(len(p) for p in parts)
    duration = segment.end - segment.start
    bounds, done = [], 0
    for part in parts[:-1]:
        done += len(part)
        at = round(segment.start + duration * done / total, 3)
        bounds.append((at, at))
    return bounds


def sentences(transcript: Transcript) -> list[Segment]:
    return [
        s for segment in transcript.segments if segment.text.strip() for s in split_segment(segment)
    ]
