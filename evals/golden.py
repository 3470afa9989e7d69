"""The golden cases (evals/cases/<case>/truth.yaml): the talks we know the truth of, run
end to end with the configured models and measured against it (`talk2article eval`)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from evals import evaluate
from evals.metrics import Truth
from pipeline.core.source import ROOT as PIPELINE
from pipeline.transcript.subtitles import read_subtitles, to_srt

REPO = PIPELINE.parent
CASES = REPO / "evals" / "cases"
SHARED = REPO.parent / "shared"  # real material whose licence is not stated: read, not copied


def cases() -> list[Path]:
    return [c for c in sorted(CASES.iterdir()) if (c / "truth.yaml").is_file()]


def truth_of(case: Path) -> tuple[dict, Truth]:
    raw = yaml.safe_load((case / "truth.yaml").read_text())
    truth = Truth(
        language=raw["language"],
        terms=raw["terms"],
        facts=raw["facts"],
        bindings=raw.get("bindings", []),
        misheard=raw.get("misheard", []),
    )
    if "narration" in raw:  # what was said and when each slide was on screen
        narration = json.loads((case / raw["narration"]).read_text())
        truth.reference = " ".join(s["narration"] for s in narration["slides"])
        truth.slides = [
            (s["index"], s["speech_start"], s["speech_end"]) for s in narration["slides"]
        ]
    return raw, truth


def talk_folder(case: Path, raw: dict, work: Path, long: bool = False) -> Path:
    """The case's talk as a folder the CLI can run: copied, or built from ../shared."""
    folder = work / ("long-" + case.name if long else case.name)
    if folder.exists():
        return folder
    if "shared" in raw:
        folder.mkdir(parents=True)
        srt = SHARED / raw["shared"]
        transcript = read_subtitles(srt, raw["language"])
        if long:  # three times over, back to back: a 60-minute talk with the same facts
            shift = transcript.duration + 2.0
            segments = [
                s.model_copy(update={"start": s.start + k * shift, "end": s.end + k * shift})
                for k in range(3)
                for s in transcript.segments
            ]
            transcript = transcript.model_copy(update={"segments": segments})
            (folder / "talk.srt").write_text(to_srt(transcript), encoding="utf-8")
        else:
            shutil.copyfile(srt, folder / "talk.srt")
        (folder / "talk.yaml").write_text(f"language: {raw['language']}\n")
    else:
        shutil.copytree((case / raw["talk"]).resolve(), folder)
    return folder


def run_case(folder: Path, inputs: Path, outputs: Path, env: dict[str, str] | None = None) -> dict:
    """The talk through the CLI, as a user runs it; its run.json."""
    command = [sys.executable, "-m", "flows.cli", "run", str(folder)]
    command += ["--inputs", str(inputs), "--outputs", str(outputs), "--no-prefect"]
    subprocess.run(
        command, cwd=REPO, env={**os.environ, **(env or {})}, capture_output=True, text=True
    )
    return json.loads((outputs / folder.relative_to(inputs) / "run.json").read_text())


def golden_eval(outputs: Path, names: list[str] | None = None, cold: bool = False) -> dict:
    """Run the golden cases into `outputs` (each talk folder under it) and write their
    reports and the dashboard there; returns each case's regressions. The talk folders
    are assembled in a temporary folder: material read from ../shared is not kept."""
    folders, truths = {}, {}
    with tempfile.TemporaryDirectory(prefix="talk2article-golden-") as tmp:
        inputs = Path(tmp)
        for case in cases():
            if names and case.name not in names:
                continue
            raw, truth = truth_of(case)
            folder = talk_folder(case, raw, inputs)
            if cold:
                shutil.rmtree(outputs / folder.name, ignore_errors=True)
            run_case(folder, inputs, outputs)
            folders[folder.name], truths[folder.name] = outputs / folder.name, truth
    return evaluate(folders, outputs / "dashboard", truths)
