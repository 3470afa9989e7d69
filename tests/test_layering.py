"""The shared core and the contracts sit below the stages: nothing in `pipeline/core/` or
`pipeline/schema/` imports a stage, the library layer, the LLM client or the assembly
beside them (`pipeline/settings.py`, `stages.py`, ...), at module level or inside a
function."""

import ast
from pathlib import Path

PIPELINE = Path(__file__).resolve().parent.parent / "pipeline"
BELOW = ("core", "schema")


def imported(module: Path) -> set[str]:
    """The `pipeline.*` modules a file imports, wherever the import stands."""
    found = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return {name for name in found if name.split(".")[0] == "pipeline"}


def test_core_and_schema_import_nothing_above_them():
    upward = {
        f"{path.relative_to(PIPELINE)} imports {name}"
        for below in BELOW
        for path in (PIPELINE / below).rglob("*.py")
        for name in imported(path)
        if name != "pipeline"  # the package itself: its version, nothing else
        and name.split(".")[1] not in BELOW
    }
    assert sorted(upward) == []
