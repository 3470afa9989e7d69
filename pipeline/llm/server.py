"""The embedded LLM: llama.cpp's `llama-server` (runtime.py) on a free loopback port.

Started when no endpoint is configured, proven by a real completion before any stage uses
it, restarted once if it dies mid-run, stopped on exit, errors and Ctrl-C alike; on Linux
the child also dies with its parent if the parent is killed outright. A death is reported
by what happened (the signal, the log), never as a bare "Connection error".
"""

import contextlib
import ctypes
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx

from pipeline.core.models import bundled_gguf, bundled_llm
from pipeline.llm.client import Endpoint, EndpointError
from pipeline.llm.options import EmbeddedLLMOptions, LLMSetup
from pipeline.llm.runtime import llama_server

STOP_GRACE_S = 2.0
DEATH_GRACE_S = 1.0
PROBE_TIMEOUT_S = 120.0
MAX_RESTARTS = 1
SIGNAL_MEANINGS = {
    signal.SIGILL: "an instruction this CPU cannot run",
    signal.SIGKILL: "out of memory, or killed by another process",
    signal.SIGSEGV: "a crash",
    signal.SIGABRT: "it aborted",
    signal.SIGBUS: "a crash",
}
CPU_VARIANT = re.compile(r"libggml-cpu-(\w+)\.so")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def die_with_parent() -> None:
    # SIGKILL, not SIGTERM: the server would finish its current generation first.
    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def slots(opts: EmbeddedLLMOptions) -> int:
    """Parallel slots: two per core (generation waits on memory, so a batch of sequences
    costs little more than one), at most 8."""
    return opts.parallel or min(8, 2 * (os.cpu_count() or 1))


def threads(opts: EmbeddedLLMOptions) -> int:
    return opts.n_threads or os.cpu_count() or 1


def server_command(binary: Path, model: Path, port: int, alias: str, opts: EmbeddedLLMOptions):
    n = slots(opts)
    command = [str(binary), "--model", str(model), "--alias", alias]
    command += ["--host", "127.0.0.1", "--port", str(port), "--no-webui"]
    # One KV buffer shared by the slots, each slot up to the context window.
    command += ["--parallel", str(n), "--kv-unified", "--ctx-size", str(opts.n_ctx * n)]
    return command + ["--threads", str(threads(opts))]


def death_message(returncode: int, log: Path) -> str:
    """What killed the server, in words: "killed by SIGILL (an instruction …) — see log"."""
    if returncode < 0:
        sig = signal.Signals(-returncode)
        meaning = SIGNAL_MEANINGS.get(sig, "a signal")
        what = f"was killed by {sig.name} ({meaning})"
    else:
        what = f"exited with code {returncode}"
    return f"the embedded llama.cpp server {what} — see {log}"


def cpu_variant(pid: int) -> str | None:
    """The ggml CPU variant a running server loaded for this CPU (Linux: its memory map)."""
    try:
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return None
    found = CPU_VARIANT.findall(maps)
    return found[0] if found else None


class EmbeddedServer:
    """One llama-server process for a run; `revive()` restarts it once if it died."""

    def __init__(self, setup: LLMSetup) -> None:
        opts = setup.llama
        self.opts = opts
        self.binary = llama_server(setup.cache_dir, opts.server_path)
        self.model = opts.model_path or bundled_gguf(opts.model, setup.cache_dir)
        self.alias = embedded_model_id(opts)
        self.port = free_port()
        self.log = setup.cache_dir / "llama-server.log"
        self.process: subprocess.Popen | None = None
        self.restarts = 0
        self._lock = threading.Lock()
        # The server dies with the thread that started it (PR_SET_PDEATHSIG is per thread):
        # a restart from a stage's worker thread would die when that thread ends. So one
        # thread that lives as long as this object starts every process.
        self._spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="llama-server")

    @property
    def endpoint(self) -> Endpoint:
        base_url = f"http://127.0.0.1:{self.port}/v1"
        return Endpoint(
            base_url=base_url,
            api_key="embedded",
            model=self.alias,
            slots=slots(self.opts),
            timeout=(self.opts.request_timeout_s, "TALK2ARTICLE_LLAMA_REQUEST_TIMEOUT_S"),
        )

    def start(self) -> None:
        self.process = self._spawner.submit(self.spawn).result()
        try:
            self.wait_until_ready()
            self.prove_it_generates()
        except BaseException:
            self.terminate()
            raise

    def spawn(self) -> subprocess.Popen:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log_handle:
            return subprocess.Popen(
                server_command(self.binary, self.model, self.port, self.alias, self.opts),
                stdout=log_handle,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                preexec_fn=die_with_parent if sys.platform == "linux" else None,
            )

    def describe(self) -> str:
        """What serves the model, for run.json: the build, the CPU code it chose, slots."""
        variant = cpu_variant(self.process.pid) if self.process else None
        build = self.binary.parent.parent.name if self.opts.server_path is None else self.binary
        return f"llama-server {build}, CPU variant {variant or 'unknown'}, {slots(self.opts)} slots"

    def death(self) -> str | None:
        """Why the server is not running, or None while it runs."""
        if self.process is None or self.process.poll() is None:
            return None
        return death_message(self.process.returncode, self.log)

    def wait_until_ready(self) -> None:
        deadline = time.monotonic() + self.opts.startup_timeout_s
        url = f"http://127.0.0.1:{self.port}/health"
        while time.monotonic() < deadline:
            if why := self.death():
                raise EndpointError(f"{why} (while loading {self.model.name})")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url, timeout=2).status_code == 200:
                    return
            time.sleep(0.3)
        raise EndpointError(
            f"the embedded llama.cpp server did not load {self.model.name} within "
            f"{self.opts.startup_timeout_s:.0f} s — see {self.log}"
        )

    def prove_it_generates(self) -> None:
        """A real short completion: a server can answer /health and die at its first token
        (the AMX build did)."""
        request = {
            "model": self.alias,
            "messages": [{"role": "user", "content": "Say OK."}],
            "max_tokens": 4,
        }
        url = f"http://127.0.0.1:{self.port}/v1/chat/completions"
        try:
            reply = httpx.post(url, json=request, timeout=PROBE_TIMEOUT_S)
            reply.raise_for_status()
            reply.json()["choices"][0]["message"]
        except (httpx.HTTPError, KeyError, IndexError, ValueError) as err:
            self.is_running_after(DEATH_GRACE_S)  # so that its signal can be named
            why = self.death() or f"the embedded llama.cpp server could not generate ({err})"
            raise EndpointError(f"{why} (its first completion)") from err

    def revive(self) -> bool:
        """After a failed request: restart a dead server once. True: ask again (it was
        restarted, by this call or by a concurrent one); False: it never died, so the
        failure was something else. Raises when it died again."""
        with self._lock:
            if self.process is not None and self.is_running_after(DEATH_GRACE_S):
                return self.restarts > 0
            why = self.death() or "the embedded llama.cpp server is not running"
            if self.restarts >= MAX_RESTARTS:
                raise EndpointError(f"{why}; already restarted {self.restarts} time(s)")
            self.restarts += 1
            self.start()
            return True

    def is_running_after(self, seconds: float) -> bool:
        """Whether it still runs `seconds` from now: a dying server closes its connections
        a moment before its exit can be seen."""
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return True
        return False

    def stop(self) -> None:
        self.terminate()
        self._spawner.shutdown(wait=False)

    def terminate(self) -> None:
        """Terminate, and kill if a generation in flight holds it up (Ctrl-C mid-call)."""
        if self.process is not None:
            stop(self.process)


def stop(process: subprocess.Popen) -> None:
    """Terminate a child process, and kill it if it has not stopped within STOP_GRACE_S."""
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
def embedded_server(setup: LLMSetup) -> Iterator[EmbeddedServer]:
    """Serve the bundled (or configured) GGUF for the duration of the `with` block."""
    server = EmbeddedServer(setup)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def llm_endpoint(setup: LLMSetup) -> Iterator[tuple[Endpoint, EmbeddedServer | None]]:
    """The configured endpoint, or the embedded server when no base URL is set."""
    llm = setup.llm
    if llm.base_url is None:
        with embedded_server(setup) as server:
            yield server.endpoint, server
        return
    if not llm.api_key:
        raise EndpointError(
            "OPENAI_BASE_URL is set but OPENAI_API_KEY is not: export it (any "
            "non-empty value for endpoints without auth, e.g. a local vLLM)"
        )
    if not llm.model:
        raise EndpointError("OPENAI_BASE_URL is set but OPENAI_MODEL is not: export the model name")
    structured = "json_object" if llm.structured_output == "json_object" else "json_schema"
    endpoint = Endpoint(
        base_url=llm.base_url,
        api_key=llm.api_key,
        model=llm.model,
        structured=structured,
        slots=llm.concurrency,
    )
    yield endpoint, None
