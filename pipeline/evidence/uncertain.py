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
also says how sure it was of each word: a word it doubted, that no slide or vocabulary
shows and that the talk's LLM does not expect after the words said before it, is uncertain
too, a dictionary word or not ("keep the output ballot" for "valid"). A subtitle file is a
person's transcript: nothing in it is uncertain.
"""

import re
from collections import Counter

from wordfreq import zipf_frequency

from pipeline.core import terminology
from pipeline.core.text import TECHNICAL
from pipeline.evidence.screen import WORD
from pipeline.llm.client import LLM, Unsupported
from pipeline.llm.parallel import ordered_map
from pipeline.schema import Deck, EvidenceUnit
from pipeline.schema.transcript import Word
from pipeline.transcript.corrections import squash

WORD_PART = re.compile(r"[A-Za-z0-9]+")
# A word recognition doubted (faster-whisper's probability below DOUBTED) is misheard unless
# the LLM, given the CONTEXT_WORDS said before it, has a token that begins it among its
# EXPECTED_AMONG likeliest next ones: on the five narrated dev cases (432 candidate words, 57
# misheard by alignment to the narration; benchmarks/unsure_words.py) precision .67, recall .61.
DOUBTED = 0.7
CONTEXT_WORDS = 40
EXPECTED_AMONG = 20  # the most log probabilities OpenAI-style servers return (vLLM's default)
FIRST_JUDGED = 3  # a word with fewer words said before it has no context to be judged by
# A word the LLM cannot judge (no context, not all letters), or every word where the endpoint
# gives no next tokens, is misheard below this probability: same benchmark, precision .68,
# recall .30 (set before on kv-cache-serving's readings).
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
    """The unit's words among `unsure` (misheard_words) that no slide or vocabulary shows,
    as the unit writes them."""
    if unit.start is None or unit.end is None:
        return []
    low = {bare(w) for w in unsure if unit.start - EDGE_S <= w.start <= unit.end + EDGE_S}
    said = [w for w in WORD.findall(unit.text) if w.lower() in low - known]
    return list(dict.fromkeys(said))


def bare(word: Word) -> str:
    return word.text.strip(" ,.?!;:").lower()


def expected(word: str, tokens: list[str]) -> bool:
    """One of the offered next tokens begins the word (a token is often a part of one)."""
    return any(t and word.startswith(t) for t in (token.strip().lower() for token in tokens))


def unexpected(heard: list[Word], k: int, llm: LLM | None) -> bool | None:
    """Whether the LLM, given the speech before word k, does not expect it; None when it
    cannot judge (too little said before, a word not all letters, no LLM)."""
    if llm is None or k < FIRST_JUDGED or not bare(heard[k]).isalpha():
        return None
    context = "".join(w.text for w in heard[max(0, k - CONTEXT_WORDS) : k]).strip()
    return not expected(bare(heard[k]), llm.next_tokens(context, EXPECTED_AMONG))


def misheard_words(heard: list[Word], shown: set[str], llm: LLM | None) -> tuple[list[Word], str]:
    """The heard words recognition doubted that no slide or vocabulary shows and the LLM
    does not expect (below UNSURE_PROBABILITY where it cannot judge), and a warning when
    the endpoint gives no next tokens (then recognition's probability alone decides)."""
    doubted = [
        k
        for k, w in enumerate(heard)
        if w.probability is not None and w.probability < DOUBTED and bare(w) not in shown
    ]
    warning = ""
    try:
        judged = ordered_map(lambda k: unexpected(heard, k, llm), doubted, llm.slots if llm else 1)
    except Unsupported as err:
        judged, warning = [None] * len(doubted), f"unsure words by probability alone: {err}"
    found = [
        heard[k]
        for k, verdict in zip(doubted, judged, strict=True)
        if verdict or (verdict is None and heard[k].probability < UNSURE_PROBABILITY)
    ]
    return found, warning


def marked_uncertain(
    units: list[EvidenceUnit],
    deck: Deck | None,
    vocabulary: list[str],
    unsure: list[Word] | tuple = (),
) -> list[EvidenceUnit]:
    """Recognised speech units with their uncertain words marked; `unsure` are the words
    recognition may have misheard (misheard_words)."""
    known, deck_names = known_words(deck, vocabulary), deck is not None
    speech = [u for u in units if u.kind == "transcript"]
    times_heard = Counter(
        w.lower() for u in speech for w in set(uncertain_words(u.text, known, deck_names))
    )
    shown = known.copy()
    known |= {word for word, units_heard in times_heard.items() if units_heard > 1}

    def uncertain(unit: EvidenceUnit) -> list[str]:
        found = uncertain_words(unit.text, known, deck_names) + unsure_heard(unit, unsure, shown)
        return list(dict.fromkeys(found))

    return [
        unit.model_copy(update={"uncertain": uncertain(unit)})
        if unit.kind == "transcript"
        else unit
        for unit in units
    ]
