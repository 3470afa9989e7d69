"""Synthetic recordings of a deck with known truth: which slide is shown when.

`pip=True` imitates a conference recording: the slide at 75% size on a grey stage beside
a noisy "speaker camera" box, with a full-frame camera shot before every fourth slide.
"""

from pathlib import Path

import av
import numpy as np
from PIL import Image

SIZE = (1280, 720)


def _camera(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    blocks = rng.integers(40, 200, (shape[0] // 8, shape[1] // 8, 3), dtype=np.uint8)
    return blocks.repeat(8, axis=0).repeat(8, axis=1)


def _stage(picture: Path, pip: bool) -> np.ndarray:
    slide = Image.open(picture).convert("RGB")
    if not pip:
        return np.asarray(slide.resize(SIZE)).copy()
    frame = np.full((SIZE[1], SIZE[0], 3), 70, np.uint8)
    frame[100:640, 30:990] = np.asarray(slide.resize((960, 540)))
    return frame


def slide_video(
    path: Path, pictures: list[Path], seconds_each: float, fps: int, pip: bool = False
) -> list[tuple[int, float, float]]:
    """Write the video; return (slide number, start, end) for every slide shown."""
    rng = np.random.default_rng(0)
    truth, at = [], 0.0
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = *SIZE, "yuv420p"

        def show(image: np.ndarray, seconds: float) -> None:
            for _ in range(round(seconds * fps)):
                frame = image.copy()
                if pip:
                    frame[480:700, 1010:1260] = _camera(rng, (224, 256))[:220, :250]
                else:  # light noise, so the encoder cannot skip frames
                    frame = np.clip(frame + rng.integers(-3, 4, frame.shape), 0, 255)
                video_frame = av.VideoFrame.from_ndarray(frame.astype(np.uint8), format="rgb24")
                for packet in stream.encode(video_frame):
                    container.mux(packet)

        for number, picture in enumerate(pictures, start=1):
            if pip and number % 4 == 0:
                show(_camera(rng, (SIZE[1], SIZE[0])), 3.0)
                at += 3.0
            show(_stage(picture, pip), seconds_each)
            truth.append((number, at, at + seconds_each))
            at += seconds_each
        for packet in stream.encode():
            container.mux(packet)
    return truth


def share_right(truth: list[tuple[int, float, float]], spans) -> float:
    """Share of the truth's time (slide, start, end) that spans put on the right slide."""
    right = sum(
        max(0.0, min(end, s.end) - max(start, s.start))
        for slide, start, end in truth
        for s in spans
        if s.slide == slide
    )
    return right / sum(end - start for _, start, end in truth)
