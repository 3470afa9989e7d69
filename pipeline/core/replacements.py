"""The library's corrections of what the recogniser hears (inputs/corrections.yaml): a heard
form and the right one, for every talk, or only a talk or the talks of a deck. Speech tools
keep such a replacement list; a recogniser that hears a product name as two common words
does it in every talk that says it. A correction applies to a transcript before evidence
is made from it, and is recorded with the talk's other corrections; a talk whose transcript
does not contain the heard form is not touched (its fingerprint does not change).
"""

from pathlib import Path

from pipeline.core.text import term_pattern
from pipeline.core.yamlfile import read_yaml
from pipeline.schema import Correction, Transcript
from pipeline.schema.transcript import Replacement, Replacements

CORRECTIONS_FILE = "corrections.yaml"


def read_replacements(inputs_dir: Path) -> list[Replacement]:
    """The library's corrections; StageFailure naming corrections.yaml when it is broken."""
    path = inputs_dir / CORRECTIONS_FILE
    return read_yaml(path, Replacements, {}).corrections if path.is_file() else []


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
