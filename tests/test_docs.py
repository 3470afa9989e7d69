"""The code layout page names what is there: every path of the code it names exists (what
a run reads or writes, `inputs/`, `outputs/` and the stage table's "writes" column, is not
the code), and
every module of the shared core is named. The inputs page's table of formats is the code's."""

import re
from pathlib import Path

from pipeline.core.formats import INPUT_FORMATS, InputFormat

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = ROOT / "docs" / "layout.md"
INPUTS = ROOT / "docs" / "inputs.md"
# A row of the inputs page's table of formats: kind | `.suffix` ... | `reader`: what it reads
FORMAT_ROW = re.compile(r"^\| (recording|deck|subtitles) \| ([^|]+) \| `(\w+)`", re.MULTILINE)
# A path in backticks: a folder ("review/") or a file of code, prompts or docs ("card.py").
PATH = re.compile(r"`([\w.-]+(?:/[\w.-]+)*(?:/|\.(?:py|yaml|yml|md|toml)))`")
CODE_CELLS = 2  # a stage table row's stage and folder; the rest are its outputs and types


def blocks(text: str) -> list[str]:
    """The page's table rows and list items (a list item with its continuation lines)."""
    found: list[list[str]] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|"):
            found.append(["|".join(stripped.strip("|").split("|")[:CODE_CELLS])])
        elif not stripped:
            found.append([])
        elif stripped.startswith("- ") or not found:
            found.append([stripped])
        else:
            found[-1].append(stripped)
    return [" ".join(block) for block in found if block]


def unresolved(block: str) -> list[str]:
    """The block's paths that exist neither from the project root, nor under `pipeline/`,
    nor under a folder the block named before them."""
    folders, missing = [ROOT, ROOT / "pipeline"], []
    for name in PATH.findall(block):
        # beside the project, a maintainer's inputs, what a run writes: not the code
        if name.startswith(("..", "inputs/", "outputs/")):
            continue
        where = next(
            (folder / name for folder in reversed(folders) if (folder / name).exists()), None
        )
        if where is None:
            missing.append(name)
        elif name.endswith("/"):
            folders.append(where)
    return missing


def test_every_path_the_layout_page_names_exists():
    missing = [name for block in blocks(LAYOUT.read_text()) for name in unresolved(block)]
    assert missing == []


def test_every_module_of_the_shared_core_is_named():
    text = LAYOUT.read_text()
    modules = sorted(p.name for p in (ROOT / "pipeline" / "core").glob("*.py"))
    assert [m for m in modules if m != "__init__.py" and f"`{m}`" not in text] == []


def test_the_inputs_page_lists_exactly_the_table_of_formats():
    listed = {
        suffix: InputFormat(kind, reader)
        for kind, suffixes, reader in FORMAT_ROW.findall(INPUTS.read_text())
        for suffix in re.findall(r"`(\.\w+)`", suffixes)
    }
    assert listed == INPUT_FORMATS
