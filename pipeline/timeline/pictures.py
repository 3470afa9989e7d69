"""Small grey thumbnails of video frames and slide pictures, and how alike they are.

Both sides are cut to their content (letterbox bars removed), shrunk to the same small
grid and standardised, so the similarity is a Pearson correlation in [-1, 1]: it does
not care about brightness, contrast or the video's resolution.

Conference recordings often show the slide in part of the frame, beside the speaker's
camera. `find_layouts` searches a sample of frames for the boxes the slides sit in, and
frames are then compared through those boxes as well as whole.
"""

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import av
import numpy as np
from PIL import Image

GRID = (64, 48)  # width, height: fine enough to tell a slide's animation steps apart
DARK = 24  # letterbox bars are darker than this (0-255)
DECODE_WIDTH = 256  # frames are shrunk by the decoder to about this before cropping


def standardised(vectors: np.ndarray) -> np.ndarray:
    """Each row to mean 0 and standard deviation 1; a flat row to zeros."""
    centred = vectors - vectors.mean(axis=-1, keepdims=True)
    spread = centred.std(axis=-1, keepdims=True)
    return np.divide(centred, spread, out=np.zeros_like(centred), where=spread > 1e-3)


def signature(picture: Image.Image) -> np.ndarray:
    """The picture as a standardised vector of GRID pixels (all zeros when uniform)."""
    grey = picture.convert("L")
    pixels = np.asarray(grey)
    rows = np.flatnonzero(pixels.max(axis=1) > DARK)
    cols = np.flatnonzero(pixels.max(axis=0) > DARK)
    if rows.size and cols.size:
        grey = grey.crop((cols[0], rows[0], cols[-1] + 1, rows[-1] + 1))
    vector = np.asarray(grey.resize(GRID, Image.Resampling.BOX), dtype=np.float32).ravel()
    return standardised(vector) if vector.std() > 1.0 else np.zeros_like(vector)


def stacked(signatures: list[np.ndarray]) -> np.ndarray:
    """Signatures as rows of one array, also when there are none."""
    return np.stack(signatures) if signatures else np.zeros((0, GRID[0] * GRID[1]), np.float32)


def picture_signatures(paths: list[Path]) -> np.ndarray:
    rows = []
    for path in paths:
        with Image.open(path) as picture:
            rows.append(signature(picture))
    return stacked(rows)


def video_stream(container: av.container.InputContainer) -> av.video.VideoStream | None:
    """The real video stream; cover art in an audio file is a one-picture 'video' stream."""
    for stream in container.streams.video:
        if not stream.disposition & av.stream.Disposition.attached_pic:
            return stream
    return None


def sample_frames(
    media: Path, interval_s: float, progress: Callable[[float, float], None] | None = None
) -> tuple[list[float], list[Image.Image]]:
    """One small grey frame (DECODE_WIDTH wide) every `interval_s` seconds; none for audio."""
    times, grey = [], []
    with av.open(str(media)) as container:
        stream = video_stream(container)
        if stream is None:
            return times, grey
        stream.thread_type = "AUTO"
        duration = float(container.duration or 0) / av.time_base
        height = max(2, round(DECODE_WIDTH * stream.height / max(stream.width, 1)) // 2 * 2)
        due = 0.0
        for frame in container.decode(stream):
            if frame.time is None or frame.time < due:
                continue
            small = frame.reformat(width=DECODE_WIDTH, height=height, format="gray")
            times.append(float(frame.time))
            grey.append(Image.fromarray(small.to_ndarray()))  # to_image() would make RGB
            due = frame.time + interval_s
            if progress:
                progress(frame.time, duration)
    return times, grey


def similarities(frames: np.ndarray, pictures: np.ndarray) -> np.ndarray:
    """Pearson correlation of every frame with every picture: shape (frames, pictures)."""
    if not (frames.size and pictures.size):
        return np.zeros((len(frames), len(pictures)), np.float32)
    return frames @ pictures.T / frames.shape[1]


def distinctive_similarities(frames: np.ndarray, pictures: np.ndarray) -> np.ndarray:
    """Similarities after taking away what all slides share (background, logo, title bar).

    Slides of one template correlate at 0.9 and more as whole pictures, because the
    template dominates; what tells them apart is the rest.
    """
    if len(pictures) < 2:
        return similarities(frames, pictures)
    template = pictures.mean(axis=0)
    return similarities(standardised(frames - template), standardised(pictures - template))


Box = tuple[int, int, int, int]  # left, top, right, bottom in sampled-frame pixels
SCALES = (1.0, 0.9, 0.8, 0.75, 0.7, 0.65, 0.6, 0.5, 0.4)  # slide width / largest fit
STEP = 8  # pixels between candidate positions in a DECODE_WIDTH-wide frame
PROBES = 24  # frames searched for layouts


def frame_signatures(frames: list[Image.Image], box: Box | None = None) -> np.ndarray:
    return stacked([signature(f.crop(box) if box else f) for f in frames])


def candidate_boxes(size: tuple[int, int], aspect: float) -> list[Box]:
    """Boxes of the slides' aspect ratio at several sizes and positions in the frame."""
    width, height = size
    fit_w = min(width, height * aspect)
    boxes = []
    for scale in SCALES:
        w, h = round(fit_w * scale), round(fit_w * scale / aspect)
        xs = sorted({*range(0, width - w + 1, STEP), width - w})
        ys = sorted({*range(0, height - h + 1, STEP), height - h})
        boxes += [(x, y, x + w, y + h) for x in xs for y in ys]
    return boxes


def find_layouts(
    frames: list[Image.Image],
    pictures: np.ndarray,
    aspect: float,
    min_similarity: float,
    most: int = 2,
) -> list[Box]:
    """The boxes the slides are shown in: for a sample of frames, the box whose content is
    most like some slide; the `most` boxes best for most frames, whole frame excluded."""
    probes = frames[:: max(1, len(frames) // PROBES)][:PROBES]
    if not probes or not len(pictures):
        return []
    boxes = candidate_boxes(probes[0].size, aspect)
    scores = np.stack(
        [similarities(frame_signatures(probes, box), pictures).max(axis=1) for box in boxes]
    )
    best = scores.argmax(axis=0)
    good = scores.max(axis=0) >= min_similarity / 2  # a rough box still looks half right
    winners = Counter(int(b) for b in best[good])
    whole = (0, 0, *probes[0].size)
    chosen = [b for b, _ in winners.most_common(most + 1) if boxes[b] != whole][:most]
    return [refine(boxes[b], [p for p, w in zip(probes, best, strict=True) if w == b], pictures)
            for b in chosen]  # fmt: skip


def refine(box: Box, probes: list[Image.Image], pictures: np.ndarray) -> Box:
    """The coarse box nudged a few pixels in position and size to fit the slides best."""
    aspect = (box[2] - box[0]) / (box[3] - box[1])
    width, height = probes[0].size
    nudges = (-STEP // 2, -STEP // 4, 0, STEP // 4, STEP // 2)
    candidates = []
    for grow in nudges:
        w = box[2] - box[0] + grow
        h = round(w / aspect)
        for dx in nudges:
            for dy in nudges:
                x, y = box[0] + dx - grow // 2, box[1] + dy - grow // 2
                if x >= 0 and y >= 0 and x + w <= width and y + h <= height:
                    candidates.append((x, y, x + w, y + h))
    fit = [
        similarities(frame_signatures(probes, c), pictures).max(axis=1).mean() for c in candidates
    ]
    return candidates[int(np.argmax(fit))]
