"""Post-ASR correction against the glossary and deck terms, each change recorded.

Whisper hears names it does not know as ordinary words ("Page detention" for
PagedAttention, "continuous matching" for continuous batching). A run of words whose
letters nearly spell a known term is replaced by the term.
"""

import re

from rapidfuzz import fuzz

from pipeline.schema import Correction, Segment

MIN_TERM_CHARS = 6  # shorter terms (GPU, KV) match too many ordinary words
SIMILARITY = 88
TRAILING_PUNCTUATION = re.compile(r"[.,;:!?)\]]+$")


def squash(text: str) -> str:
    """Letters and digits only, lower case: 'Paged-Attention' == 'paged attention'."""
    return re.sub(r"[^0-9a-z]", "", text.lower())


def best_match(tokens: list[str], terms: list[str]) -> tuple[int, str, float] | None:
    """The term that the words starting at tokens[0] nearly spell: (width, term, score)."""
    best = None
    for term in terms:
        width_of_term = len(term.split())
        for width in {max(1, width_of_term - 1), width_of_term, width_of_term + 1}:
            if width > len(tokens):
                continue
            core = TRAILING_PUNCTUATION.sub("", " ".join(tokens[:width]))
            if squash(core) == squash(term):
                return None  # already right (spacing or hyphens aside)
            if squash(term) in squash(core):
                continue  # the right spelling is inside this window; a neighbour is extra
            score = fuzz.ratio(squash(core), squash(term))
            if score >= SIMILARITY and (best is None or score > best[2]):
                best = (width, term, score)
    return best


def correct_segment(segment: Segment, terms: list[str]) -> tuple[Segment, list[Correction]]:
    tokens, out, corrections, i = segment.text.split(), [], [], 0
    while i < len(tokens):
        match = best_match(tokens[i:], terms)
        if match is None:
            out.append(tokens[i])
            i += 1
            continue
        width, term, score = match
        original = " ".join(tokens[i : i + width])
        trailing = TRAILING_PUNCTUATION.search(original)
        out.append(term + (trailing.group() if trailing else ""))
        corrections.append(
            Correction(
                start=segment.start, original=original, corrected=term, score=round(score, 1)
            )
        )
        i += width
    return segment.model_copy(update={"text": " ".join(out)}), corrections


def correct_terms(
    segments: list[Segment], terms: list[str]
) -> tuple[list[Segment], list[Correction]]:
    """Apply term corrections to every segment's text; words keep what was recognised."""
    candidates = [t for t in terms if len(squash(t)) >= MIN_TERM_CHARS]
    corrected, log = [], []
    for segment in segments:
        fixed, changes = correct_segment(segment, candidates) if candidates else (segment, [])
        corrected.append(fixed)
        log += changes
    return corrected, log
