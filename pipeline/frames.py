"""Small grey thumbnails of video frames and slide pictures, and how alike they are.

Both sides are cut to their content (letterbox bars removed), shrunk to the same small
grid and standardised, so the similarity is a Pearson correlation in [-1, 1]: it does
not care about brightness, contrast or the video's resolution.
"""

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


def picture_signatures(paths: list[Path]) -> np.ndarray:
    rows = []
    for path in paths:
        with Image.open(path) as picture:
            rows.append(signature(picture))
    return np.stack(rows) if rows else np.zeros((0, GRID[0] * GRID[1]), np.float32)


def video_stream(container: av.container.InputContainer) -> av.video.VideoStream | None:
    """The real video stream; cover art in an audio file is a one-picture 'video' stream."""
    for stream in container.streams.video:
        if not stream.disposition & av.stream.Disposition.attached_pic:
            return stream
    return None


def has_video(media: Path) -> bool:
    with av.open(str(media)) as container:
        return video_stream(container) is not None


def sample_frames(
    media: Path, interval_s: float, progress: Callable[[float, float], None] | None = None
) -> tuple[list[float], np.ndarray]:
    """One frame signature every `interval_s` seconds: (times, signatures)."""
    times, rows = [], []
    with av.open(str(media)) as container:
        stream = video_stream(container)
        if stream is None:
            return times, picture_signatures([])
        stream.thread_type = "AUTO"
        duration = float(container.duration or 0) / av.time_base
        height = max(2, round(DECODE_WIDTH * stream.height / max(stream.width, 1)) // 2 * 2)
        due = 0.0
        for frame in container.decode(stream):
            if frame.time is None or frame.time < due:
                continue
            small = frame.reformat(width=DECODE_WIDTH, height=height, format="rgb24")
            times.append(float(frame.time))
            rows.append(signature(small.to_image()))
            due = frame.time + interval_s
            if progress:
                progress(frame.time, duration)
    return times, np.stack(rows) if rows else picture_signatures([])


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
