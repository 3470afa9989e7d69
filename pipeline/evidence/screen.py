"""The slide on screen corrects the speech: a short name Whisper heard as a near-miss
("FD8" while the slide shows FP8, "VRL" for veRL) takes the slide's spelling.

The transcript's own corrections (pipeline/transcript/corrections.py) work against the
whole deck. They leave names under six letters alone, because short names nearly spell
too many words. Here the slide shown at that moment narrows the candidates to a handful,
so a short name may be corrected, under rules that put precision first:

- the heard word is no English word (a hyphenated one is judged part by part: "sg-lane"
  is none), and it is not a term of the deck anywhere;
- the slide's name starts with the same letter, keeps the same digits, is at most one
  letter longer or shorter, and its letters are close (rapidfuzz ratio);
- numbers are never corrected: "120" may be wrong for 128, but it may also be right.
"""

import re

from rapidfuzz import fuzz
from wordfreq import zipf_frequency

from pipeline.schema import Correction
from pipeline.text import TECHNICAL
from pipeline.transcript.corrections import COMMON_WORD, squash

WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*")
MIN_RATIO = 66  # "fd8" / "fp8" (one letter of three) is 66.7
NAME_MIN_CHARS = 3


def slide_names(text: str) -> set[str]:
    """The names a slide shows: words of technical spelling (FP8, veRL, AReaL, kimi-k2)."""
    return {
        w for w in WORD.findall(text) if TECHNICAL.search(w) and len(squash(w)) >= NAME_MIN_CHARS
    }


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


def stands_for(heard: str, name: str) -> bool:
    said, shown = squash(heard), squash(name)
    return (
        said.removesuffix("s") != shown.removesuffix("s")  # "GPUs" is the slide's "GPU"
        and said[:1] == shown[:1]
        and digits(said) == digits(shown)
        and abs(len(said) - len(shown)) <= 1
        and fuzz.ratio(said, shown) >= MIN_RATIO
    )


def correct_on_screen(
    text: str, start: float, slide: int, shown: str, deck_terms: set[str]
) -> tuple[str, list[Correction]]:
    """`text` (one unit's speech) with the near-misses of the names on `shown` (the text
    of slide `slide`, on screen) replaced, and the corrections made."""
    names = slide_names(shown)
    known = {squash(t) for t in deck_terms} | {squash(n) for n in names}
    corrections: list[Correction] = []

    def replace(match: re.Match) -> str:
        heard = match.group()
        if squash(heard) in known or heard.isdigit() or is_english(heard):
            return heard
        candidates = [n for n in names if stands_for(heard, n)]
        if len(candidates) != 1:  # none, or a choice the slide cannot make
            return heard
        [name] = candidates
        score = round(fuzz.ratio(squash(heard), squash(name)), 1)
        corrections.append(
            Correction(start=start, original=heard, corrected=name, score=score, slide=slide)
        )
        return name

    return WORD.sub(replace, text), corrections
