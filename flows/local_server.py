"""A Prefect server of our own for `talk2article serve`, when none is configured: started
as a child (which dies with us, even on SIGKILL), its database in a temporary folder."""

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from pipeline.llm.server import die_with_parent, free_port, stop

STARTUP_S = 120.0


@contextmanager
def local_prefect_server() -> Iterator[str]:
    """The configured PREFECT_API_URL, or a server started here for the duration."""
    if url := os.environ.get("PREFECT_API_URL"):
        yield url
        return
    port = free_port()
    url = f"http://127.0.0.1:{port}/api"
    with tempfile.TemporaryDirectory(prefix="talk2article-prefect-") as home:
        env = {**os.environ, "PREFECT_HOME": home, "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
        command = [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1"]
        process = subprocess.Popen(
            [*command, "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_parent if sys.platform == "linux" else None,
        )
        try:
            wait_for_health(url, process)
            os.environ["PREFECT_API_URL"] = url
            os.environ["PREFECT_HOME"] = home
            yield url
        finally:
            os.environ.pop("PREFECT_API_URL", None)
            stop(process)


def wait_for_health(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the Prefect server exited with code {process.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        time.sleep(0.5)
    raise RuntimeError(f"the Prefect server did not answer within {STARTUP_S:.0f} s")
