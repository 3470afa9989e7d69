"""The frame path of the timeline: video frames matched to slide pictures.

The slide is chosen by similarity with the deck's shared template taken away; a frame
must also look like the slide as a whole picture, else it shows something else (the
speaker, a demo) and matches no slide.
"""

from collections.abc import Callable
from itertools import groupby
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.schema import Slide, TimelineSpan
from pipeline.timeline import pictures
from pipeline.timeline.options import TimelineOptions


def frame_matches(
    similarity: np.ndarray, distinctive: np.ndarray, slides: list[int], opts: TimelineOptions
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


def frame_path(
    media: Path,
    pictured: list[Slide],
    pictures_root: Path,
    end: float,
    opts: TimelineOptions,
    progress: Callable[[float, float], None] | None = None,
) -> tuple[list[TimelineSpan], int]:
    """Spans from video frames matched to slide pictures, and how many frames were sampled."""
    times, grey = pictures.sample_frames(media, opts.frame_interval_s, progress)
    if not times:
        return [], 0
    paths = [pictures_root / s.thumbnail for s in pictured]
    slides = pictures.picture_signatures(paths)
    with Image.open(paths[0]) as first:
        aspect = first.width / first.height
    layouts = [None, *pictures.find_layouts(grey, slides, aspect, opts.min_similarity)]
    whole, distinct = best_layout([pictures.frame_signatures(grey, box) for box in layouts], slides)
    matches = frame_matches(whole, distinct, [s.index for s in pictured], opts)
    return frame_spans(times, matches, end), len(times)


def best_layout(signatures: list[np.ndarray], slides: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per frame, the similarities seen through the layout where some slide fits best."""
    whole = np.stack([pictures.similarities(s, slides) for s in signatures])
    distinct = np.stack([pictures.distinctive_similarities(s, slides) for s in signatures])
    chosen = whole.max(axis=2).argmax(axis=0)  # (frames,)
    rows = np.arange(whole.shape[1])
    return whole[chosen, rows], distinct[chosen, rows]
