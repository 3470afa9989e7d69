"""The article figures of the benchmark, each shown to count a seeded fault."""

from evals.metrics import Truth, heading_metrics, in_text, misbound, slide_dumps, voice_and_latin
from pipeline.schema import Draft, DraftParagraph, DraftSection, DraftText, Evidence, EvidenceUnit
from tests.helpers import ledger_of

SLIDE = (
    "Releases\nv0.1 (July 2024) — 5x higher throughput with automatic KV cache reuse and "
    "3x faster grammar-based constrained decoding for every JSON schema we tried so far"
)
EVIDENCE = Evidence(units=[EvidenceUnit(id="s-01", kind="slide", text=SLIDE, slide=1)])


def article(*chapters: tuple[str, list[str]], lang="en") -> DraftText:
    sections = [
        DraftSection(
            title=title, paragraphs=[DraftParagraph(text=t, citations=["s-01"]) for t in texts]
        )
        for title, texts in chapters
    ]
    return DraftText(lang=lang, title="T", sections=sections)


def test_a_number_with_the_wrong_subject_is_counted_from_the_truth():
    truth = Truth(bindings=[{"number": "5", "subject": ["KV cache"], "wrong": ["constrained"]}])
    wrong = article(("R", ["Constrained decoding got 5x faster."]))
    right = article(
        ("R", ["KV cache reuse gave 5x higher throughput, unlike constrained decoding."])
    )
    assert misbound(wrong, truth) == 1 and misbound(right, truth) == 0
    assert misbound(wrong, Truth()) is None


def test_a_slide_dumped_into_a_sentence_is_counted():
    dumped = article(
        (
            "R",
            [
                "It says v0.1 (July 2024) — 5x higher throughput with automatic KV cache "
                "reuse and 3x faster grammar-based constrained decoding for every JSON schema."
            ],
        )
    )
    written = article(
        (
            "R",
            [
                "Version 0.1 reused the KV cache automatically, which gave five times "
                "the throughput, and made constrained decoding three times faster."
            ],
        )
    )
    assert slide_dumps(dumped, EVIDENCE) == 1 and slide_dumps(written, EVIDENCE) == 0


def test_stub_chapters_and_cut_or_numbered_headings_are_counted():
    en = article(
        ("Releases", ["One. Two. Three."]),
        ("Part 2", ["Only one sentence."]),
        ("higher throughput with automatic KV", ["A. B. C."]),
    )
    draft = Draft(en=en, zh=article(("版本", ["一。二。三。"]), lang="zh"))
    assert heading_metrics(draft, EVIDENCE, "en") == {"stub_chapters": 1, "fragment_headings": 2}


def test_a_fact_in_percent_is_found_written_with_the_sign():
    assert in_text("percent", "60 to 80% of the memory sits empty")
    assert in_text("percent", "60 to 80 percent of it")
    assert not in_text("percent", "60 to 80 of the blocks")


def test_the_speakers_voice_and_english_left_in_chinese_are_counted():
    draft = ledger_of(
        en=[("We keep the KV cache in blocks.", ["t-1"]), ("Blocks hold 16 tokens.", ["t-1"])],
        zh=[
            ("KV cache 按块存放。", ["t-1"]),
            ("每个 block 存放 16 个 token，我们称之为页。", ["t-1"]),
        ],
    ).draft()
    figures = voice_and_latin(draft, ["KV cache"])
    assert figures == {"speaker_voice_sentences": 2, "latin_words_in_zh": 1}  # "block"
