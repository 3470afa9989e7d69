"""Timeline and deck benchmark: slide accuracy of both alignment paths, deck speed.

    .venv/bin/python benchmarks/timeline.py

- frame_accuracy / text_accuracy: share of the example talk's speech time that the
  timeline puts on the slide truly on screen (ground truth written by
  scripts/make_example_talk.py), with a real Whisper transcript. The text path is the
  same talk with the video ignored.
- pages_per_s: deck extraction with slide pictures on the real decks in
  ../shared/fixtures/real (falling back to the copies in tests/data).
- frames_x_realtime: frame sampling speed on a 30 fps 720p video made here from the
  example's pages (the example itself is 2 fps, which flatters decoding).

The last line printed is one JSON object.
"""

import json
import tempfile
import time
from pathlib import Path

import av
import numpy as np
from PIL import Image

from pipeline.align import AlignOptions, build_timeline
from pipeline.frames import sample_frames
from pipeline.ingest import ingest
from pipeline.models import resolve_whisper
from pipeline.schema import TalkInputs
from pipeline.settings import DeckOptions, Settings, WhisperOptions
from pipeline.slides import read_deck
from pipeline.transcribe import transcribe
from pipeline.vocabulary import collect_terms

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared" / "fixtures" / "real"
EXAMPLE = ROOT / "inputs" / "examples" / "kv-cache-serving"
TRUTH = json.loads((DATA / "kv-cache-serving.truth.json").read_text())
ROUNDS = 3


def share_on_right_slide(spans) -> float:
    right = total = 0.0
    for slide in TRUTH["slides"]:
        start, end = slide["speech_start"], slide["speech_end"]
        total += end - start
        right += sum(
            max(0.0, min(end, s.end) - max(start, s.start))
            for s in spans
            if s.slide == slide["index"]
        )
    return right / total


def real_decks() -> list[Path]:
    folder = SHARED if SHARED.is_dir() else DATA
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in {".pdf", ".pptx"})


def deck_speed(work: Path) -> tuple[float, dict]:
    """Best of ROUNDS per deck (the machine is noisy), summed over decks."""
    pages, seconds, per_deck = 0, 0.0, {}
    for path in real_decks():
        talk = TalkInputs(slug="b", folder=path.parent, media=path, decks=[path])
        best = float("inf")
        for n in range(ROUNDS):
            started = time.perf_counter()
            deck = read_deck(talk, DeckOptions(libreoffice=False), work / f"{path.stem}-{n}")
            best = min(best, time.perf_counter() - started)
        pictured = sum(1 for s in deck.slides if s.thumbnail)
        pages += len(deck.slides)
        seconds += best
        per_deck[path.name] = {
            "pages": len(deck.slides),
            "pictures": pictured,
            "seconds": round(best, 3),
        }
    return pages / seconds, per_deck


def video_30fps(work: Path, pictures: list[Path], seconds_each: float = 10.0) -> Path:
    """A 720p 30 fps h264 video showing each picture for `seconds_each`, with light noise
    so the encoder cannot skip frames."""
    path = work / "talk30.mp4"
    rng = np.random.default_rng(0)
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=30)
        stream.width, stream.height, stream.pix_fmt = 1280, 720, "yuv420p"
        for picture in pictures:
            base = np.asarray(Image.open(picture).convert("RGB").resize((1280, 720)), np.int16)
            for _ in range(int(30 * seconds_each)):
                noisy = np.clip(base + rng.integers(-3, 4, base.shape), 0, 255).astype(np.uint8)
                for packet in stream.encode(av.VideoFrame.from_ndarray(noisy, format="rgb24")):
                    container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return path


def main() -> None:
    settings = Settings()
    talk = ingest(EXAMPLE)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        deck = read_deck(talk, DeckOptions(libreoffice=False), work / "slides")
        model = resolve_whisper("auto", talk.meta.language, settings.cache_dir)
        spoken = transcribe(talk, model, WhisperOptions(), collect_terms(deck, talk.meta.glossary))
        started = time.perf_counter()
        with_video = build_timeline(talk, spoken, deck, work, AlignOptions())
        frame_seconds = time.perf_counter() - started
        audio_only = talk.model_copy(update={"media": DATA / "jfk.flac"})  # no video stream
        text_only = build_timeline(audio_only, spoken, deck, work, AlignOptions())
        print("frame path:", *[f"{s.slide}@{s.start:.0f}-{s.end:.0f}" for s in with_video.spans])
        print("text path: ", *[f"{s.slide}@{s.start:.0f}-{s.end:.0f}" for s in text_only.spans])

        video = video_30fps(work, [work / s.thumbnail for s in deck.slides])
        started = time.perf_counter()
        times, _ = sample_frames(video, 1.0)
        sampling = time.perf_counter() - started
        video_seconds = 10.0 * len(deck.slides)

        pages_per_s, per_deck = deck_speed(work)
    for name, row in per_deck.items():
        print(f"{name}: {row}")
    print(
        json.dumps(
            {
                "frame_accuracy": round(share_on_right_slide(with_video.spans), 4),
                "text_accuracy": round(share_on_right_slide(text_only.spans), 4),
                "pages_per_s": round(pages_per_s, 2),
                "timeline_seconds_example": round(frame_seconds, 3),
                "frames_x_realtime_30fps_720p": round(video_seconds / sampling, 1),
                "frames_sampled_30fps": len(times),
                "decks": len(per_deck),
            }
        )
    )


if __name__ == "__main__":
    main()
