"""The CLI as a user meets it when things go wrong: Ctrl-C, SIGKILL, two runs at once, an
outputs folder it cannot write. A subtitles-only talk (no Whisper) and a fake endpoint on
loopback (tests/llm_server.py) keep each case to seconds."""

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.llm_server import FakeEndpoint, fake_endpoint

SRT = """1
00:00:00,500 --> 00:00:05,000
Reserving memory for the longest answer wastes most of the cache.

2
00:00:05,500 --> 00:00:10,500
Blocks of sixteen tokens are handed out as a sequence grows, so little is wasted.
"""
HANG = 120.0  # seconds a "hung" endpoint takes to answer


def subtitles_talk(inputs: Path, name: str = "paging") -> Path:
    folder = inputs / name
    folder.mkdir(parents=True)
    (folder / "talk.srt").write_text(SRT)
    (folder / "talk.yaml").write_text("language: en\n")
    return folder


def cli(base_url: str, *args: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "OPENAI_BASE_URL": base_url,
        "OPENAI_API_KEY": "test-key",
        "OPENAI_MODEL": "fake",
        "COLUMNS": "200",
    }
    env.pop("PREFECT_API_URL", None)
    return subprocess.Popen(
        [sys.executable, "-m", "flows.cli", "run", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )


def record(outputs: Path, talk: str = "paging") -> dict:
    try:
        return json.loads((outputs / talk / "run.json").read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return {}


def wait_for(condition, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.1)


@pytest.fixture
def folders(tmp_path) -> tuple[Path, Path, Path]:
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    return subtitles_talk(inputs), inputs, outputs


@contextmanager
def hung_in_outline(folders) -> Iterator[subprocess.Popen]:
    """The CLI on the talk, waiting on an endpoint that does not answer its outline call."""
    talk, inputs, outputs = folders
    endpoint = FakeEndpoint(delays={"outline": HANG})
    with fake_endpoint(endpoint) as url:
        process = cli(url, str(talk), "--inputs", str(inputs), "--outputs", str(outputs))
        wait_for(lambda: endpoint.requests and record(outputs).get("stage") == "outline")
        yield process


def test_ctrl_c_stops_within_seconds_and_records_where(folders):
    outputs = folders[2]
    with hung_in_outline(folders) as process:
        asked = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C sends: the whole group
        _, stderr = process.communicate(timeout=30)
    assert time.monotonic() - asked < 10
    assert process.returncode == 130 and "Traceback" not in stderr
    run = record(outputs)
    assert run["status"] == "interrupted" and run["pid"] is None
    assert run["errors"] == [{"stage": "outline", "message": "interrupted (SIGINT)", "file": None}]


def test_sigterm_is_handled_like_ctrl_c(folders):
    outputs = folders[2]
    with hung_in_outline(folders) as process:
        process.terminate()
        process.communicate(timeout=30)
    assert process.returncode == 130
    assert record(outputs)["errors"][0]["message"] == "interrupted (SIGTERM)"


def test_killed_while_writing_the_ledger_the_next_run_redoes_nothing_finished(folders):
    talk, inputs, outputs = folders
    # facts written, translating hangs
    slow = FakeEndpoint(delays={"translate_sentences_zh": HANG})
    with fake_endpoint(slow) as url:
        process = cli(url, str(talk), "--inputs", str(inputs), "--outputs", str(outputs))
        wait_for(lambda: any(slow.prompt_of(r) == "translate_sentences_zh" for r in slow.requests))
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=30)
    killed = record(outputs)
    assert killed["status"] == "running" and killed["stage"] == "ledger"
    finished = [r for r in slow.requests if slow.prompt_of(r) != "translate_sentences_zh"]
    fast = FakeEndpoint()
    with fake_endpoint(fast) as url:
        process = cli(url, str(talk), "--inputs", str(inputs), "--outputs", str(outputs))
        process.communicate(timeout=120)
    resumed = record(outputs)
    # The fake's prose fails the ledger's checks, so a sentence may be a marked fallback.
    assert resumed["status"] in ("succeeded", "fallback"), resumed
    assert "was killed during ledger" in resumed["previous"]
    stages = {s["name"]: s["status"] for s in resumed["stages"]}
    assert stages["notes"] == stages["outline"] == "cached" and stages["ledger"] == "done"
    assert not any(r in fast.requests for r in finished)  # no finished call asked again


def test_a_second_run_on_the_same_talk_refuses_and_leaves_the_first_alone(folders):
    talk, inputs, outputs = folders
    with hung_in_outline(folders) as first:
        url = "http://127.0.0.1:9/v1"  # never asked: the talk is refused before any stage
        second = cli(url, str(talk), "--inputs", str(inputs), "--outputs", str(outputs))
        stdout, stderr = second.communicate(timeout=60)
        assert second.returncode == 1 and "another run (pid" in stdout, stdout + stderr
        assert record(outputs)["pid"] == first.pid and record(outputs)["status"] == "running"
        os.killpg(first.pid, signal.SIGINT)
        first.communicate(timeout=30)


def test_an_unwritable_outputs_folder_is_one_talks_error_and_the_batch_goes_on(folders):
    talk, inputs, outputs = folders
    subtitles_talk(inputs, "other")
    outputs.mkdir()
    (outputs / "paging").write_text("a file where the talk's folder should be")
    with fake_endpoint(FakeEndpoint()) as url:
        process = cli(url, "--all", "--inputs", str(inputs), "--outputs", str(outputs))
        stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 1 and "Traceback" not in stdout + stderr
    assert "cannot write the outputs folder" in stdout
    assert record(outputs, "other")["status"] in ("succeeded", "fallback")
