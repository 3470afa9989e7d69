"""kill -9 of the CLI while the embedded llama.cpp server runs: nothing outlives it."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.flows.test_crash import record, subtitles_talk, wait_for

pytestmark = pytest.mark.models


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_no_process_outlives_a_killed_cli(tmp_path):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    talk = subtitles_talk(inputs)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PREFECT_API"))}
    env["TALK2ARTICLE_LLAMA_MODEL"] = "0.5b"
    process = subprocess.Popen(
        [sys.executable, "-m", "flows.cli", "run", str(talk)]
        + ["--inputs", str(inputs), "--outputs", str(outputs)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for(lambda: record(outputs).get("stage") == "outline" and children(process.pid), 120)
    [server] = children(process.pid)  # the llama.cpp server, loading then planning the outline
    time.sleep(8)  # mid-generation: a server told to stop politely would finish it first
    os.kill(process.pid, signal.SIGKILL)  # the CLI alone, as `kill -9 <pid>` does
    process.wait()
    deadline = time.monotonic() + 3
    while alive(server) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(server)
