from pipeline.schema import Segment
from pipeline.transcript.corrections import correct_terms

TERMS = ["PagedAttention", "continuous batching", "prefix caching", "GPU", "vLLM"]


def seg(text: str, start: float = 12.0) -> Segment:
    return Segment(start=start, end=start + 3, text=text)


def test_near_spellings_of_terms_are_corrected_and_recorded():
    segments, corrections = correct_terms(
        [seg("Page detention stores blocks, and continuous matching schedules them.")], TERMS
    )
    assert segments[0].text == (
        "PagedAttention stores blocks, and continuous batching schedules them."
    )
    assert [(c.original, c.corrected, c.start) for c in corrections] == [
        ("Page detention", "PagedAttention", 12.0),
        ("continuous matching", "continuous batching", 12.0),
    ]


def test_right_spellings_and_ordinary_words_are_left_alone():
    text = "With prefix caching and Paged-Attention the GPU pages memory."
    segments, corrections = correct_terms([seg(text)], TERMS)
    assert segments[0].text == text and corrections == []


def test_short_terms_are_never_fuzzy_matched():
    segments, corrections = correct_terms([seg("The CPU and the GPS are fine.")], TERMS)
    assert corrections == [] and segments[0].text == "The CPU and the GPS are fine."
