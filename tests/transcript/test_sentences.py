from pipeline.schema import Segment, Word
from pipeline.transcript.sentences import split_segment


def words(*timed: tuple[str, float, float]) -> list[Word]:
    return [Word(text=t, start=s, end=e) for t, s, e in timed]


def test_a_long_segment_is_cut_at_sentence_ends_by_word_times():
    segment = Segment(
        start=0.0,
        end=9.0,
        text="Memory is the limit. Paging fixes it!",
        words=words(
            (" Memory", 0.0, 0.5), (" is", 0.5, 0.7), (" the", 0.7, 0.9), (" limit.", 0.9, 2.0),
            (" Paging", 6.0, 6.5), (" fixes", 6.5, 7.0), (" it!", 7.0, 9.0),
        ),
    )  # fmt: skip
    parts = split_segment(segment)
    assert [(p.text, p.start, p.end) for p in parts] == [
        ("Memory is the limit.", 0.0, 2.0),
        ("Paging fixes it!", 6.0, 9.0),
    ]


def test_without_matching_word_times_sentences_share_the_time_by_length():
    segment = Segment(start=10.0, end=14.0, text="Four chars. Four chars.")
    assert [(p.start, p.end) for p in split_segment(segment)] == [(10.0, 12.0), (12.0, 14.0)]


def test_chinese_sentences_and_numbers_with_points():
    chinese = Segment(start=0.0, end=2.0, text="显存不够。分页解决了。")
    assert [p.text for p in split_segment(chinese)] == ["显存不够。", "分页解决了。"]
    english = Segment(start=0.0, end=2.0, text="It got 2.2 times faster on vllm.ai today")
    assert split_segment(english) == [english]
