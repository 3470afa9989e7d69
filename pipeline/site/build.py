"""Writing the site's docs/ folder and building it with MkDocs, whole or only what changed.

A docs/ file is rewritten only when its text differs, so an unchanged page keeps its
modification time. MkDocs renders every page on each build, minutes at a thousand
articles; when the project is the one the last build used (`project_key`: mkdocs.yml, the
theme's templates and styles, the MkDocs packages) and no page is gone, `mkdocs build
--dirty` renders only the pages whose docs/ file is newer than their HTML, and the search
index keeps the other pages' entries. The navigation lists sections, not talks' pages, so
a talk's change leaves mkdocs.yml as it was.
"""

import hashlib
import json
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from pipeline.core.errors import StageFailure
from pipeline.core.store import atomic_write_text

# What a page's HTML depends on besides its own docs/ file, as the packages name it.
PACKAGES = ("mkdocs", "mkdocs-material", "mkdocs-static-i18n")
SEARCH_INDEX = Path("search/search_index.json")


def update_docs(docs: Path, pages: dict[str, str], files: dict[str, Path]) -> list[str]:
    """`docs` holding exactly `pages` (name -> Markdown) and `files` (name -> source, copied
    with its modification time); what is written is written whole. The pages new, changed
    or gone, by name."""
    before = {p.relative_to(docs).as_posix() for p in docs.rglob("*") if p.is_file()}
    changed = []
    for name, text in pages.items():
        if name not in before or (docs / name).read_text(encoding="utf-8") != text:
            atomic_write_text(docs / name, text)
            changed.append(name)
    for name, source in files.items():
        if name not in before or stamp(docs / name) != stamp(source):
            (docs / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, docs / name)
    gone = before - set(pages) - set(files)
    for name in gone:
        (docs / name).unlink()
    return sorted([*changed, *(n for n in gone if n.endswith(".md"))])


def stamp(path: Path) -> tuple[int, int]:
    """Size and modification time: a copy made with copy2 has its source's."""
    found = path.stat()
    return found.st_size, found.st_mtime_ns


def project_key(site_dir: Path, theme: str) -> str:
    """A hash of what every page's HTML depends on but its own docs/ file: mkdocs.yml, the
    theme overrides, the stylesheets and the MkDocs packages' versions."""
    digest = hashlib.sha256((site_dir / "mkdocs.yml").read_bytes())
    for folder in (site_dir / theme, site_dir / "docs" / "stylesheets"):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(path.relative_to(site_dir).as_posix().encode() + path.read_bytes())
    digest.update(" ".join(version(p) for p in PACKAGES).encode())
    return digest.hexdigest()


def run_mkdocs(site_dir: Path, dirty: bool) -> None:
    """`mkdocs build --strict` in `site_dir`: only the changed pages if `dirty`, else the
    whole site into a cleaned public/ (also when public/ lacks its index page or search
    index). A warning fails the build, naming mkdocs.yml."""
    index = site_dir / "public" / SEARCH_INDEX
    dirty = dirty and index.is_file() and (site_dir / "public" / "index.html").is_file()
    before = json.loads(index.read_text(encoding="utf-8")) if dirty else None
    command = [sys.executable, "-m", "pipeline.site.mkdocs_build", "build", "--strict"]
    command += ["--quiet", "--dirty" if dirty else "--clean"]
    done = subprocess.run(command, cwd=site_dir, capture_output=True, text=True)
    if done.returncode != 0:
        problem = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise StageFailure(f"mkdocs build failed: {' | '.join(problem)}", site_dir / "mkdocs.yml")
    if before is not None:
        after = json.loads(index.read_text(encoding="utf-8"))
        atomic_write_text(index, json.dumps(merged_index(before, after), ensure_ascii=False))


def merged_index(before: dict, after: dict) -> dict:
    """The search index of a dirty build (the rebuilt pages' entries alone) with the entries
    of every other page from the index before it."""
    rebuilt = {entry["location"].split("#")[0] for entry in after["docs"]}
    kept = [e for e in before["docs"] if e["location"].split("#")[0] not in rebuilt]
    return {**after, "docs": kept + after["docs"]}
