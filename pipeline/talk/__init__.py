"""The talk stage: classify the files of a talk folder (a recording and/or subtitles,
decks, talk.yaml), and find the talk folders under inputs/.

Subtitles alone are a talk: a maintainer may have a video's subtitles without the video."""

from pathlib import Path

from pipeline.core.errors import StageFailure
from pipeline.core.formats import Kind, accepted, input_kind
from pipeline.core.replacements import in_scope
from pipeline.core.yamlfile import read_yaml
from pipeline.schema import Talk, TalkMeta
from pipeline.schema.transcript import Replacement

META_NAMES = {"talk.yaml", "talk.yml"}
# Not inputs of the articles: notes for people, reviewers' decisions on the articles, and
# the file that makes a folder of talks one meetup (pipeline.library.hubs).
IGNORED_NAMES = {"README.md", "readme.md", "PROVENANCE.md", "decisions.yaml", "meetup.yaml"}
# The reviewers' edits of the article (pipeline.edits): an input of the article, read
# after the ledger, not a file of the talk itself.
EDITS_FILE = "edits.yaml"
MAX_META_BYTES = 64 * 1024
# A talk's pages are articles/<its path>.md (and qa/, proof/, assets/): a part `index` would
# take the page of the folder above it or the list itself; a language suffix (.en) would make
# a page the English of another. Its outputs are outputs/<its path>: site/ and evals/ there
# are the site and the dashboard.
CLASHING_NAMES = {"index"}
OUTPUTS_NAMES = {"site", "evals"}
LANGUAGE_SUFFIXES = (".en", ".zh")


def read_meta(path: Path) -> TalkMeta:
    return read_yaml(path, TalkMeta, {}, MAX_META_BYTES)


def inside(path: Path, folder: Path) -> bool:
    """Whether the file a talk folder lists is really in it: a symlink may point anywhere
    (talk.yaml -> /etc/passwd), and its target would be read and echoed in errors."""
    return path.resolve().is_relative_to(folder.resolve())


def refuse_reserved(folder: Path, slug: str) -> None:
    """StageFailure naming the folder when its path under inputs/ (`slug`) has a name whose
    pages or outputs would take the site's own or another talk's."""
    parts = slug.split("/")
    for n, name in enumerate(parts):
        lower = name.lower()
        if (
            lower in CLASHING_NAMES
            or (n == 0 and lower in OUTPUTS_NAMES)
            or name.startswith(".")
            or lower.endswith(LANGUAGE_SUFFIXES)
        ):
            raise StageFailure(
                f"a talk folder cannot be called {name!r}: the site and the outputs folder "
                "use 'index' anywhere and 'site' and 'evals' at the top, and names starting "
                "with '.' or ending in .en or .zh would clash; rename the folder",
                folder,
            )


def deck_names(folder: Path) -> list[str]:
    """The file names of the decks in a talk folder."""
    return [p.name for p in folder.iterdir() if input_kind(p) == "deck"]


def classify(folder: Path) -> tuple[dict[Kind, list[Path]], TalkMeta]:
    """The talk folder's files by the kind of input the table of formats
    (pipeline.core.formats) gives their suffix, and its talk.yaml; StageFailure naming a file
    of no kind, with the suffixes the table accepts."""
    files: dict[Kind, list[Path]] = {"recording": [], "deck": [], "subtitles": []}
    meta = TalkMeta()
    for path in sorted(folder.iterdir()):
        name, kind = path.name, input_kind(path)
        if name.startswith(".") or name in {*IGNORED_NAMES, EDITS_FILE} or path.is_dir():
            continue
        if not inside(path, folder):
            raise StageFailure(
                "is a link to a file outside the talk folder; copy the file in", path
            )
        if kind:
            files[kind].append(path)
        elif name in META_NAMES:
            meta = read_meta(path)
        else:
            raise StageFailure(
                f"unsupported file type '{path.suffix.lower() or name}'; expected "
                f"{accepted()} or talk.yaml",
                path,
            )
    return files, meta


def read_talk(folder: Path, slug: str, listed: list[Replacement] | None = None) -> Talk:
    """Find the recording, the decks and the metadata of one talk, and those of the
    library's corrections (`listed`) that are for it; refuse what is unclear. `slug` names
    the talk in outputs/ (see talk_slug)."""
    if not folder.is_dir():
        raise StageFailure("talk folder does not exist", folder)
    files, meta = classify(folder)
    media, decks, subtitles = files["recording"], files["deck"], files["subtitles"]
    if not media and not subtitles:
        raise StageFailure("no recording (video or audio file) and no subtitles found", folder)
    if len(media) > 1:
        names = ", ".join(p.name for p in media)
        raise StageFailure(f"more than one recording ({names}); keep one", folder)
    if len(subtitles) > 1:
        names = ", ".join(p.name for p in subtitles)
        raise StageFailure(f"more than one subtitle file ({names}); keep one", folder)
    return Talk(
        slug=slug,
        folder=folder,
        media=media[0] if media else None,
        decks=decks,
        subtitles=subtitles[0] if subtitles else None,
        meta=meta,
        corrections=[r for r in listed or [] if in_scope(r, slug, [d.name for d in decks])],
    )


def talk_slug(folder: Path, inputs_dir: Path) -> str:
    """The talk's path under inputs/ (`examples/kv-cache-serving`), so two talks with the
    same folder name in different places never share an outputs folder; the folder name for
    a talk outside inputs/."""
    folder, inputs_dir = folder.resolve(), inputs_dir.resolve()
    if folder.is_relative_to(inputs_dir) and folder != inputs_dir:
        return folder.relative_to(inputs_dir).as_posix()
    return folder.name


def talk_origin(folder: Path, inputs_dir: Path) -> str:
    """Which talk folder an outputs folder belongs to: its path under inputs/, or the
    absolute path of a folder outside, where two talks can share a folder name."""
    folder, inputs_dir = folder.resolve(), inputs_dir.resolve()
    if folder.is_relative_to(inputs_dir) and folder != inputs_dir:
        return f"inputs/{folder.relative_to(inputs_dir).as_posix()}"
    return str(folder)


def input_folder(origin: str, inputs_dir: Path) -> Path:
    """The talk folder a talk_origin names."""
    under = origin.removeprefix("inputs/")
    return inputs_dir / under if under != origin else Path(origin)


def discover_talks(inputs_dir: Path, outputs_dir: Path | None = None) -> list[Path]:
    """Every talk folder under inputs/: a folder holding files, at any depth; hidden folders
    and an outputs folder kept inside inputs/ are not talks. StageFailure naming inputs/
    when it does not exist or holds no talk: a mistyped folder must not look like a
    library whose talks are all gone."""
    if not inputs_dir.is_dir():
        raise StageFailure(f"inputs folder {inputs_dir} does not exist")
    skip = outputs_dir.resolve() if outputs_dir else None
    talks = []
    for folder in sorted(p for p in inputs_dir.rglob("*") if p.is_dir()):
        if any(part.startswith(".") for part in folder.relative_to(inputs_dir).parts):
            continue
        if skip and folder.resolve().is_relative_to(skip):
            continue
        if any(
            child.is_file() and not child.name.startswith(".") and child.name not in IGNORED_NAMES
            for child in folder.iterdir()
        ):
            talks.append(folder)
    if not talks:
        raise StageFailure(f"inputs folder {inputs_dir} holds no talk folder")
    return talks
