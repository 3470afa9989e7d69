"""`talk2article serve` uses the configured Prefect server, or starts and stops its own."""

import subprocess
import sys

from flows.local_server import local_prefect_server
from pipeline.llm.server import stop


def test_a_configured_prefect_server_is_used_as_it_is(monkeypatch):
    monkeypatch.setenv("PREFECT_API_URL", "http://prefect.example:4200/api")
    with local_prefect_server() as url:
        assert url == "http://prefect.example:4200/api"


def test_a_child_that_ignores_terminate_is_killed():
    ignoring = (
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "print(1, flush=True); time.sleep(60)"
    )
    process = subprocess.Popen([sys.executable, "-c", ignoring], stdout=subprocess.PIPE)
    process.stdout.readline()  # its handler is set
    stop(process)
    assert process.returncode == -9
