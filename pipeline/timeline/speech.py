"""The text path of the timeline: speech aligned to slide text, in slide order.

Used where there is no video, no slide pictures, or frames that match no slide: talks go
forward through their decks, so a dynamic program that never goes back picks the slide
for each spoken sentence from BM25 scores.
"""

import logging
import re
from itertools import groupby

import bm25s
import numpy as np
from bm25s.stopwords import STOPWORDS_CHINESE, STOPWORDS_EN

from pipeline.core.text import CJK_RUN
from pipeline.schema import Slide, TimelineSpan, Transcript
from pipeline.timeline.options import TimelineOptions
from pipeline.transcript.sentences import sentences

WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+)*")  # "kv-cache" is "kv", "cache": speech has no hyphens
STOPWORDS = set(STOPWORDS_EN) | set(STOPWORDS_CHINESE)
# bm25s sets its own logger to DEBUG, which printed "Building index from tokens" on the
# console of every run with a deck and no video: a user needs its warnings only.
logging.getLogger("bm25s").setLevel(logging.WARNING)


def tokens(text: str) -> list[str]:
    """Latin words, and character pairs of Chinese (which has no spaces between words)."""
    text = text.lower()
    found = [w for w in WORD.findall(text) if w not in STOPWORDS and len(w) > 1]
    for run in CJK_RUN.findall(text):
        found += [run[i : i + 2] for i in range(len(run) - 1)] or [run]
    return found


def match_scores(windows: list[str], slides: list[Slide]) -> np.ndarray:
    """BM25 score of every slide for every speech window, scaled so each window's best is 1."""
    retriever = bm25s.BM25()
    corpus = [tokens("\n".join(s.texts())) or ["<empty>"] for s in slides]
    retriever.index(corpus, show_progress=False)
    vocabulary = {t for doc in corpus for t in doc}
    scores = np.zeros((len(windows), len(slides)), np.float32)
    for i, window in enumerate(windows):
        query = [t for t in tokens(window) if t in vocabulary]
        if query:
            scores[i] = retriever.get_scores(query)
    best = scores.max(axis=1, keepdims=True)
    return np.divide(scores, best, out=np.zeros_like(scores), where=best > 0)


def monotonic_path(scores: np.ndarray, switch_penalty: float) -> list[int]:
    """The slide (column) per window that never goes back and maximises the total score
    minus `switch_penalty` per change of slide (dynamic programming, O(windows x slides))."""
    n_windows, n_slides = scores.shape
    total = scores[0] - switch_penalty * (np.arange(n_slides) > 0)
    came_from = np.zeros((n_windows, n_slides), dtype=np.int64)
    for w in range(1, n_windows):
        # For every slide, the best earlier slide to move from: a running maximum.
        best_upto, arg_upto = _running_max(total)
        move = np.concatenate(([-np.inf], best_upto[:-1])) - switch_penalty
        came_from[w] = np.where(total >= move, np.arange(n_slides), np.roll(arg_upto, 1))
        total = np.maximum(total, move) + scores[w]
    path = [int(np.argmax(total))]
    for w in range(n_windows - 1, 0, -1):
        path.append(int(came_from[w][path[-1]]))
    return path[::-1]


def _running_max(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """max(values[:i+1]) and where it is, for every i."""
    best = np.maximum.accumulate(values)
    where = np.zeros(len(values), dtype=np.int64)
    for i in range(1, len(values)):
        where[i] = i if values[i] > best[i - 1] else where[i - 1]
    return best, where


def text_spans(
    transcript: Transcript, slides: list[Slide], opts: TimelineOptions
) -> list[TimelineSpan]:
    """Spoken sentences aligned to slide text in slide order; a span runs from its first
    sentence to the start of the next span, so pauses belong to the slide before them."""
    segments = sentences(transcript)
    if not segments or not slides:
        return []
    scores = match_scores([s.text for s in segments], slides)
    path = monotonic_path(scores, opts.switch_penalty)
    runs = []  # (column, first sentence, last sentence)
    for column, run in groupby(range(len(path)), key=path.__getitem__):
        on_slide = list(run)
        runs.append((column, on_slide[0], on_slide[-1]))
    spans = []
    for k, (column, first, last) in enumerate(runs):
        start = 0.0 if k == 0 else segments[first].start
        end = segments[runs[k + 1][1]].start if k + 1 < len(runs) else segments[last].end
        confidence = float(scores[first : last + 1, column].mean())
        spans.append(
            TimelineSpan(
                slide=slides[column].index,
                start=start,
                end=max(end, start),
                method="text",
                confidence=round(confidence, 3),
            )
        )
    return spans
