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
from pipeline.llm.client import LLM, EndpointError, Unsupported
from pipeline.llm.parallel import ordered_map
from pipeline.schema import Deck, EvidenceUnit
from pipeline.schema.transcript import Word
from pipeline.transcript.corrections import squash

WORD_PART = re.compile(r"[A-Za-z0-9]+")
EDGES = re.compile(r"^\W+|\W+$")
LETTERS = re.compile(r"[a-z]+")
# A word of English speech recognition doubted (faster-whisper's probability below DOUBTED)
# is misheard unless the LLM, given the CONTEXT_WORDS said before it, has a token that begins
# it among its EXPECTED_AMONG likeliest next ones; the three set together on the five
# narrated dev cases (benchmarks/unsure_words.py: 472 words no slide knows, 81 misheard
# against the narration): precision .72, recall .51; probability below 0.4 alone .74, .28.
DOUBTED = 0.7
CONTEXT_WORDS = 40
# vLLM's default most; OpenAI's completions give 5 and its chat models none: such an endpoint
# is Unsupported and the probability alone decides.
EXPECTED_AMONG = 20
FIRST_JUDGED = 3  # the talk's first words have no speech before them to be judged by
# A word the LLM cannot judge (no speech before it, not letters alone, not English), or
# every word where the endpoint gives no next tokens, is misheard below this probability:
# set on kv-cache-serving's readings (4 of the 7 speech sentences readers called misheard,
# none of 26 others).
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


def unsure_heard(unit: EvidenceUnit, unsure: list[Word]) -> list[str]:
    """The unit's words among `unsure` (misheard_words), as the unit writes them."""
    if unit.start is None or unit.end is None:
        return []
    low = {bare(w) for w in unsure if unit.start - EDGE_S <= w.start <= unit.end + EDGE_S}
    said = [w for w in WORD.findall(unit.text) if w.lower() in low]
    return list(dict.fromkeys(said))


def bare(word: Word) -> str:
    """A recognised word as a dictionary writes it: lower case, no space or mark around."""
    return EDGES.sub("", word.text).lower()


def expected(word: str, tokens: list[str]) -> bool:
    """One of the offered next tokens begins the word (a token is often a part of one)."""
    return any(t and word.startswith(t) for t in (token.strip().lower() for token in tokens))


def judgeable(heard: list[Word], k: int) -> bool:
    """Word k has speech before it to be judged by, and is a word of letters alone."""
    return k >= FIRST_JUDGED and bool(LETTERS.fullmatch(bare(heard[k])))


def unexpected(heard: list[Word], k: int, llm: LLM) -> bool:
    """Whether the LLM, given the speech before word k, does not expect it."""
    context = "".join(w.text for w in heard[max(0, k - CONTEXT_WORDS) : k]).strip()
    return not expected(bare(heard[k]), llm.next_tokens(context, EXPECTED_AMONG))


def verdicts(heard: list[Word], judged: list[int], llm: LLM) -> dict[int, bool]:
    """Whether the LLM does not expect each of the `judged` words; the first asked alone,
    and an endpoint that refuses it gives no verdicts (Unsupported, raised). A refusal
    after the first answered is an outage."""
    first = {judged[0]: unexpected(heard, judged[0], llm)}

    def asked(k: int) -> bool:
        try:
            return unexpected(heard, k, llm)
        except Unsupported as err:
            raise EndpointError(f"refused after answering: {err}") from err

    rest = judged[1:]
    return first | dict(zip(rest, ordered_map(asked, rest, llm.slots), strict=True))


def misheard_words(heard: list[Word], shown: set[str], llm: LLM | None) -> tuple[list[Word], str]:
    """The heard words recognition doubted that no slide or vocabulary shows and the LLM
    does not expect (below UNSURE_PROBABILITY where it cannot judge), and a warning when
    the endpoint gives no next tokens (then recognition's probability alone decides)."""
    doubted = [
        k
        for k, w in enumerate(heard)
        if w.probability is not None and w.probability < DOUBTED and bare(w) not in shown
    ]
    judged = [k for k in doubted if judgeable(heard, k)] if llm is not None else []
    found, warning = {}, ""
    try:
        found = verdicts(heard, judged, llm) if judged else {}
    except Unsupported as err:
        warning = f"unsure words by recognition's probability alone: {err}"
    return [
        heard[k] for k in doubted if found.get(k, heard[k].probability < UNSURE_PROBABILITY)
    ], warning


def marked_uncertain(
    units: list[EvidenceUnit],
    deck: Deck | None,
    vocabulary: list[str],
    heard: list[Word] | tuple = (),
    llm: LLM | None = None,
) -> tuple[list[EvidenceUnit], str]:
    """Recognised speech units with their uncertain words marked, and misheard_words'
    warning; `heard` are the words as recognised, with their probabilities, `llm` the
    model that judges the doubted ones (None: their probability alone)."""
    known, deck_names = known_words(deck, vocabulary), deck is not None
    unsure, warning = misheard_words(list(heard), known, llm)
    speech = [u for u in units if u.kind == "transcript"]
    times_heard = Counter(
        w.lower() for u in speech for w in set(uncertain_words(u.text, known, deck_names))
    )
    known |= {word for word, units_heard in times_heard.items() if units_heard > 1}

    def uncertain(unit: EvidenceUnit) -> list[str]:
        found = uncertain_words(unit.text, known, deck_names) + unsure_heard(unit, unsure)
        return list(dict.fromkeys(found))

    marked = [
        unit.model_copy(update={"uncertain": uncertain(unit)})
        if unit.kind == "transcript"
        else unit
        for unit in units
    ]
    return marked, warning
