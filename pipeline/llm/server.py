"""The embedded LLM: llama.cpp's OpenAI-compatible server on a free loopback port.

Started when no endpoint is configured, stopped on exit, errors and Ctrl-C alike; on Linux
the child also dies with its parent if the parent is killed outright.
"""

import contextlib
import ctypes
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from pipeline.llm.client import Endpoint, LLMError
from pipeline.llm.options import EmbeddedLLMOptions
from pipeline.models import bundled_gguf, bundled_llm
from pipeline.settings import Settings

STOP_GRACE_S = 2.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def die_with_parent() -> None:
    # SIGKILL, not SIGTERM: the server would finish its current generation first.
    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def server_command(model: Path, port: int, alias: str, n_ctx: int, n_threads: int) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--model_alias",
        alias,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(n_ctx),
    ]
    if n_threads:
        command += ["--n_threads", str(n_threads)]
    return command


def wait_until_ready(url: str, process: subprocess.Popen, timeout_s: float, log: Path) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise LLMError(
                f"embedded llama.cpp server exited with code {process.returncode}; see {log}"
            )
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise LLMError(f"embedded llama.cpp server did not answer within {timeout_s:.0f} s; see {log}")


def stop(process: subprocess.Popen) -> None:
    """Terminate, and kill if a generation in flight holds it up (Ctrl-C mid-call)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def embedded_model_id(opts: EmbeddedLLMOptions) -> str:
    """The name the embedded server serves its model under (also the id in provenance)."""
    return opts.model_path.stem if opts.model_path else bundled_llm(opts.model).id


@contextmanager
def embedded_server(settings: Settings) -> Iterator[Endpoint]:
    """Serve the bundled (or configured) GGUF for the duration of the `with` block."""
    opts = settings.llama
    model = opts.model_path or bundled_gguf(opts.model, settings.cache_dir)
    alias = embedded_model_id(opts)
    port = free_port()
    log = settings.cache_dir / "llama-server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "ab") as log_handle:
        process = subprocess.Popen(
            server_command(model, port, alias, opts.n_ctx, opts.n_threads),
            stdout=log_handle,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            preexec_fn=die_with_parent if sys.platform == "linux" else None,
        )
        try:
            base_url = f"http://127.0.0.1:{port}/v1"
            wait_until_ready(f"{base_url}/models", process, opts.startup_timeout_s, log)
            yield Endpoint(
                base_url=base_url, api_key="embedded", model=alias, structured="json_object"
            )
        finally:
            stop(process)


@contextmanager
def llm_endpoint(settings: Settings) -> Iterator[Endpoint]:
    """The configured endpoint, or the embedded server when no base URL is set."""
    llm = settings.llm
    if llm.base_url is None:
        with embedded_server(settings) as endpoint:
            yield endpoint
        return
    if not llm.api_key:
        raise LLMError(
            "OPENAI_BASE_URL is set but OPENAI_API_KEY is not: export it (any "
            "non-empty value for endpoints without auth, e.g. a local vLLM)"
        )
    if not llm.model:
        raise LLMError("OPENAI_BASE_URL is set but OPENAI_MODEL is not: export the model name")
    structured = "json_object" if llm.structured_output == "json_object" else "json_schema"
    yield Endpoint(
        base_url=llm.base_url, api_key=llm.api_key, model=llm.model, structured=structured
    )
