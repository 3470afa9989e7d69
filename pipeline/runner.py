"""One stage runner: compute a stage's key once, reuse a fresh output or run the stage,
stamp its provenance, write it atomically, and record timing, cached/ran and warnings.

run.json is rewritten after every stage, so a crash still leaves an accurate record of
what finished.
"""

import json
import os
import platform
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel

from pipeline import __version__
from pipeline.core import source
from pipeline.core.errors import StageFailure
from pipeline.core.prompts import Prompt
from pipeline.core.store import TalkStore, sha256_bytes, sha256_file, sha256_model
from pipeline.schema import (
    ARTICLES_MADE,
    Provenance,
    RunRecord,
    StageError,
    StageOutput,
    StageRecord,
    Verdict,
)

C = TypeVar("C")
ARTICLE_FILES = ("article.zh.md", "article.en.md")  # the article stage's texts
VERSIONED_PACKAGES = (
    "faster-whisper",
    "ctranslate2",
    "openai",
    "pymupdf",
    "python-pptx",
    "prefect",
    "pydantic",
)


@dataclass(frozen=True)
class Stage(Generic[C]):
    """One row of the stage table (pipeline/stages.py)."""

    name: str
    code: str  # the module whose import closure is the stage's code
    keyed_by: tuple[str, ...] = ()  # the inputs its output depends on, besides its code
    contract: type[C] | None = None
    output: str | None = None  # its JSON file; None: not stored, runs every time (cheap)
    fatal: bool = True  # False: the talk goes on without this stage's output
    # Text files derived from the output and written beside it (e.g. SRT/VTT, Markdown).
    texts: Callable[[C], dict[str, str]] | None = None
    # Files the output names (e.g. slide pictures): a stored output is reused only with them.
    refers_to: Callable[[C], list[str]] | None = None

    def files(self, output: C) -> list[str]:
        texts = list(self.texts(output)) if self.texts else []
        return texts + (self.refers_to(output) if self.refers_to else [])


class StageFailed(Exception):
    """A fatal stage failed; it is recorded in run.json and the talk stops."""


def fingerprint(value: object) -> str:
    """A key part by content: a file, a contract (without its provenance), a prompt file;
    anything else by its JSON. Always a hash, so no input text lands in provenance."""
    if isinstance(value, Path):
        return sha256_file(value)
    if isinstance(value, BaseModel):
        return sha256_model(value)
    if isinstance(value, Prompt):
        return value.sha256
    if isinstance(value, list | tuple):
        return sha256_bytes("\n".join(fingerprint(v) for v in value).encode())
    return sha256_bytes(json.dumps(value, sort_keys=True, default=str).encode())


def provenance(stage: Stage, key: Mapping[str, object], code_root: Path) -> Provenance:
    """The record of what makes `stage`'s output; its `key` covers every field.

    `key` holds exactly the inputs the stage table names: "model" is the model id,
    prompts are recorded by id, mappings of settings value by value (readable; never pass
    a secret), the rest by fingerprint.
    """
    if set(key) != set(stage.keyed_by):
        raise ValueError(
            f"stage {stage.name} is keyed by {sorted(stage.keyed_by)}, given {sorted(key)}"
        )
    record = Provenance(stage=stage.name, code_version=source.code_version(stage.code, code_root))
    for name, value in sorted(key.items()):
        if name == "model":
            record.model = str(value)
        elif prompts := _prompts(value):
            record.prompts |= {p.id: p.sha256 for p in prompts}
        elif isinstance(value, Mapping):
            record.options |= {f"{name}.{k}": str(v) for k, v in sorted(value.items())}
        else:
            record.inputs[name] = fingerprint(value)
    record.key = sha256_bytes(record.model_dump_json(exclude={"key"}).encode())
    return record


def _prompts(value: object) -> list[Prompt]:
    """The prompts `value` is (one, or a list of them), else none."""
    items = list(value) if isinstance(value, list | tuple) else [value]
    return items if items and all(isinstance(p, Prompt) for p in items) else []


def versions() -> dict[str, str]:
    found = {"talk2article": __version__, "python": platform.python_version()}
    for name in VERSIONED_PACKAGES:
        with suppress(PackageNotFoundError):
            found[name] = version(name)
    return found


class TalkRun:
    """The stages of one talk, run in order and recorded in its run.json."""

    def __init__(self, store: TalkStore, talk: str, code_root: Path | None = None) -> None:
        self.store = store
        self.code_root = code_root or source.ROOT
        self.record = RunRecord(
            talk=talk,
            started=datetime.now(UTC),
            versions=versions(),
            pid=os.getpid(),
            previous=killed_run(store.read("run.json", RunRecord)),
        )
        self.announce: Callable[[str], None] | None = None  # told each stage as it starts
        self.save()

    def save(self) -> None:
        self.store.write("run.json", self.record)

    def run(
        self, stage: Stage[C], make: Callable[[], C], key: Mapping[str, object] | None = None
    ) -> C | None:
        """The stage's output: stored and fresh, or made by `make()` and stored.

        A failure is recorded; a fatal one ends the talk (StageFailed), a non-fatal one
        gives None so the caller goes on without this stage's output.
        """
        started = time.monotonic()
        self.record.stage = stage.name
        self.save()
        if self.announce:
            self.announce(stage.name)
        try:
            output, cached = self._reuse_or_make(stage, make, key or {})
        except Exception as err:
            self._failed(stage, started, err)
            return None
        flaws = output if isinstance(output, StageOutput) else StageOutput()
        status = "cached" if cached else "done"
        self._add(stage.name, started, status, warnings=flaws.warnings, fallbacks=flaws.fallbacks)
        return output

    def skip(self, stage: Stage) -> None:
        """The stage has nothing to work on (e.g. a talk without a deck)."""
        self._add(stage.name, time.monotonic(), "skipped")

    def finish(self, outputs: list[Path], verdict: Verdict | None = None) -> RunRecord:
        status = "partial" if self.record.errors else "succeeded"
        if status == "succeeded" and self.record.fallbacks():
            status = "fallback"
        self.record.verdict = verdict
        self.record.stage = None
        return self._end(status, [str(p) for p in outputs])

    def interrupted(self, signal_name: str) -> RunRecord:
        """Ctrl-C or a termination signal: where it stopped; what was done is kept."""
        error = StageError(
            stage=self.record.stage or "talk", message=f"interrupted ({signal_name})"
        )
        self.record.errors.append(error)
        return self._end("interrupted")

    def _reuse_or_make(
        self, stage: Stage[C], make: Callable[[], C], key: Mapping[str, object]
    ) -> tuple[C, bool]:
        """The output and whether it was reused."""
        if stage.output is None:
            output = make()
            self._write_texts(stage, output)
            return output, False
        stamp = provenance(stage, key, self.code_root)
        stored = self.store.read_fresh(stage.output, stage.contract, stamp.key)
        if stored is not None and all(self.store.path(f).exists() for f in stage.files(stored)):
            return stored, True
        output = make().model_copy(update={"provenance": stamp})
        self.store.write(stage.output, output)
        self._write_texts(stage, output)
        return output, False

    def _write_texts(self, stage: Stage[C], output: C) -> None:
        for name, text in (stage.texts(output) if stage.texts else {}).items():
            self.store.write_text(name, text)

    def _failed(self, stage: Stage, started: float, err: Exception) -> None:
        if isinstance(err, StageFailure):
            error = StageError(stage=stage.name, message=err.message, file=err.file)
        else:
            error = StageError(stage=stage.name, message=f"{type(err).__name__}: {err}")
        self._add(stage.name, started, "failed", error=error)
        if stage.fatal:
            self._end("failed")
            raise StageFailed(str(error)) from err

    def _add(
        self,
        name: str,
        started: float,
        status: str,
        error: StageError | None = None,
        warnings: Sequence[str] = (),
        fallbacks: Sequence[str] = (),
    ) -> None:
        seconds = round(time.monotonic() - started, 3)
        self.record.stages.append(
            StageRecord(
                name=name,
                status=status,
                seconds=seconds,
                error=error,
                warnings=list(warnings),
                fallbacks=list(fallbacks),
            )
        )
        if error is not None:
            self.record.errors.append(error)
        self.save()

    def _end(self, status: str, outputs: list[str] | None = None) -> RunRecord:
        self.record.status = status
        self.record.finished = datetime.now(UTC)
        self.record.outputs = outputs or []
        self.record.pid = None
        if status not in ARTICLES_MADE:
            # Articles of an earlier run must not look like this run's.
            for name in ARTICLE_FILES:
                self.store.path(name).unlink(missing_ok=True)
        self.save()
        return self.record


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def killed_run(record: RunRecord | None) -> str | None:
    """A run.json left `running` by a process that is gone was killed outright (SIGKILL,
    power loss): say so, and where, in the next run's record."""
    if record is None or record.status != "running" or (record.pid and alive(record.pid)):
        return None
    where = f" during {record.stage}" if record.stage else ""
    return f"the run started {record.started:%Y-%m-%d %H:%M:%S} UTC was killed{where}"
