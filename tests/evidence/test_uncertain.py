"""Words recognition may have misheard are marked, with no list of misheard forms."""

from pipeline.evidence import build_evidence
from pipeline.evidence.options import EvidenceOptions
from pipeline.evidence.uncertain import known_words, uncertain_words
from pipeline.schema import Deck, Segment, Slide, Transcript

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
    from pipeline.evidence.uncertain import marked_uncertain
    from pipeline.schema import EvidenceUnit
    from pipeline.schema.transcript import Word

    said = "At block table mats, each sequence maps logical blocks to physical blocks."
    unit = EvidenceUnit(id="t-00:00:39", kind="transcript", text=said, start=39.0, end=44.0)
    heard = [
        Word(start=39.3, end=39.6, text=" mats,", probability=0.12),  # "maps", misheard
        Word(start=40.0, end=40.3, text=" sequence", probability=0.31),  # a slide shows it
        Word(start=41.0, end=41.3, text=" logical", probability=0.95),
        Word(start=50.0, end=50.3, text=" physical", probability=0.05),  # another unit's
    ]
    [marked] = marked_uncertain([unit], None, ["sequence"], heard)
    assert marked.uncertain == ["mats"]
