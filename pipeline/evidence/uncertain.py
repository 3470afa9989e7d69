"""Words recognised speech may have misheard: a word in Latin letters that no dictionary
knows (wordfreq has never seen it), that no slide shows, that is no term of the talk's
vocabulary or of the house terminology, and that recognition wrote only once (a name the
speaker says again and again is heard the same way each time; a mishearing rarely is).
When the talk has a deck, a word of a name's spelling (an acronym, letters with digits:
"HEP", "Q2", "KV-K2") is known only if the deck or the vocabulary has it: a dictionary
has seen most short letter strings, and the names a talk means are the ones its slides
show (on sglang-2025 this marks five words, each a mishearing).
Speech recognition writes what it heard as words it knows or as made-up spellings; the
made-up ones are caught here, in every talk, with no list of misheard forms. Recognition
also says how sure it was of each word: a word it gave a low probability, that no slide or
vocabulary shows, is uncertain too, a dictionary word or not ("block table mats" for
"maps"). A subtitle file is a person's transcript: nothing in it is uncertain.
"""

import re
from collections import Counter

from wordfreq import zipf_frequency

from pipeline.core import terminology
from pipeline.core.text import TECHNICAL
from pipeline.evidence.screen import WORD
from pipeline.schema import Deck, EvidenceUnit
from pipeline.schema.transcript import Word
from pipeline.transcript.corrections import squash

WORD_PART = re.compile(r"[A-Za-z0-9]+")
# A recognised word below this probability (faster-whisper's, per word) may be misheard:
# set on kv-cache-serving's readings (benchmarks/readings/: 4 of the 7 speech sentences
# readers called misheard, none of 26 others); with sglang-2025's, 8 of 15 and 4 of 52.
UNSURE_PROBABILITY = 0.4
EDGE_S = 0.2  # a word's start may fall this far outside its unit's span


def spelled_together(text: str) -> set[str]:
    """Each run of two or three words of `text` written as one, where one of them has a
    digit or a name's spelling ("GLM 4.5", "Qwen3 8B"): the name a recognised word may be,
    spelled apart on a slide."""
    tokens = [t for t in re.split(r"[\s_/-]+|[,;:()]", text) if t]
    runs = (tokens[k : k + n] for n in (2, 3) for k in range(len(tokens) - n + 1))
    return {squash("".join(run)) for run in runs if any(TECHNICAL.search(t) for t in run)}


def known_words(deck: Deck | None, vocabulary: list[str]) -> set[str]:
    """Every word the deck shows (text, notes and the words of its pictures), the talk's
    vocabulary and the house terminology have, in lower case, and their runs of two or
    three words written as one."""
    texts = [*vocabulary, *(t.en for t in terminology.terms())]
    if deck is not None:
        texts += [text for slide in deck.slides for text in slide.texts(pictures=True)]
    words = {w.lower() for text in texts for w in WORD.findall(text)}
    runs = {run for text in texts for run in spelled_together(text)}
    return words | runs | {p.lower() for text in texts for p in WORD_PART.findall(text)}


def is_known(word: str, known: set[str], deck_names: bool) -> bool:
    """`deck_names`: a name's spelling is known from the deck and vocabulary alone."""
    lower = word.lower()
    singular = lower[:-1] if lower.endswith("s") else lower
    if lower in known or singular in known or squash(word) in known:
        return True
    return not (deck_names and TECHNICAL.search(word)) and zipf_frequency(word, "en") > 0


def uncertain_words(text: str, known: set[str], deck_names: bool = False) -> list[str]:
    """The words of `text` no dictionary, slide or vocabulary knows, in order, once each."""
    words = WORD.findall(text)
    return list(dict.fromkeys(w for w in words if not is_known(w, known, deck_names)))


def unsure_heard(unit: EvidenceUnit, unsure: list[Word], known: set[str]) -> list[str]:
    """The unit's words among `unsure` (those recognition gave a low probability) that no
    slide or vocabulary shows, as the unit writes them."""
    if unit.start is None or unit.end is None:
        return []
    low = {
        w.text.strip(" ,.?!;:").lower()
        for w in unsure
        if unit.start - EDGE_S <= w.start <= unit.end + EDGE_S
    }
    said = [w for w in WORD.findall(unit.text) if w.lower() in low - known]
    return list(dict.fromkeys(said))


def marked_uncertain(
    units: list[EvidenceUnit],
    deck: Deck | None,
    vocabulary: list[str],
    heard: list[Word] | tuple = (),
) -> list[EvidenceUnit]:
    """Recognised speech units with their uncertain words marked; `heard` are the words as
    recognised, with their probabilities."""
    known, deck_names = known_words(deck, vocabulary), deck is not None
    speech = [u for u in units if u.kind == "transcript"]
    times_heard = Counter(
        w.lower() for u in speech for w in set(uncertain_words(u.text, known, deck_names))
    )
    shown = known.copy()
    known |= {word for word, units_heard in times_heard.items() if units_heard > 1}
    unsure = [w for w in heard if w.probability is not None and w.probability < UNSURE_PROBABILITY]

    def uncertain(unit: EvidenceUnit) -> list[str]:
        found = uncertain_words(unit.text, known, deck_names) + unsure_heard(unit, unsure, shown)
        return list(dict.fromkeys(found))

    return [
        unit.model_copy(update={"uncertain": uncertain(unit)})
        if unit.kind == "transcript"
        else unit
        for unit in units
    ]
