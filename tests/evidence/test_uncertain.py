"""Words recognition may have misheard are marked, with no list of misheard forms."""

import pytest

from pipeline.evidence import build_evidence
from pipeline.evidence.options import EvidenceOptions
from pipeline.evidence.uncertain import (
    known_words,
    marked_uncertain,
    misheard_words,
    uncertain_words,
)
from pipeline.llm.client import EndpointError, Unsupported
from pipeline.schema import Deck, EvidenceUnit, Segment, Slide, Transcript
from pipeline.schema.transcript import Word

DECK = Deck(sources=["d.pdf"], slides=[Slide(index=1, title="SGLang", text="FP8 on H100")])


def test_a_word_no_dictionary_slide_or_vocabulary_knows_is_uncertain():
    known = known_words(DECK, ["DeepSeek-V3"])
    said = "SGLang serves FP8 models like DeepSeek-V3 at 52.3k Potokans per second on GPUs"
    assert uncertain_words(said, known) == ["Potokans"]
    # the deck's words, the vocabulary, the house terms and plurals are known
    assert uncertain_words("PagedAttention, goodput and SGLang's prefills", known) == []


def test_with_a_deck_a_name_no_slide_shows_is_uncertain_though_a_dictionary_has_it():
    known = known_words(DECK, ["kimi-k2"])
    said = "One click launches a cluster of 120 HEP for kimi-k2 on H100 with Q2 graphs"
    assert uncertain_words(said, known, deck_names=True) == ["HEP", "Q2"]
    assert uncertain_words(said, known) == []  # no deck: the dictionary vouches for them


def test_a_name_said_as_one_word_is_known_from_its_slide_spelled_apart():
    deck = Deck(sources=["d.pdf"], slides=[Slide(index=2, title="RL", text="Trains GLM 4.5")])
    said = "It trains GLM4.5 and GLM-4.5 but not GLM4.7 or Potokans."
    assert uncertain_words(said, known_words(deck, []), deck_names=True) == ["GLM4.7", "Potokans"]


def transcript(source: str, *texts: str) -> Transcript:
    segments = [Segment(start=10.0 * n, end=10.0 * n + 9, text=t) for n, t in enumerate(texts)]
    return Transcript(language="en", duration=60.0, segments=segments, source=source)


def test_recognised_speech_marks_a_word_heard_once_and_subtitles_mark_nothing():
    said = (
        "Qwenny serves the model well enough.",
        "One node processes 52.3k Potokans per second.",
        "Qwenny is fast again today.",
    )
    opts = EvidenceOptions(max_tokens=12)  # a unit per sentence
    heard = build_evidence(transcript("asr", *said), DECK, None, [], opts)
    marked = {w for u in heard.units for w in u.uncertain}
    assert marked == {"Potokans"}  # "Qwenny", heard the same way twice, is the speaker's word
    typed = build_evidence(transcript("subtitles", *said), DECK, None, [], opts)
    assert not any(u.uncertain for u in typed.units)


def test_a_word_recognition_was_unsure_of_is_uncertain_unless_a_slide_shows_it():
    said = "At block table mats, each sequence maps logical blocks to physical blocks."
    unit = EvidenceUnit(id="t-00:00:39", kind="transcript", text=said, start=39.0, end=44.0)
    heard = [
        Word(start=39.3, end=39.6, text=" mats,", probability=0.12),  # "maps", misheard
        Word(start=40.0, end=40.3, text=" sequence", probability=0.31),  # a slide shows it
        Word(start=41.0, end=41.3, text=" logical", probability=0.95),
        Word(start=50.0, end=50.3, text=" physical", probability=0.05),  # another unit's
    ]
    [marked], warning = marked_uncertain([unit], None, ["sequence"], heard)
    assert marked.uncertain == ["mats"] and not warning


def said_as(text: str, doubted: str, probability: float) -> list[Word]:
    """`text` heard word by word, sure of every word but `doubted`."""
    return [
        Word(start=n, end=n + 0.5, text=f" {w}", probability=probability if w == doubted else 0.99)
        for n, w in enumerate(text.split())
    ]


class Guesser:
    """An LLM double offering the same next tokens after any context, or failing with
    `error` from its `fails_from`-th call on."""

    slots = 1

    def __init__(self, tokens: list[str], error: Exception | None = None, fails_from: int = 1):
        self.tokens, self.error, self.fails_from, self.asked = tokens, error, fails_from, []

    def next_tokens(self, text: str, top: int) -> list[str]:
        self.asked.append(text)
        if self.error is not None and len(self.asked) >= self.fails_from:
            raise self.error
        return self.tokens


def test_a_doubted_word_the_llm_does_not_expect_after_the_speech_before_is_uncertain():
    text = "Only tokens that keep the output ballot can be sampled"
    guesser = Guesser([" valid", " v", " correct"])
    unsure, _ = misheard_words(said_as(text, "ballot", 0.44), set(), guesser)
    assert [w.text for w in unsure] == [" ballot"]
    assert guesser.asked == ["Only tokens that keep the output"]
    # the same doubt, a word the LLM expects (a token of its offer begins it): heard right
    unsure, _ = misheard_words(
        said_as(text.replace("ballot", "valid"), "valid", 0.44), set(), guesser
    )
    assert unsure == []


def test_without_next_tokens_the_probability_alone_decides_and_says_so():
    text = "Only tokens that keep the output ballot can be sampled"
    refusing = Guesser([], Unsupported("404: no completions"))
    unsure, warning = misheard_words(said_as(text, "ballot", 0.3), set(), refusing)
    assert [w.text for w in unsure] == [" ballot"] and "probability alone" in warning
    assert misheard_words(said_as(text, "ballot", 0.5), set(), None) == ([], "")
    # a slide shows it: never doubted, never asked
    guesser = Guesser([])
    assert misheard_words(said_as(text, "ballot", 0.3), {"ballot"}, guesser)[0] == []
    assert guesser.asked == []


def test_an_outage_while_judging_fails_the_stage_even_after_a_refusal():
    text = "Only tokens that keep the output ballot can be sampled by the engine"
    heard = said_as(text, "ballot", 0.3) + said_as("then the engine runs", "runs", 0.3)
    down = Guesser([" valid"], EndpointError("timed out"))
    with pytest.raises(EndpointError):
        misheard_words(heard, set(), down)
    # the first word answered, a later one refused: the endpoint broke, no fallback
    broke = Guesser([" valid"], Unsupported("400"), fails_from=2)
    with pytest.raises(EndpointError, match="refused after answering"):
        misheard_words(heard, set(), broke)


def test_a_word_the_llm_cannot_judge_is_uncertain_below_the_old_probability():
    guesser = Guesser([" the"])
    # the talk's first words have nothing said before them; "4.5" is no word of letters
    heard = said_as("Mats are GLM 4.5 models", "Mats", 0.5) + said_as("GLM 4.5 again", "4.5", 0.3)
    unsure, _ = misheard_words(heard, set(), guesser)
    assert [w.text for w in unsure] == [" 4.5"] and guesser.asked == []
