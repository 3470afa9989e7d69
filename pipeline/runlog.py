"""run.json: status, per-stage timings and errors of one talk, rewritten after every stage
so a crash still leaves an accurate record of what finished."""

import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version

from pipeline import __version__
from pipeline.errors import StageFailure
from pipeline.schema import RunRecord, StageError, StageRecord
from pipeline.store import TalkStore

VERSIONED_PACKAGES = (
    "faster-whisper",
    "ctranslate2",
    "llama-cpp-python",
    "openai",
    "pymupdf",
    "python-pptx",
    "prefect",
    "pydantic",
)


def versions() -> dict[str, str]:
    found = {"talk2article": __version__, "python": platform.python_version()}
    for name in VERSIONED_PACKAGES:
        with suppress(PackageNotFoundError):
            found[name] = version(name)
    return found


class RunLog:
    """Wrap each stage in `stage(name)`; failures become StageErrors in run.json."""

    def __init__(self, store: TalkStore, talk: str) -> None:
        self.store = store
        self.record = RunRecord(talk=talk, started=datetime.now(UTC), versions=versions())
        self.save()

    def save(self) -> None:
        self.store.write("run.json", self.record)

    @contextmanager
    def stage(self, name: str, fatal: bool = True) -> Iterator[dict]:
        """Time a stage; the body may set `state["cached"] = True` when it reused output
        and `state["warnings"]` to a list of problems that did not stop it.

        A failure is recorded in run.json; a fatal one ends the run and propagates, a
        non-fatal one is swallowed here so the caller goes on without that stage's output.
        """
        state: dict = {"cached": False}
        started = time.monotonic()
        try:
            yield state
        except Exception as err:
            error = (
                err.error
                if isinstance(err, StageFailure)
                else StageError(stage=name, message=f"{type(err).__name__}: {err}")
            )
            self._record(name, started, "failed", error)
            if fatal:
                self.finish("failed")
                raise
            return
        status = "cached" if state["cached"] else "done"
        self._record(name, started, status, warnings=state.get("warnings", []))

    def _record(
        self,
        name: str,
        started: float,
        status: str,
        error: StageError | None = None,
        warnings: list[str] | None = None,
    ):
        seconds = round(time.monotonic() - started, 3)
        self.record.stages.append(
            StageRecord(
                name=name, status=status, seconds=seconds, error=error, warnings=warnings or []
            )
        )
        if error is not None:
            self.record.errors.append(error)
        self.save()

    def finish(self, status: str, outputs: list[str] | None = None) -> None:
        self.record.status = status
        self.record.finished = datetime.now(UTC)
        if outputs:
            self.record.outputs = outputs
        self.save()
