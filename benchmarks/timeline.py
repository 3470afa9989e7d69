"""Timeline and deck benchmark: slide accuracy of both alignment paths, deck speed.

    .venv/bin/python benchmarks/timeline.py      (or `make bench` for every benchmark)

- frame_accuracy / text_accuracy: share of the example talk's speech time that the
  timeline puts on the slide truly on screen (ground truth written by
  scripts/make_example_talk.py), with a real Whisper transcript. The text path is the
  same talk with the video ignored.
- pages_per_s: deck extraction with slide pictures on the real decks in
  ../shared/fixtures/real (falling back to the copies in tests/data), default settings:
  a PPTX alone is rendered by LibreOffice when it is installed, and the text of pictures
  and drawn charts is read by OCR; pages_per_s_without_ocr without that, side by side.
- frame_accuracy_pip_real_deck: the frame path on a real 23-page deck shown at 75% size
  beside a speaker box, with camera shots between (made by tests/videos.py).
- frames_x_realtime: frame sampling speed on a 30 fps 720p video made here from the
  example's pages (the example itself is 2 fps, which flatters decoding).

The last line printed is one JSON object.
"""

import json
import sys
import tempfile
import time
from pathlib import Path

# Benchmarks run from a checkout and reuse the tests' fixtures and video builders.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.core.models import resolve_whisper
from pipeline.deck import read_deck
from pipeline.deck.options import DeckOptions
from pipeline.deck.pptx import libreoffice
from pipeline.deck.vocabulary import collect_terms
from pipeline.schema import Talk
from pipeline.settings import Settings
from pipeline.talk import read_talk
from pipeline.timeline import build_timeline
from pipeline.timeline.frames import frame_path
from pipeline.timeline.options import TimelineOptions
from pipeline.timeline.pictures import sample_frames
from pipeline.transcript import transcribe
from pipeline.transcript.options import TranscriptOptions
from tests.helpers import DATA, EXAMPLE, REPO, share_on_right_slide
from tests.videos import share_right, slide_video

SHARED = REPO.parent / "shared" / "fixtures" / "real"
ROUNDS = 3


def real_decks() -> list[Path]:
    folder = SHARED if SHARED.is_dir() else DATA
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in {".pdf", ".pptx"})


def deck_speed(work: Path, ocr: bool, rounds: int = ROUNDS) -> tuple[float, dict]:
    """Best of `rounds` per deck (the machine is noisy), summed over decks."""
    pages, seconds, per_deck = 0, 0.0, {}
    for path in real_decks():
        talk = Talk(slug="b", folder=path.parent, media=path, decks=[path])
        best = float("inf")
        for n in range(rounds):
            started = time.perf_counter()
            deck = read_deck(talk, DeckOptions(ocr=ocr), work / f"{path.stem}-{ocr}-{n}")
            best = min(best, time.perf_counter() - started)
        pictured = sum(1 for s in deck.slides if s.thumbnail)
        pages += len(deck.slides)
        seconds += best
        per_deck[path.name] = {
            "pages": len(deck.slides),
            "pictures": pictured,
            "pages_read_by_ocr": sum(1 for s in deck.slides if s.picture_text),
            "seconds": round(best, 3),
        }
    return pages / seconds, per_deck


def pip_accuracy(work: Path) -> float:
    """Frame path on a real deck (sglang-router: one template, animation builds) shown
    beside a speaker box with camera shots between: tests/videos.py."""
    source = DATA / "sglang-router.pdf"
    talk = Talk(slug="b", folder=DATA, media=source, decks=[source])
    deck = read_deck(talk, DeckOptions(libreoffice=False), work / "pip")
    video = work / "pip.mp4"
    truth = slide_video(video, [work / s.thumbnail for s in deck.slides], 8.0, 5, pip=True)
    spans, _ = frame_path(video, deck.slides, work, truth[-1][2], TimelineOptions())
    return share_right(truth, spans)


def main() -> None:
    settings = Settings()
    talk = read_talk(EXAMPLE, "t")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        deck = read_deck(talk, DeckOptions(libreoffice=False), work / "slides")
        model = resolve_whisper("auto", talk.meta.language, settings.cache_dir)
        spoken = transcribe(
            talk, model, TranscriptOptions(), collect_terms(deck, talk.meta.glossary)
        )
        started = time.perf_counter()
        with_video = build_timeline(talk, spoken, deck, work, TimelineOptions())
        frame_seconds = time.perf_counter() - started
        audio_only = talk.model_copy(update={"media": DATA / "jfk.flac"})  # no video stream
        text_only = build_timeline(audio_only, spoken, deck, work, TimelineOptions())
        print("frame path:", *[f"{s.slide}@{s.start:.0f}-{s.end:.0f}" for s in with_video.spans])
        print("text path: ", *[f"{s.slide}@{s.start:.0f}-{s.end:.0f}" for s in text_only.spans])

        video = work / "talk30.mp4"
        truth = slide_video(video, [work / s.thumbnail for s in deck.slides], 10.0, 30)
        started = time.perf_counter()
        times, _ = sample_frames(video, 1.0)
        sampling = time.perf_counter() - started
        video_seconds = truth[-1][2]
        pip = pip_accuracy(work)

        # OCR costs seconds a page: one round with it, side by side with the best without
        pages_per_s, per_deck = deck_speed(work, ocr=True, rounds=1)
        pages_per_s_text, _ = deck_speed(work, ocr=False)
    for name, row in per_deck.items():
        print(f"{name}: {row}")
    print(
        json.dumps(
            {
                "frame_accuracy": round(share_on_right_slide(with_video.spans), 4),
                "text_accuracy": round(share_on_right_slide(text_only.spans), 4),
                "frame_accuracy_pip_real_deck": round(pip, 4),
                "pages_per_s": round(pages_per_s, 2),
                "pages_per_s_without_ocr": round(pages_per_s_text, 2),
                "ocr_slowdown": round(pages_per_s_text / pages_per_s, 1),
                "timeline_seconds_example": round(frame_seconds, 3),
                "frames_x_realtime_30fps_720p": round(video_seconds / sampling, 1),
                "frames_sampled_30fps": len(times),
                "decks": len(per_deck),
                "libreoffice": libreoffice() is not None,
            }
        )
    )


if __name__ == "__main__":
    main()
