"""The shared core and the contracts sit below the stages: nothing in `pipeline/core/` or
`pipeline/schema/` imports a stage, the library layer, the LLM client or the assembly
beside them (`pipeline/settings.py`, `stages.py`, ...), at module level or inside a
function. The LLM package sits on them alone: it takes its own options (LLMSetup), not
the settings of every stage."""

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


def imports_outside(package: str, allowed: tuple[str, ...]) -> list[str]:
    """Each import, in pipeline/<package>/, of a pipeline module outside the `allowed` ones."""
    return sorted(
        f"{path.relative_to(PIPELINE)} imports {name}"
        for path in (PIPELINE / package).rglob("*.py")
        for name in imported(path)
        if name != "pipeline"  # the package itself: its version, nothing else
        and name.split(".")[1] not in allowed
    )


def test_core_and_schema_import_nothing_above_them():
    assert [line for below in BELOW for line in imports_outside(below, BELOW)] == []


def test_the_llm_package_imports_neither_the_settings_nor_a_stage():
    assert imports_outside("llm", (*BELOW, "llm")) == []
