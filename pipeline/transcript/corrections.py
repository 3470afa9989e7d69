"""Post-ASR correction towards the talk's vocabulary (glossary and deck terms), each change
recorded.

Whisper hears names it does not know as ordinary words ("Page detention" for
PagedAttention, "flashing fur" for FlashInfer) and spells known ones its own way
("SG-Lang", "X-grammar", "max worker retries"). A run of up to a few words is rewritten to
a term when:

- its letters are the term's letters (spacing, hyphens, underscores, dots aside) but it is
  written otherwise: the deck's spelling is canonical. Case alone counts only for terms
  whose case is part of the name (SGLang, vLLM), not for plain words ("Outlines");
- or its letters nearly spell the term (rapidfuzz ratio), or it sounds like the term
  (Metaphone keys) with enough letters in common, unless each of its words stands whole in
  the term: "valid tokens" is not "invalid tokens", "grammars" not "XGrammars" (a word
  the term holds was said as meant; "Page detention" and "logic mask" are misheard).
"""

import functools
import re

import jellyfish
from rapidfuzz import fuzz
from wordfreq import zipf_frequency

from pipeline.core.text import CJK_CHARS, STOPWORDS, TECHNICAL
from pipeline.schema import Correction, Segment

MIN_FUZZY_CHARS = 6  # shorter terms (GPU, KV) nearly spell too many ordinary words
MIN_SOUND_CHARS = 5
SIMILARITY = 88  # letters alone
SOUND_SIMILARITY = 90  # Metaphone keys, for runs whose letters share at least...
SOUND_LETTERS = 65  # ...this much with the term ("rate extries" ~ "radix trees": 67)
COMMON_WORD = 3.0  # zipf: a single word this common is itself ("grammar" is not "xgrammar")
MAX_SPLIT = 5  # "max worker retries", "B F C L": a term said as up to this many words
TRAILING_PUNCTUATION = re.compile(r"[.,;:!?)\]]+$")
CLAUSE_END = re.compile(r"[.,;:!?]$")
CHINESE_RUN = re.compile(f"([{CJK_CHARS}\u3000-\u303f\uff00-\uffef]+)")  # with CJK punctuation


# Every run of words is compared with every term: each term's key, and each run's letters
# and sound, are worked out once per talk rather than once per comparison.
@functools.lru_cache(maxsize=1 << 16)
def squash(text: str) -> str:
    """Letters and digits only, lower case: 'Paged-Attention' == 'paged attention'."""
    return re.sub(r"[^0-9a-z]", "", text.lower())


@functools.lru_cache(maxsize=1 << 16)
def sound(letters: str) -> str:
    return jellyfish.metaphone(letters)


def right_as_said(core: str, term: str) -> bool:
    """Already the term: exactly, or but for case when case is not part of the name."""
    return core == term or (core.lower() == term.lower() and not TECHNICAL.search(term))


def sounds_like(said: str, term: str, letters: float) -> bool:
    if len(term) < MIN_SOUND_CHARS or letters < SOUND_LETTERS:
        return False
    return fuzz.ratio(sound(said), sound(term)) >= SOUND_SIMILARITY


def windows(tokens: list[str], most: int) -> list[tuple[int, str]]:
    """(width, text) of the runs starting at tokens[0], within one clause."""
    runs = []
    for width in range(1, min(len(tokens), most) + 1):
        runs.append((width, TRAILING_PUNCTUATION.sub("", " ".join(tokens[:width]))))
        if CLAUSE_END.search(tokens[width - 1]):
            break
    return runs


def near_miss(core: str, term: str) -> tuple[str, float] | None:
    """(replacement, score) when `core` nearly spells or sounds like `term` (or its plural)."""
    words = core.lower().split()
    if words[0] in STOPWORDS or words[-1] in STOPWORDS:
        return None  # "a load balancer" is "load balancer" one word later
    # a hyphenated word is judged whole: wordfreq scores "sg-ling" as "sg" and "ling"
    if len(words) == 1 and zipf_frequency(words[0].replace("-", ""), "en") >= COMMON_WORD:
        return None
    said, key = squash(core), squash(term)
    if key in said or len(key) < MIN_SOUND_CHARS:
        return None  # the term is inside this run with a neighbour, or too short
    if said.rstrip("s") == key.rstrip("s"):
        return None  # the term in the singular or plural: right as said
    if all(squash(w).rstrip("s") in key for w in words):
        return None  # words the term holds whole, said as meant ("valid" of "invalid")
    found = None
    plural = [(term + "s", key + "s")] if said.endswith("s") and not key.endswith("s") else []
    for replacement, target in [(term, key), *plural]:
        letters = fuzz.ratio(said, target)
        near = len(key) >= MIN_FUZZY_CHARS and letters >= SIMILARITY
        if (near or sounds_like(said, target, letters)) and (not found or letters > found[1]):
            found = (replacement, letters)
    return found


def best_match(tokens: list[str], terms: list[str]) -> tuple[int, str, float] | None:
    """The term the words starting at tokens[0] stand for: (width, replacement, score);
    None when they already are a term or stand for none."""
    best = None
    longest = max(MAX_SPLIT, *(len(term.split()) + 1 for term in terms))
    runs = windows(tokens, longest)
    for term in terms:
        key, words = squash(term), len(term.split())
        for width, core in runs:
            if width > max(MAX_SPLIT, words + 1):
                break
            if squash(core) == key:
                if right_as_said(core, term):
                    return None
                candidate = (width, term, 100.0)
            elif abs(width - words) <= 1 and (found := near_miss(core, term)):
                candidate = (width, *found)
            else:
                continue
            if best is None or candidate[2] > best[2]:
                best = candidate
    return best


def correct_words(text: str, start: float, terms: list[str]) -> tuple[str, list[Correction]]:
    """Corrections in a run of space-separated words."""
    tokens, out, corrections, i = text.split(), [], [], 0
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
            Correction(start=start, original=original, corrected=term, score=round(score, 1))
        )
        i += width
    return " ".join(out), corrections


def correct_segment(segment: Segment, terms: list[str]) -> tuple[Segment, list[Correction]]:
    """Chinese text is left as it is; the Latin runs inside it ("用 SG-Lang 部署") and
    English text are corrected word by word, their surrounding spaces kept."""
    parts, corrections = [], []
    for part in CHINESE_RUN.split(segment.text):
        if not part.strip() or CHINESE_RUN.fullmatch(part):
            parts.append(part)
            continue
        fixed, found = correct_words(part, segment.start, terms)
        lead, trail = part[: len(part) - len(part.lstrip())], part[len(part.rstrip()) :]
        parts.append(lead + fixed + trail)
        corrections += found
    return segment.model_copy(update={"text": "".join(parts)}), corrections


def correct_terms(
    segments: list[Segment], terms: list[str]
) -> tuple[list[Segment], list[Correction]]:
    """Apply term corrections to every segment's text; words keep what was recognised."""
    candidates = [t for t in terms if len(squash(t)) >= 2]
    corrected, log = [], []
    for segment in segments:
        fixed, changes = correct_segment(segment, candidates) if candidates else (segment, [])
        corrected.append(fixed)
        log += changes
    return corrected, log
