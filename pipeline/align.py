"""The timeline: which slide is on screen when (timeline.json).

Video frames are matched to the slide pictures. Where there is no video, no pictures,
or frames that match no slide (the speaker's camera, a demo), the speech is aligned to
the slides' text instead, in slide order: talks go forward through their decks.
"""

import re
from collections.abc import Callable
from itertools import groupby
from pathlib import Path

import av
import bm25s
import numpy as np
from bm25s.stopwords import STOPWORDS_CHINESE, STOPWORDS_EN
from PIL import Image

from pipeline import frames
from pipeline.schema import (
    Deck,
    Provenance,
    Slide,
    TalkInputs,
    Timeline,
    TimelineSpan,
    Transcript,
)
from pipeline.sentences import sentences
from pipeline.settings import AlignOptions
from pipeline.store import provenance, sha256_file, sha256_model

STAGE = "align"
WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+)*")  # "kv-cache" is "kv", "cache": speech has no hyphens
CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
STOPWORDS = set(STOPWORDS_EN) | set(STOPWORDS_CHINESE)


def timeline_provenance(
    talk: TalkInputs, transcript: Transcript, deck: Deck | None, opts: AlignOptions
) -> Provenance:
    inputs = {"media": sha256_file(talk.media), "transcript": sha256_model(transcript)}
    if deck is not None:
        inputs["deck"] = sha256_model(deck)
    options = {name: str(value) for name, value in opts.model_dump().items()}
    return provenance(STAGE, inputs=inputs, options=options)


# --- frame path ---------------------------------------------------------------------------


def frame_matches(
    similarity: np.ndarray, distinctive: np.ndarray, slides: list[int], opts: AlignOptions
) -> list[tuple[int, float] | None]:
    """Per frame: (slide, confidence), or None when no slide is similar enough.

    The slide is the best by `distinctive` similarity (template taken away); it must also
    look like the frame as a whole picture (`similarity`), else the frame shows something
    else: the speaker, a demo.
    """
    matches = []
    for whole, row in zip(similarity, distinctive, strict=True):
        order = np.argsort(row)[::-1]
        if whole[order[0]] < opts.min_similarity:
            matches.append(None)
            continue
        best = float(row[order[0]])
        runner_up = float(row[order[1]]) if len(order) > 1 else -1.0
        confidence = min(1.0, (best - runner_up) / opts.clear_margin) * min(1.0, max(best, 0.0))
        matches.append((slides[order[0]], round(confidence, 3)))
    return _without_flicker(matches)


def _without_flicker(matches: list[tuple[int, float] | None]) -> list[tuple[int, float] | None]:
    """A single frame that disagrees with the same slide on both sides is a glitch
    (a transition, a video artefact), not a slide shown for one interval."""
    smoothed = list(matches)
    for i in range(1, len(matches) - 1):
        before, here, after = matches[i - 1], matches[i], matches[i + 1]
        if before and after and before[0] == after[0] and (here is None or here[0] != before[0]):
            smoothed[i] = (before[0], min(before[1], after[1]))
    return smoothed


def frame_spans(
    times: list[float], matches: list[tuple[int, float] | None], end: float
) -> list[TimelineSpan]:
    """Runs of frames on one slide; each frame stands for the time until the next one."""
    spans = []
    for slide, run in groupby(range(len(matches)), key=lambda i: (matches[i] or (None,))[0]):
        frames_on_slide = list(run)
        if slide is None:
            continue
        after = frames_on_slide[-1] + 1
        stop = times[after] if after < len(times) else max(end, times[-1])
        confidence = sum(matches[i][1] for i in frames_on_slide) / len(frames_on_slide)
        spans.append(
            TimelineSpan(
                slide=slide,
                start=times[frames_on_slide[0]],
                end=stop,
                method="frame",
                confidence=round(confidence, 3),
            )
        )
    return spans


# --- text path ----------------------------------------------------------------------------


def tokens(text: str) -> list[str]:
    """Latin words, and character pairs of Chinese (which has no spaces between words)."""
    text = text.lower()
    found = [w for w in WORD.findall(text) if w not in STOPWORDS and len(w) > 1]
    for run in CJK_RUN.findall(text):
        found += [run[i : i + 2] for i in range(len(run) - 1)] or [run]
    return found


def slide_text(slide: Slide) -> str:
    return "\n".join([slide.title, slide.text, *slide.tables, slide.notes])


def match_scores(windows: list[str], slides: list[Slide]) -> np.ndarray:
    """BM25 score of every slide for every speech window, scaled so each window's best is 1."""
    retriever = bm25s.BM25()
    corpus = [tokens(slide_text(s)) or ["<empty>"] for s in slides]
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
    transcript: Transcript, slides: list[Slide], opts: AlignOptions
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


# --- both ---------------------------------------------------------------------------------


def fill_gaps(by_frames: list[TimelineSpan], by_text: list[TimelineSpan]) -> list[TimelineSpan]:
    """Frame spans, with the text path's spans cut to the time no frame span covers."""
    filled = list(by_frames)
    for span in by_text:
        cursor = span.start
        for covered in [*by_frames, None]:
            stop = span.end if covered is None else min(span.end, covered.start)
            if stop > cursor:
                filled.append(span.model_copy(update={"start": cursor, "end": stop}))
            if covered is not None:
                cursor = max(cursor, covered.end)
            if cursor >= span.end:
                break
    return sorted(filled, key=lambda s: s.start)


def frame_path(
    media: Path,
    pictured: list[Slide],
    pictures_root: Path,
    end: float,
    opts: AlignOptions,
    progress: Callable[[float, float], None] | None = None,
) -> tuple[list[TimelineSpan], int]:
    """Spans from video frames matched to slide pictures, and how many frames were sampled."""
    times, grey = frames.sample_frames(media, opts.frame_interval_s, progress)
    if not times:
        return [], 0
    paths = [pictures_root / s.thumbnail for s in pictured]
    pictures = frames.picture_signatures(paths)
    with Image.open(paths[0]) as first:
        aspect = first.width / first.height
    layouts = [None, *frames.find_layouts(grey, pictures, aspect, opts.min_similarity)]
    whole, distinct = best_layout([frames.frame_signatures(grey, box) for box in layouts], pictures)
    matches = frame_matches(whole, distinct, [s.index for s in pictured], opts)
    return frame_spans(times, matches, end), len(times)


def best_layout(
    signatures: list[np.ndarray], pictures: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per frame, the similarities seen through the layout where some slide fits best."""
    whole = np.stack([frames.similarities(s, pictures) for s in signatures])
    distinct = np.stack([frames.distinctive_similarities(s, pictures) for s in signatures])
    chosen = whole.max(axis=2).argmax(axis=0)  # (frames,)
    rows = np.arange(whole.shape[1])
    return whole[chosen, rows], distinct[chosen, rows]


def build_timeline(
    talk: TalkInputs,
    transcript: Transcript,
    deck: Deck | None,
    pictures_root: Path,
    opts: AlignOptions,
    progress: Callable[[float, float], None] | None = None,
) -> Timeline:
    """`pictures_root` is the folder the deck's thumbnail paths are relative to."""
    slides = deck.visible() if deck else []
    pictured = [s for s in slides if s.thumbnail]
    by_frames: list[TimelineSpan] = []
    sampled, warnings = 0, []
    if pictured:
        try:  # an audio-only recording samples no frames
            by_frames, sampled = frame_path(
                talk.media, pictured, pictures_root, transcript.duration, opts, progress
            )
        except (av.FFmpegError, OSError, ValueError) as err:
            warnings.append(f"{talk.media.name}: video frames unreadable ({err}); text only")
    return Timeline(
        spans=fill_gaps(by_frames, text_spans(transcript, slides, opts)),
        frames_sampled=sampled,
        warnings=warnings,
        provenance=timeline_provenance(talk, transcript, deck, opts),
    )
