"""The per-talk work folder: paths, atomic writes, content hashes, provenance."""

import fcntl
import functools
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from pipeline.core.errors import StageFailure
from pipeline.schema import StageOutput

M = TypeVar("M", bound=BaseModel)
S = TypeVar("S", bound=StageOutput)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def files_named(root: Path, name: str) -> list[Path]:
    """Every file called `name` under `root`, in path order (none if there is no root)."""
    return sorted(root.rglob(name)) if root.is_dir() else []


def update_with_files(digest: "hashlib._Hash", root: Path, name: str) -> None:
    """Feed every file called `name` under `root` to `digest`: its path there, its bytes."""
    for path in files_named(root, name):
        digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
        digest.update(path.read_bytes())


def sha256_file(path: Path) -> str:
    """Content hash, computed once per file version: several stages are keyed by the same
    recording, and a recording can be gigabytes."""
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
    """Hash of a contract's content, independent of how it was formatted on disk.

    A stage output is hashed without its provenance: when a rerun (new code) makes the
    same output, the stages after it stay fresh.
    """
    exclude = {"provenance"} if isinstance(model, StageOutput) else None
    return sha256_bytes(model.model_dump_json(exclude=exclude).encode())


def current_umask() -> int:
    """The process's umask: Linux shows it in /proc; elsewhere os.umask reads it only by
    setting it, so it is set back."""
    try:
        status = Path("/proc/self/status").read_text()
        return int(
            next(line for line in status.splitlines() if line.startswith("Umask:")).split()[1], 8
        )
    except (OSError, StopIteration, ValueError, IndexError):
        mask = os.umask(0o022)
        os.umask(mask)
        return mask


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write to a temp file beside `path`, then rename: readers never see half a file. The
    file gets the mode a plain open() would give it (0666 less the umask), not mkstemp's 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def read_contract(path: Path, cls: type[M]) -> M | None:
    """The stored contract, or None when missing or written by an incompatible version."""
    try:
        return cls.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


class TalkStore:
    """Files of one talk under outputs/<slug>/."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @contextmanager
    def lock(self) -> Iterator[None]:
        """This talk's outputs for this process alone: a second run on the same outputs
        refuses at once instead of interleaving writes (the lock dies with its process)."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "a+", encoding="utf-8") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.seek(0)
                holder = handle.read().strip() or "?"
                raise StageFailure(
                    f"another run (pid {holder}) is working on this talk; "
                    "try again when it has finished",
                    self.root,
                ) from None
            handle.truncate(0)
            handle.write(str(os.getpid()))
            handle.flush()
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

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
        return read_contract(self.path(name), cls)

    def read_fresh(self, name: str, cls: type[S], key: str) -> S | None:
        """The stored output only if its provenance key matches `key` (exact rerun)."""
        stored = self.read(name, cls)
        if stored is None or stored.provenance is None:
            return None
        return stored if stored.provenance.key == key else None

    def keep(self, names: Iterable[str], into: str) -> Path:
        """A copy of the named files (those that exist) that later writes leave as it is:
        hard links (each write here makes a new file) in a new folder, then `into`, a link
        to that folder, replaced in one rename. The copy it replaces stays until the next
        keep, for readers that resolved the link before; older ones are removed."""
        folder = Path(tempfile.mkdtemp(dir=self.root, prefix=f"{into}-"))
        os.chmod(folder, 0o777 & ~current_umask())  # mkdtemp's 0700 would hide it from others
        for name in names:
            if (source := self.path(name)).is_file():
                target = folder / name
                target.parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.link(source, target)
                except OSError:  # a file system without hard links
                    shutil.copy2(source, target)
        link = self.path(into)
        previous = self.path(os.readlink(link)) if link.is_symlink() else None
        swap = self.path(f"{into}.link.tmp")
        swap.unlink(missing_ok=True)
        swap.symlink_to(folder.name)
        os.replace(swap, link)
        for old in self.root.glob(f"{into}-*"):
            if old not in (folder, previous):
                shutil.rmtree(old, ignore_errors=True)
        return link

    def append_jsonl(self, name: str, record: dict) -> None:
        # Appends of one short line are atomic enough for a log; it is never re-parsed as state.
        target = self.path(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")


def talk_outputs(outputs_dir: Path, skip: Path | None = None) -> dict[str, Path]:
    """slug -> outputs folder of every talk that has run (a run.json), in path order;
    hidden folders (benchmark and eval runs) and the folder `skip` (the site) are none."""
    found = {}
    for run_file in sorted(outputs_dir.rglob("run.json")):
        folder = run_file.parent
        hidden = any(part.startswith(".") for part in folder.relative_to(outputs_dir).parts)
        if not hidden and not (skip and folder.resolve().is_relative_to(skip.resolve())):
            found[folder.relative_to(outputs_dir).as_posix()] = folder
    return found
