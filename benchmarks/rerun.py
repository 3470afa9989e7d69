"""What a rerun costs: the example talk cold, unchanged, after a fact-rewriting prompt edit, and
resumed after a SIGKILL while the ledger is written, each through the CLI as a user runs it.

    python benchmarks/rerun.py [--model 1.5b|0.5b]

Prints a line per step and, last, one JSON object: cold_s, rerun_s (unchanged `run`),
nightly_s (unchanged `nightly`), rerun_model_calls (transcriptions + LLM calls of the
unchanged rerun), prompt_change_rerun_stages, killed_resume_redone_stages (stages done
before the kill, or interrupted by it, that the next run did again) and the LLM calls the
resumed run reused. Stages that always run (talk: classifying the folder; article:
typesetting) are left out of the stage lists.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from importlib.resources import files
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "inputs" / "examples" / "kv-cache-serving"
ALWAYS = {"talk", "article"}


def cli(*args: str, env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "flows.cli", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def timed(*args: str, env: dict) -> float:
    started = time.monotonic()
    cli(*args, env=env).wait()
    return round(time.monotonic() - started, 1)


def record(outputs: Path) -> dict:
    try:
        return json.loads((outputs / EXAMPLE.name / "run.json").read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return {}


def done_stages(run: dict) -> list[str]:
    return [s["name"] for s in run["stages"] if s["status"] == "done" and s["name"] not in ALWAYS]


def llm_calls(outputs: Path) -> list[dict]:
    log = outputs / EXAMPLE.name / "llm_calls.jsonl"
    return [json.loads(x) for x in log.read_text().splitlines()] if log.is_file() else []


def edit_prompt(prompts: Path, old: str, new: str) -> None:
    """The fact-rewriting prompt with `old` replaced (which it must hold: an edit that
    changes nothing would measure nothing)."""
    path = prompts / "rewrite_facts_en.yaml"
    if old not in path.read_text():
        raise SystemExit(f"{path.name} no longer says {old!r}: pick another phrase to edit")
    path.write_text(path.read_text().replace(old, new))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="1.5b", choices=["1.5b", "0.5b"])
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="talk2article-rerun-"))
    inputs, outputs, prompts = work / "inputs", work / "outputs", work / "prompts"
    shutil.copytree(EXAMPLE, inputs / EXAMPLE.name)
    shutil.copytree(Path(str(files("prompts"))), prompts)
    env = {**os.environ, "TALK2ARTICLE_LLAMA_MODEL": args.model}
    env |= {"TALK2ARTICLE_PROMPTS_DIR": str(prompts)}
    env.pop("PREFECT_API_URL", None)
    talk = ["run", str(inputs / EXAMPLE.name), "--inputs", str(inputs), "--outputs", str(outputs)]
    result: dict[str, object] = {"model": args.model}

    result["cold_s"] = timed(*talk, env=env)
    print(f"cold: {result['cold_s']} s, {record(outputs)['status']}", flush=True)
    calls_before = len(llm_calls(outputs))
    result["rerun_s"] = timed(*talk, env=env)
    rerun = record(outputs)
    new_calls = [c for c in llm_calls(outputs)[calls_before:] if not c["usage"].get("cached")]
    transcribed = any(s["name"] == "transcript" for s in rerun["stages"] if s["status"] == "done")
    result["rerun_model_calls"] = len(new_calls) + int(transcribed)
    nightly = ["nightly", "--inputs", str(inputs), "--outputs", str(outputs)]
    timed(*nightly, env=env)  # builds the site once
    result["nightly_s"] = timed(*nightly, env=env)
    print(f"unchanged: run {result['rerun_s']} s, nightly {result['nightly_s']} s", flush=True)

    edit_prompt(prompts, "technical editor", "technical writer")
    timed(*talk, env=env)
    result["prompt_change_rerun_stages"] = done_stages(record(outputs))
    print(f"prompt edited: {result['prompt_change_rerun_stages']}", flush=True)

    edit_prompt(prompts, "technical writer", "careful technical writer")
    process = cli(*talk, env=env)
    calls_before = len(llm_calls(outputs))
    deadline = time.monotonic() + 1800
    while record(outputs).get("stage") != "ledger" or len(llm_calls(outputs)) < calls_before + 3:
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the run ended before the ledger stage had made three calls")
        time.sleep(0.5)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    killed = record(outputs)
    finished_before = {s["name"] for s in killed["stages"]}
    calls_before = len(llm_calls(outputs))
    timed(*talk, env=env)
    resumed = record(outputs)
    result["killed_resume_redone_stages"] = [
        s for s in done_stages(resumed) if s in finished_before or s == killed["stage"]
    ]
    reused = [c for c in llm_calls(outputs)[calls_before:] if c["usage"].get("cached")]
    result["killed_resume_reused_llm_calls"] = len(reused)
    result["killed_resume_status"] = resumed["status"]
    print(f"killed during {killed['stage']}; resumed: {resumed['status']}", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
