import pytest

from pipeline.core.prompts import load_prompt
from pipeline.review import review as review_ledger
from pipeline.schema import Evidence, EvidenceUnit, FactSource, Ledger
from pipeline.schema.checks import ARTICLE_CHECKS
from tests.helpers import ledger_of

EVIDENCE = Evidence(
    units=[
        EvidenceUnit(
            id="t-01:05",
            kind="transcript",
            text="In our own benchmark we saw 2.2 times the throughput of static batching.",
            start=65.4,
            end=70.0,
        ),
        EvidenceUnit(
            id="s-03",
            kind="slide",
            text="Paging the cache\nBlocks of 16 tokens each, handed out on demand",
            slide=3,
        ),
    ],
)
EN = [
    "In the speaker's own benchmark, throughput was 2.2 times that of static batching.",
    "The cache is handed out on demand in blocks of 16 tokens each.",
]
ZH = ["在演讲者自己的基准测试中，吞吐量是静态批处理的 2.2 倍。", "缓存按需分配，每块 16 个 token。"]
CITES = [["t-01:05"], ["s-03"]]
PROMPTS = [load_prompt(n) for n in ("outline", "rewrite_facts_en", "translate_sentences_zh")]


# What each paragraph is made from: the unit it cites, as said or shown.
SOURCES = [
    FactSource(id=f"{u.id}.0", unit=u.id, kind="speech" if u.start else "slide", text=u.text)
    for u in EVIDENCE.units
]


def ledger(en=EN, zh=ZH, title="Paging the cache", **options) -> Ledger:
    pairs = [list(zip(texts, CITES, strict=True)) for texts in (en, zh)]
    return ledger_of(*pairs, (title, "缓存分页"), (title, "缓存分页"), sources=SOURCES, **options)


def review(en=EN, zh=ZH, title="Paging the cache", **options):
    result = review_ledger(
        ledger(en, zh, title, **options), EVIDENCE, "en", ["static batching"], PROMPTS
    )
    return result, {c.name: c for c in result.checks}


def test_a_faithful_pair_passes_every_check():
    result, checks = review()
    assert result.verdict == "pass", [c for c in result.checks if not c.passed]
    assert set(checks) == set(ARTICLE_CHECKS)  # the review runs every check it defines
    assert result.card.verdict == "推荐收录" and result.revisions == []


@pytest.mark.parametrize(
    ("en", "zh", "title", "check", "finding"),
    [
        (
            [EN[0].replace("2.2", "2.5"), EN[1]],
            ZH,
            None,
            "sentences_grounded",
            "not in its source: 2.5",
        ),
        (
            [EN[0] + " The sentence states only what the item states.", EN[1]],
            ZH,
            None,
            "no_prompt_echo",
            "en §1¶1",
        ),
        ([EN[0], EN[1] + " 每块 16 个 token。"], ZH, None, "languages", "en §1¶2"),
        (EN, [ZH[0], "The cache is handed out on demand in blocks."], None, "languages", "zh §1¶2"),
        ([EN[0], EN[0]], ZH, None, "no_duplicate_paragraphs", "en §1¶2: repeats en §1¶1"),
        (
            [EN[0], EN[1] + " " + EN[0].replace("In the", "As measured in the")],
            ZH,
            None,
            "no_repeated_sentences",
            "en §1¶2: says again",
        ),
        (EN, ZH, "16 tokens each, handed out", "titles_not_fragments", "is a fragment"),
        (EN, ZH, "Results", "headings_name_chapters", "en §1 title: 'Results' is a role's"),
        (
            [EN[0], EN[1] + " Startups save millions with vLLM."],
            ZH,
            None,
            "sentences_grounded",
            "vLLM",
        ),
        (EN, [ZH[0], "缓存按需分配，每块 32 个 token。"], None, "sentences_grounded", "zh §1¶2"),
        ([EVIDENCE.units[0].text, EN[1]], ZH, None, "own_words", "en: 52% of the text is"),
    ],
)
def test_a_seeded_fault_fails_its_check(en, zh, title, check, finding):
    result, checks = review(en, zh, title or "Paging the cache")
    assert result.verdict == "fail"
    assert not checks[check].passed
    assert any(finding in str(f) for f in checks[check].findings), checks[check].findings


def test_two_chapters_under_one_heading_fail():
    checks = review(title="Paging", chapters=2)[1]
    assert [str(f) for f in checks["headings_name_chapters"].findings] == [
        "zh §2 title: '缓存分页' heads chapter 1 too",
        "en §2 title: 'Paging' heads chapter 1 too",
    ]


def test_unknown_and_missing_citations_are_found():
    written = ledger()
    written.sentences[-1].units = ["x-99"]
    checks = {c.name: c for c in review_ledger(written, EVIDENCE, "en", [], PROMPTS).checks}
    assert "en §1¶2: unknown evidence id x-99" in map(str, checks["citations"].findings)


def test_word_by_word_chinese_terms_fail_terminology():
    zh = [ZH[0], "缓存按需分配，每块 16 个令牌。"]
    result, checks = review(EN, zh)
    assert not checks["terminology"].passed
    assert any(
        str(f.place) == "zh §1¶2" and "令牌" in f.detail for f in checks["terminology"].findings
    )
    assert result.card.verdict == "需修改"  # a wording fault, not a trust fault


def test_english_from_chinese_may_write_a_term_in_latin_letters_but_adds_no_number():
    said = "显卡内存按需分配，每块 16 个 token。"
    source = [FactSource(id="t-01:05.0", unit="t-01:05", kind="speech", text=said)]

    def grounded(english: str):
        written = ledger_of([(english, ["t-01:05"])], [(said, ["t-01:05"])], sources=source)
        written = written.model_copy(update={"language": "zh"})
        checks = review_ledger(written, EVIDENCE, "zh", [], PROMPTS).checks
        return next(c for c in checks if c.name == "sentences_grounded").findings

    assert grounded("GPU memory is handed out in blocks of 16 tokens.") == []  # 显卡: GPU
    assert "numbers" in str(grounded("GPU memory is handed out in blocks of 32 tokens."))
