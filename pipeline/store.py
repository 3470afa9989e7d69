"""The per-talk work folder: paths, atomic writes, content hashes, provenance."""

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from pipeline import __version__
from pipeline.schema import Provenance

M = TypeVar("M", bound=BaseModel)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    """Content hash, computed once per file version: a run checks a stage's cache key and
    then records the same provenance, and a recording can be gigabytes."""
    stat = path.stat()
    return _sha256_file_version(str(path.resolve()), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _sha256_file_version(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def sha256_model(model: BaseModel) -> str:
    """Hash of a contract's content, independent of how it was formatted on disk."""
    return sha256_bytes(model.model_dump_json().encode())


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write to a temp file beside `path`, then rename: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


@functools.cache
def code_version() -> str:
    """Package version plus a hash of the pipeline's source, so a code change invalidates
    stored outputs instead of silently reusing them (prompts are hashed separately)."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"


def provenance(
    stage: str,
    inputs: dict[str, str],
    model: str | None = None,
    prompts: dict[str, str] | None = None,
    options: dict[str, str] | None = None,
) -> Provenance:
    """Build a provenance record whose key covers every field that affects the output."""
    record = Provenance(
        stage=stage,
        code_version=code_version(),
        inputs=inputs,
        model=model,
        prompts=prompts or {},
        options=options or {},
    )
    record.key = sha256_bytes(record.model_dump_json(exclude={"key"}).encode())
    return record


class TalkStore:
    """Files of one talk under outputs/<slug>/."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, name: str) -> Path:
        return self.root / name

    def write(self, name: str, model: BaseModel) -> Path:
        target = self.path(name)
        atomic_write_text(target, model.model_dump_json(indent=2) + "\n")
        return target

    def write_text(self, name: str, text: str) -> Path:
        target = self.path(name)
        atomic_write_text(target, text)
        return target

    def read(self, name: str, cls: type[M]) -> M | None:
        """The stored contract, or None when missing or written by an incompatible version."""
        target = self.path(name)
        if not target.exists():
            return None
        try:
            return cls.model_validate_json(target.read_text(encoding="utf-8"))
        except ValueError:
            return None

    def read_fresh(self, name: str, cls: type[M], key: str) -> M | None:
        """The stored contract only if its provenance key matches `key` (exact rerun)."""
        stored = self.read(name, cls)
        if stored is None or getattr(stored, "provenance", None) is None:
            return None
        return stored if stored.provenance.key == key else None

    def append_jsonl(self, name: str, record: dict) -> None:
        # Appends of one short line are atomic enough for a log; it is never re-parsed as state.
        target = self.path(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
