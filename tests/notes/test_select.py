"""Which facts an article states, decided in code."""

from pipeline.notes.select import select_facts
from pipeline.schema import FactSource


def source(n: int, text: str, kind: str = "speech") -> FactSource:
    unit = "s-02" if kind in ("slide", "table") else f"t-00:00:{n:02d}"
    return FactSource(id=f"{unit}.{n}", unit=unit, kind=kind, text=text)


SOURCES = [
    source(1, "Next we will compare a few of them side by side."),  # names nothing
    source(2, "Blocks of 16 tokens, handed out on demand", "slide"),
    source(3, "So blocks of 16 tokens are handed out on demand."),  # the slide again
    source(4, "Reserving the maximum length wastes 60 to 80 percent of the KV cache."),
    source(5, "Reserving the maximum length wastes 60 to 80 percent of the KV cache!"),  # repeat
    source(6, "With prefix caching, one A100 served 2.2 times the requests."),
    source(7, "The scheduler admits work while the pool has room."),
]


def test_speech_that_names_nothing_or_says_again_what_is_shown_is_left_out():
    kept = select_facts(SOURCES, ["PagedAttention", "scheduler"])
    assert [s.id.split(".")[1] for s in kept] == ["2", "4", "6", "7"]


def test_past_the_limit_the_speech_that_names_and_measures_most_stays_in_talk_order():
    kept = select_facts(SOURCES, ["PagedAttention", "scheduler"], limit=3)
    assert [s.id.split(".")[1] for s in kept] == ["2", "4", "6"]  # the slide line always


def test_chinese_speech_with_a_house_term_is_a_fact_and_meta_talk_is_not():
    said = [source(1, "接着我们分开几个来去横向的对比"), source(2, "高吞吐跟低延迟有可能是相悖的")]
    assert [s.id for s in select_facts(said, [])] == [said[1].id]


def test_speech_with_a_word_recognition_may_have_misheard_is_not_built_upon():
    heard = source(8, "One node processes 52.3k Potokans per second.")
    heard = heard.model_copy(update={"uncertain": ["Potokans"]})
    assert heard not in select_facts([*SOURCES, heard], ["PagedAttention"])


def test_a_spoken_aside_names_and_measures_nothing_and_is_no_fact():
    asides = ["这节课我录了三遍真不容易", "觉得有用的话记得点赞", "please like and subscribe"]
    content = ["PagedAttention 用 block table 管理显存", "这个 kernel 的 ping-pong 调度"]
    said = [source(n, text) for n, text in enumerate(asides + content, start=10)]
    kept = select_facts(said, ["PagedAttention"])
    assert [s.text for s in kept] == content


def test_a_number_without_a_unit_measures_nothing():
    said = [source(1, "今天晚上 11 点多准备下班的时候"), source(2, "准确率从 15.6% 提升到 71%")]
    assert [s.id for s in select_facts(said, [])] == [said[1].id]


def test_past_the_limit_speech_that_only_names_again_what_is_stated_gives_way():
    said = [
        source(1, "PagedAttention keeps the KV cache in blocks."),
        source(2, "So PagedAttention, PagedAttention is what the KV cache uses."),  # nothing new
        source(3, "On an A100, PagedAttention served 2.2 times the requests."),
    ]
    kept = select_facts(said, ["PagedAttention"], limit=2)
    assert [s.id for s in kept] == [said[0].id, said[2].id]


def test_a_slide_label_that_measures_nothing_is_left_to_the_slides_picture():
    lines = [
        source(1, "LangChain JSON parser", "slide"),  # a label: no clause, no number
        source(2, "Pluggable backends: Mooncake and LMCache", "slide"),
        source(3, "Up to 6x throughput via hierarchical KV reuse", "slide"),  # a number
        source(4, "Constrained decoding removes the retry loop", "slide"),  # a clause
        source(5, "预填充与解码分离", "slide"),  # no English grammar to judge Chinese by
        source(6, "The parser retries until the JSON is valid."),  # said, not shown
    ]
    kept = select_facts(lines, ["LangChain"])
    assert [s.id.split(".")[1] for s in kept] == ["3", "4", "5", "6"]
