"""The library's corrections of what the recogniser hears (inputs/corrections.yaml): a heard
form and the right one, for every talk, or only a talk or the talks of a deck. Speech tools
keep such a replacement list; a recogniser that hears a product name as two common words
does it in every talk that says it. A correction applies to a transcript before evidence
is made from it, and is recorded with the talk's other corrections; a talk whose transcript
does not contain the heard form is not touched (its fingerprint does not change).
"""

from dataclasses import dataclass
from pathlib import Path

from pipeline.core.errors import StageFailure
from pipeline.core.text import term_pattern
from pipeline.core.yamlfile import read_or_last_read, read_yaml
from pipeline.schema import Correction, Transcript
from pipeline.schema.transcript import Replacement, Replacements

CORRECTIONS_FILE = "corrections.yaml"
LAST_READ = ".corrections.json"  # in the outputs folder: the corrections last read


def read_replacements(inputs_dir: Path) -> list[Replacement]:
    """The library's corrections; StageFailure naming corrections.yaml when it is broken."""
    path = inputs_dir / CORRECTIONS_FILE
    return read_yaml(path, Replacements, {}).corrections if path.is_file() else []


@dataclass(frozen=True)
class LibraryCorrections:
    """The corrections every talk runs with, and why they are not the file's, if not."""

    corrections: list[Replacement]
    problem: StageFailure | None = None

    def warning(self) -> str | None:
        if self.problem is None:
            return None
        kept = len(self.corrections)
        instead = f"the {kept} corrections last read from it" if kept else "no corrections"
        return f"{self.problem}; the talks run with {instead} until it is fixed"


def library_corrections(inputs_dir: Path, outputs_dir: Path) -> LibraryCorrections:
    """inputs/corrections.yaml, or when it is broken the corrections last read from it
    (kept in the outputs folder), or none: a typo there never fails a talk."""
    path, kept = inputs_dir / CORRECTIONS_FILE, outputs_dir / LAST_READ
    try:
        read, problem = read_or_last_read(path, Replacements, kept)
    except StageFailure as err:
        return LibraryCorrections([], err)
    return LibraryCorrections(read.corrections if read else [], problem)


def unmatched(replacements: list[Replacement], talks: dict[str, list[str]]) -> list[str]:
    """Warnings for the corrections scoped to a talk or deck that no talk has
    (`talks`: each talk's path under inputs/ -> its decks' file names)."""
    decks = {deck for names in talks.values() for deck in names}
    found = []
    for r in replacements:
        if r.talk is not None and r.talk.strip("/") not in talks:
            found.append(
                f"{CORRECTIONS_FILE}: the correction of {r.heard!r} is for talk "
                f"{r.talk!r}, which is no talk folder; it is applied nowhere"
            )
        elif r.deck is not None and r.deck not in decks:
            found.append(
                f"{CORRECTIONS_FILE}: the correction of {r.heard!r} is for deck "
                f"{r.deck!r}, which no talk has; it is applied nowhere"
            )
    return found


def in_scope(replacement: Replacement, slug: str, decks: list[str]) -> bool:
    """Whether a correction is for this talk (its path under inputs/, its decks' names)."""
    talk_fits = replacement.talk is None or replacement.talk.strip("/") == slug
    return talk_fits and (replacement.deck is None or replacement.deck in decks)


def heard_in(transcript: Transcript, replacements: list[Replacement]) -> list[Replacement]:
    """The corrections whose heard form the transcript contains (as a word, in any case)."""
    text = "\n".join(segment.text for segment in transcript.segments)
    return [r for r in replacements if term_pattern(r.heard).search(text)]


def replaced(
    transcript: Transcript, replacements: list[Replacement]
) -> tuple[Transcript, list[Correction]]:
    """The transcript with every heard form written right, and a record of each change."""
    segments, made = [], []
    for segment in transcript.segments:
        text = segment.text
        for replacement in replacements:
            pattern = term_pattern(replacement.heard)
            made += [
                Correction(
                    start=segment.start,
                    original=match.group(),
                    corrected=replacement.right,
                    score=100.0,
                    listed=True,
                )
                for match in pattern.finditer(text)
            ]
            text = pattern.sub(lambda _, right=replacement.right: right, text)
        segments.append(segment.model_copy(update={"text": text}))
    return transcript.model_copy(update={"segments": segments}), made
