"""The YAML files people write (talk.yaml, meetup.yaml, decisions.yaml, the topic and path
lists), read into their contracts: every flaw is a StageFailure that names the file and
the field, never a traceback and never the values (they may be anything at all)."""

from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any, TypeVar

import filelock
import yaml
from pydantic import BaseModel, TypeAdapter, ValidationError

from pipeline.core.errors import StageFailure
from pipeline.core.store import atomic_write_text, read_contract

TIMESTAMP = "tag:yaml.org,2002:timestamp"
# A settings file a person writes is a few KB; this keeps a huge one out of every prompt.
MAX_BYTES = 256 * 1024
MAX_PROBLEMS = 3  # field errors named in one message
# How long a reviewer's command waits for another one writing the same file.
LOCK_SECONDS = 30
T = TypeVar("T")
C = TypeVar("C", bound=BaseModel)


class TextDatesLoader(yaml.SafeLoader):
    """Safe YAML whose dates stay text for the contract to parse: an impossible date
    (2026-13-45) is then a field's error, not an exception inside the YAML library."""


TextDatesLoader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != TIMESTAMP]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def field_problems(err: ValidationError, name: str) -> str:
    """'date: Input should be a valid date …; order.2: …' (locations and reasons only)."""
    problems = [
        f"{'.'.join(map(str, e['loc'])) or name}: {e['msg']}"
        for e in err.errors(include_url=False)[:MAX_PROBLEMS]
    ]
    more = err.error_count() - MAX_PROBLEMS
    return "; ".join(problems) + (f" (and {more} more)" if more > 0 else "")


def load_yaml(path: Path, max_bytes: int = MAX_BYTES) -> Any:
    """The file's YAML data; StageFailure naming the file when it is too big, unreadable
    or not YAML text."""
    try:
        if path.stat().st_size > max_bytes:
            raise StageFailure(f"{path.name} is larger than {max_bytes // 1024} KB", path)
        return yaml.load(path.read_text(encoding="utf-8"), Loader=TextDatesLoader)
    except OSError as err:
        raise StageFailure(f"{path.name} cannot be read: {err.strerror}", path) from err
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError) as err:
        mark = getattr(err, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise StageFailure(f"{path.name} is not valid YAML text{where}", path) from err


def read_yaml(path: Path, shape: type[T], empty: Any = None, max_bytes: int = MAX_BYTES) -> T:
    """The file validated as `shape` (a contract, or a type such as list[Topic]); an empty
    file is `empty`."""
    data = load_yaml(path, max_bytes)
    try:
        return TypeAdapter(shape).validate_python(empty if data is None else data)
    except ValidationError as err:
        problems = field_problems(err, path.name)
        raise StageFailure(f"{path.name} is not valid: {problems}", path) from err


def write_yaml(path: Path, contract: BaseModel) -> Path:
    """A contract as the YAML file people read and edit (written whole, then renamed)."""
    text = yaml.safe_dump(contract.model_dump(mode="json"), allow_unicode=True, sort_keys=False)
    atomic_write_text(path, text)
    return path


def update_yaml(
    path: Path, shape: type[C], change: Callable[[C], C], max_bytes: int = MAX_BYTES
) -> Path:
    """Read the file as `shape` (missing: empty), `change` it and write it back whole, all
    under a lock beside it, so that two commands at once never lose one's change."""
    lock = filelock.FileLock(path.with_name(f".{path.name}.lock"), timeout=LOCK_SECONDS)
    try:
        with lock:
            current = read_yaml(path, shape, {}, max_bytes) if path.is_file() else shape()
            return write_yaml(path, change(current))
    except filelock.Timeout as err:
        raise StageFailure(
            f"{path.name} is being written by another command; try again", path
        ) from err


def read_or_last_read(
    path: Path, shape: type[C], kept: Path
) -> tuple[C | None, StageFailure | None]:
    """The file as `shape` (None when there is none) and, when it is broken, the contract
    last read from it instead, with why. Every good read refreshes that copy (`kept`, a JSON
    file), a missing file removes it; best effort: where it cannot be written, a broken
    file has no copy to fall back on. Broken with no copy: StageFailure."""
    if not path.is_file():
        if path.parent.is_dir():  # a missing folder says nothing of the file
            with suppress(OSError):
                kept.unlink(missing_ok=True)
        return None, None
    try:
        read = read_yaml(path, shape, {})
    except StageFailure as err:
        if (last := read_contract(kept, shape)) is None:
            raise
        return last, err
    if read_contract(kept, shape) != read:
        with suppress(OSError):
            atomic_write_text(kept, read.model_dump_json(indent=2))
    return read, None
