"""Everything a talk's articles depend on, as one hash: its files, the settings, the
prompts and the code. A nightly run skips a talk whose last run ended with this same
fingerprint, without loading a stage, a model or Prefect: nothing can have changed.

Files are hashed through a stat index kept in the outputs folder (.stat-index.json: path ->
size, mtime, inode, hash), so a night reads only the files whose stat changed: a thousand
unchanged talks and the code they share are not read again every night.
"""

import hashlib
import json
import time
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

from pipeline.core.replacements import heard_in, in_scope, library_corrections
from pipeline.core.source import ROOT
from pipeline.core.store import TalkStore, atomic_write_text, sha256_file
from pipeline.schema import Transcript
from pipeline.settings import Settings
from pipeline.talk import IGNORED_NAMES, deck_names, talk_slug

# Paths and secrets say where things are, not what the articles are made of.
NOT_CONTENT = {"inputs_dir", "outputs_dir", "cache_dir", "prompts_dir", "site"}
STAT_INDEX = ".stat-index.json"  # in the outputs folder: hidden, never published
# A file changed this recently may change again within its mtime's resolution without its
# stat showing it (git's "racy" files): it is hashed every time until it is older.
RACY_NS = 2_000_000_000


class StatIndex:
    """Each file's hash kept with its stat: a file whose size, mtime and inode are those
    of its last hashing is not read again."""

    def __init__(self, path: Path) -> None:
        self.path, self.changed = path, False
        try:
            self.entries: dict[str, list] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.entries = {}

    def sha256(self, file: Path) -> str:
        stat = file.stat()
        stamp = [stat.st_size, stat.st_mtime_ns, stat.st_ino]
        key = str(file.absolute())
        entry = self.entries.get(key)
        if entry is not None and entry[:3] == stamp:
            return entry[3]
        digest = sha256_file(file)
        if time.time_ns() - stat.st_mtime_ns > RACY_NS:
            self.entries[key], self.changed = [*stamp, digest], True
        return digest

    def save(self) -> None:
        """Written whole, then renamed; a lost write only costs a night some hashing."""
        if self.changed:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.path, json.dumps(self.entries))
            self.changed = False


_INDEXES: dict[Path, StatIndex] = {}


def stat_index(outputs_dir: Path) -> StatIndex:
    """The outputs folder's stat index, loaded once per process."""
    where = outputs_dir.absolute()
    if where not in _INDEXES:
        _INDEXES[where] = StatIndex(where / STAT_INDEX)
    return _INDEXES[where]


def folder_files(folder: Path) -> list[Path]:
    """The files the articles are made of (not README.md, not reviewers' decisions)."""
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and not p.name.startswith(".") and p.name not in IGNORED_NAMES
    )


def labelled(digest: "hashlib._Hash") -> Callable[[str, str], None]:
    """Adds a labelled value to `digest`, unambiguously (label and value each end in NUL)."""

    def add(label: str, value: str) -> None:
        digest.update(f"{label}\0{value}\0".encode())

    return add


def talk_fingerprint(folder: Path, settings: Settings, shared: str | None = None) -> str:
    """What the talk's articles are made of, as one hash: its files, the library's
    corrections it needs and `shared` (shared_fingerprint, computed here if not given)."""
    digest = hashlib.sha256()
    add = labelled(digest)
    hashed = stat_index(settings.outputs_dir).sha256
    for path in folder_files(folder):
        add(f"talk:{path.relative_to(folder).as_posix()}", hashed(path))
    add("corrections", listed_corrections(folder, settings))
    add("shared", shared or shared_fingerprint(settings))
    return digest.hexdigest()


def shared_fingerprint(settings: Settings) -> str:
    """What every talk's articles are made of alike: the settings, prompts and code."""
    digest = hashlib.sha256()
    add = labelled(digest)
    hashed = stat_index(settings.outputs_dir).sha256
    exclude = {name: True for name in NOT_CONTENT} | {"llm": {"api_key": True}}
    add("settings", settings.model_dump_json(exclude=exclude))
    prompts = settings.prompts_dir or Path(str(files("prompts")))
    for path in sorted(prompts.glob("*.yaml")):
        add(f"prompt:{path.name}", hashed(path))
    for path in sorted(ROOT.rglob("*.py")):
        add(f"code:{path.relative_to(ROOT).as_posix()}", hashed(path))
    return digest.hexdigest()


def listed_corrections(folder: Path, settings: Settings) -> str:
    """The library's corrections this talk needs, as text: those for it whose heard form its
    last transcript contains (all those for it before it has one). A correction of what the
    talk never said leaves its fingerprint alone; a broken corrections.yaml, whose last read
    corrections stand, changes none."""
    listed = library_corrections(settings.inputs_dir, settings.outputs_dir).corrections
    slug = talk_slug(folder, settings.inputs_dir)
    fitting = [r for r in listed if in_scope(r, slug, deck_names(folder))]
    transcript = TalkStore(settings.outputs_dir / slug).read("transcript.json", Transcript)
    fitting = heard_in(transcript, fitting) if transcript else fitting
    return "\n".join(r.model_dump_json() for r in fitting)
