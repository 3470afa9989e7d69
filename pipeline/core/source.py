"""The code a stage runs: its module and every `pipeline` module it imports, transitively.

A stage's cache key includes a hash of exactly these files, so editing the typesetting
code reruns typesetting only, not Whisper or the LLM. Imports are read from the source
(ast), not from what happens to be loaded, so the answer is the same in every process.
"""

import ast
import functools
import hashlib
from pathlib import Path

from pipeline import __version__

PACKAGE = "pipeline"
ROOT = Path(__file__).resolve().parents[1]  # the pipeline package


def module_file(module: str, root: Path) -> Path | None:
    """`pipeline.a.b` -> root/a/b.py or root/a/b/__init__.py (None: not a module)."""
    parts = module.split(".")[1:]
    if not parts:
        return None  # the package's own __init__ holds only the version, hashed anyway
    base = root.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    package = module if is_package else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


@functools.lru_cache(maxsize=1024)
def _imports(path: Path, module: str, mtime_ns: int, size: int) -> frozenset[str]:
    """Every module named by an import in `path`, functions' own imports included."""
    tree = ast.parse(path.read_bytes(), filename=str(path))
    is_package = path.name == "__init__.py"
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, is_package)
            # `from pipeline.deck import pdf` names a module; `... import read_deck` does not,
            # and module_file() tells them apart.
            named |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
    return frozenset(m for m in named if m.startswith(PACKAGE + "."))


def closure(entry: str, root: Path = ROOT) -> dict[str, Path]:
    """`entry` and every pipeline module it imports, directly or not: name -> file."""
    found: dict[str, Path] = {}
    pending = [entry]
    while pending:
        module = pending.pop()
        path = module_file(module, root)
        if module in found or path is None:
            continue
        found[module] = path
        stat = path.stat()
        pending += _imports(path, module, stat.st_mtime_ns, stat.st_size)
    return found


def code_version(entry: str, root: Path = ROOT) -> str:
    """Package version plus a hash of the code `entry` runs."""
    digest = hashlib.sha256()
    for module, path in sorted(closure(entry, root).items()):
        digest.update(module.encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{__version__}+{digest.hexdigest()[:12]}"
