"""What the on-screen correction reads speech by: its words, whether one is English,
and the record of a correction made."""

import re

from rapidfuzz import fuzz
from wordfreq import zipf_frequency

from pipeline.schema import Correction
from pipeline.transcript.corrections import COMMON_WORD, squash

# A word as recognition writes it: letters and digits, joined by hyphens or dots ("FP8",
# "KV-K2", "v0.2"); an apostrophe's "s" is left apart. Begun inside a token too ("B" of
# "8B"), so a slide's "8B" makes a heard "B" known: with deck/vocabulary.WORD's start,
# mlcengine's "1-B model" is doubted and left out.
WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*")
RUN_GAP = re.compile(r"[ -]")  # the words of a run are apart by a space or a hyphen only


def is_english(word: str) -> bool:
    """An English word, or words joined by hyphens that each are ("low-overhead"); wordfreq
    scores "sg-lane" by its parts, so a hyphenated word is judged part by part."""
    parts = [part for part in word.lower().split("-") if part]
    if len(parts) == 1:
        return zipf_frequency(parts[0], "en") >= COMMON_WORD
    # "sg" is common as an abbreviation: a part of a compound must be a word of its own
    return all(len(p) >= 3 and zipf_frequency(p, "en") >= COMMON_WORD for p in parts)


def digits(word: str) -> str:
    return re.sub(r"\D", "", word)


def correction(start: float, heard: str, shown: str, slide: int) -> Correction:
    score = round(fuzz.ratio(squash(heard), squash(shown)), 1)
    return Correction(start=start, original=heard, corrected=shown, score=score, slide=slide)
