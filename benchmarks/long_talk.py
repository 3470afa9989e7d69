"""An hour-long talk end to end, and resumed after a kill: the 62-minute case (the
zh-inference-frameworks lecture's subtitles three times over, read from ../shared at run
time), through the CLI as a user runs it, with the bundled 1.5B.

    python benchmarks/long_talk.py [--model 1.5b|0.5b] [--kill-after-calls N] [--joined]

With --joined the talk is two real Chinese lectures back to back instead (zh-deepseek-r1
then zh-inference-frameworks, 51 minutes of different content): what an hour of talk that
does not repeat itself makes.

Prints a line per step and, last, one JSON object: minutes, end_to_end_s,
end_to_end_per_talk_minute, llm_s_per_talk_minute, peak_rss_mb (the largest process of the
run: the pipeline or the model server), chapters and sentences of the article, its outline
(chapter headings in both languages); then a second cold run killed by SIGKILL once the
ledger stage has made N calls, run again: resume_redone_stages (stages finished before the
kill that ran again) and resume_redone_llm_calls (answers the model had given before the
kill that it was asked for again: not taken from the call cache).
"""

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evals.golden import CASES, SHARED, talk_folder, truth_of  # noqa: E402
from pipeline.schema import Ledger  # noqa: E402
from pipeline.transcript.subtitles import read_subtitles, to_srt  # noqa: E402

CASE = CASES / "zh-inference-frameworks"
ALWAYS = {"talk", "article"}  # stages that run every time


def joined_folder(inputs: Path) -> Path:
    """Two real lectures' subtitles back to back, as one talk."""
    folder = inputs / "joined-lectures"
    folder.mkdir(parents=True)
    segments, offset = [], 0.0
    for name in ("zh-deepseek-r1", "zh-inference-frameworks"):
        raw, _ = truth_of(CASES / name)
        transcript = read_subtitles(SHARED / raw["shared"], "zh")
        segments += [
            s.model_copy(update={"start": s.start + offset, "end": s.end + offset})
            for s in transcript.segments
        ]
        offset += transcript.duration + 2.0
    joined = transcript.model_copy(update={"segments": segments})
    (folder / "talk.srt").write_text(to_srt(joined), encoding="utf-8")
    # both lectures' speaker, by the name he gives himself in them, as a maintainer writes it
    (folder / "talk.yaml").write_text("language: zh\nspeaker: ZOMI\n")
    return folder


def cli(*args: str, env: dict) -> subprocess.Popen:
    command = [sys.executable, "-m", "flows.cli", *args, "--no-prefect"]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip


def record(out: Path) -> dict:
    try:
        return json.loads((out / "run.json").read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return {}


def calls(out: Path) -> list[dict]:
    log = out / "llm_calls.jsonl"
    return [json.loads(x) for x in log.read_text().splitlines()] if log.is_file() else []


def cold_run(folder: Path, inputs: Path, outputs: Path, env: dict) -> dict:
    """The talk run cold: its figures."""
    started = time.monotonic()
    cli("run", str(folder), "--inputs", str(inputs), "--outputs", str(outputs), env=env).wait()
    seconds = time.monotonic() - started
    out = outputs / folder.name
    run = record(out)
    ledger = Ledger.model_validate_json((out / "ledger.json").read_text())
    minutes = json.loads((out / "transcript.json").read_text())["duration"] / 60
    llm_s = sum(c["seconds"] for c in calls(out))
    # ru_maxrss of waited-for descendants: the largest one (KB on Linux)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    draft = ledger.draft()
    return {
        "status": run["status"],
        "verdict": run.get("verdict"),
        "minutes": round(minutes, 1),
        "end_to_end_s": round(seconds, 1),
        "end_to_end_per_talk_minute": round(seconds / minutes, 1),
        "llm_s_per_talk_minute": round(llm_s / minutes, 1),
        "peak_rss_mb": round(peak),
        "stage_s": {s["name"]: s["seconds"] for s in run["stages"]},
        "chapters": len(ledger.chapters),
        "sentences": sum(len(p.sentences) for c in ledger.chapters for p in c.paragraphs),
        "outline": [
            [z.title, e.title] for z, e in zip(draft.zh.sections, draft.en.sections, strict=True)
        ],
    }


def killed_and_resumed(folder: Path, inputs: Path, outputs: Path, env: dict, after: int) -> dict:
    """A cold run killed once the ledger stage has made `after` calls, then run again."""
    talk = ["run", str(folder), "--inputs", str(inputs), "--outputs", str(outputs)]
    out = outputs / folder.name
    process = cli(*talk, env=env)
    while record(out).get("stage") != "ledger" or len(calls(out)) < after:
        if process.poll() is not None:
            raise SystemExit("the run ended before the ledger stage made enough calls")
        time.sleep(0.5)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    killed, logged, cached = record(out), calls(out), cache_keys(out)
    finished = {s["name"] for s in killed["stages"]} - ALWAYS
    cli(*talk, env=env).wait()
    resumed, again = record(out), calls(out)[len(logged) :]
    redone = [s["name"] for s in resumed["stages"] if s["status"] == "done"]
    answered_again = set(cache_keys(out)[len(cached) :]) & set(cached)
    return {
        "killed_during": killed["stage"],
        "answers_before_kill": len(cached),
        "resume_status": resumed["status"],
        "resume_redone_stages": [s for s in redone if s in finished],
        # answers the model had given before the kill that it was asked for again
        "resume_redone_llm_calls": len(answered_again),
        "resume_llm_calls": len(again),
        "resume_reused_llm_calls": sum(bool(c["usage"].get("cached")) for c in again),
    }


def cache_keys(out: Path) -> list[str]:
    """The request keys of the call cache (llm_cache.jsonl), in the order answered."""
    log = out / "llm_cache.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines() if log.is_file() else []
    keys = []
    for line in lines:
        try:
            keys.append(json.loads(line)["key"])
        except (ValueError, KeyError):
            continue  # the line a kill cut short
    return keys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="1.5b", choices=["1.5b", "0.5b"])
    parser.add_argument("--kill-after-calls", type=int, default=60)
    parser.add_argument("--joined", action="store_true", help="two real lectures back to back")
    args = parser.parse_args()
    # ../shared material (licence not stated) lives in a temporary folder only
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = Path(tempfile.mkdtemp(prefix="talk2article-long-"))
    env = {**os.environ, "TALK2ARTICLE_LLAMA_MODEL": args.model}
    env.pop("PREFECT_API_URL", None)
    try:
        inputs = work / "inputs"
        inputs.mkdir()
        if args.joined:
            folder = joined_folder(inputs)
        else:
            raw, _ = truth_of(CASE)
            folder = talk_folder(CASE, raw, inputs, long=True)
        result = cold_run(folder, inputs, work / "outputs", env)
        print(f"cold: {result['end_to_end_s']} s, {result['status']}", flush=True)
        resumed = killed_and_resumed(folder, inputs, work / "again", env, args.kill_after_calls)
        print(f"killed during {resumed['killed_during']}; resumed", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"model": args.model, **result, **resumed}, ensure_ascii=False))


if __name__ == "__main__":
    main()
