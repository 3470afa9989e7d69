from pipeline.evidence import EvidenceOptions, build_evidence, timestamp
from pipeline.schema import Deck, Segment, Slide, Transcript
from pipeline.store import provenance


def transcript(*segments: tuple[float, float, str]) -> Transcript:
    return Transcript(
        language="en",
        duration=4000.0,
        segments=[Segment(start=s, end=e, text=t) for s, e, t in segments],
        provenance=provenance("transcribe", {"a.wav": "00"}),
    )


DECK = Deck(
    sources=["d.pptx"],
    provenance=provenance("slides", {"d.pptx": "11"}),
    slides=[
        Slide(index=1, title="Intro", text="a\nb", notes="say hi"),
        Slide(index=12, title="", text=""),
    ],
)


def test_timestamps_switch_to_hours_after_an_hour():
    assert timestamp(75.9) == "01:15"
    assert timestamp(3725) == "1:02:05"


def test_speech_is_grouped_by_word_budget_with_time_ids():
    words = " ".join(["w"] * 4)
    spoken = transcript((0.0, 2.0, words), (2.0, 4.0, words), (61.5, 63.0, words))
    units = build_evidence(spoken, None, EvidenceOptions(max_words=8)).units
    assert [u.id for u in units] == ["t-00:00", "t-01:01"]
    assert (units[0].start, units[0].end) == (0.0, 4.0)


def test_units_starting_in_the_same_second_get_distinct_ids():
    spoken = transcript((5.1, 5.5, "a b c d e f"), (5.6, 5.9, "g h i j k l"))
    ids = [u.id for u in build_evidence(spoken, None, EvidenceOptions(max_words=6)).units]
    assert ids == ["t-00:05", "t-00:05-2"]


def test_slides_and_notes_become_units_and_empty_slides_do_not():
    units = build_evidence(transcript((0, 1, "hello")), DECK, EvidenceOptions()).units
    by_id = {u.id: u for u in units}
    assert set(by_id) == {"t-00:00", "s-01", "n-01"}
    assert by_id["s-01"].text == "Intro\na\nb" and by_id["n-01"].slide == 1


def test_ids_and_content_are_identical_across_runs():
    spoken = transcript((0, 3, "one two three"), (30, 33, "four five six"))
    first = build_evidence(spoken, DECK, EvidenceOptions(max_words=5))
    second = build_evidence(spoken, DECK, EvidenceOptions(max_words=5))
    assert [u.id for u in first.units] == ["t-00:00", "t-00:30", "s-01", "n-01"]
    assert first == second
