from pipeline.review import review as review_draft
from pipeline.schema import Draft, DraftParagraph, DraftSection, DraftText, Evidence, EvidenceUnit

EVIDENCE = Evidence(
    units=[
        EvidenceUnit(
            id="t-01:05",
            kind="transcript",
            text="We saw 2.2 times the throughput.",
            start=65.4,
            end=70.0,
        ),
        EvidenceUnit(id="s-03", kind="slide", text="Blocks of 16 tokens", slide=3),
        EvidenceUnit(id="n-03", kind="notes", text="Mention paging", slide=3),
    ],
)


def draft(lang: str, texts: list[str], citations: list[list[str]], title="T") -> DraftText:
    paragraphs = [
        DraftParagraph(text=t, citations=c) for t, c in zip(texts, citations, strict=True)
    ]
    return DraftText(
        lang=lang,
        title=title,
        sections=[DraftSection(role="results", title=f"{title} results", paragraphs=paragraphs)],
    )


def test_a_faithful_pair_passes_every_check():
    en = draft(
        "en",
        [
            "In the speaker's own benchmark, throughput rose 2.2 times over the previous "
            "serving setup on the same hardware.",
            "The cache is split into blocks that hold 16 tokens each, so memory is handed out "
            "in small pieces as sequences grow.",
        ],
        [["t-01:05"], ["s-03", "n-03"]],
    )
    zh = draft(
        "zh",
        [
            "在演讲者自己的基准测试中，吞吐量提升了2.2倍。",
            "缓存被切分为每块16个令牌的块，随序列增长按需分配。",
        ],
        [["t-01:05"], ["s-03", "n-03"]],
        title="标题",
    )
    result = review(en, zh)
    assert result.verdict == "pass", [c for c in result.checks if not c.passed]


def test_unknown_citations_invented_numbers_and_english_zh_are_found():
    en = draft("en", ["Throughput rose 3.5 times.", "No source."], [["t-01:05"], ["x-99"]])
    zh = draft("zh", ["Throughput rose 3.5 times.", "没有来源。"], [["t-01:05"], ["x-99"]])
    checks = {c.name: c for c in review(en, zh).checks}
    assert not checks["citations_resolve"].passed
    assert any("x-99" in f for f in checks["citations_resolve"].findings)
    assert not checks["numbers_grounded"].passed
    assert any("3.5" in f for f in checks["numbers_grounded"].findings)
    assert not checks["languages"].passed
    assert checks["same_structure"].passed


def test_repeated_paragraphs_are_found():
    en = draft("en", ["Paging keeps waste low.", "Paging keeps waste low!"], [["s-03"], ["s-03"]])
    zh = draft("zh", ["分页使浪费很低。", "分页使浪费很低！"], [["s-03"], ["s-03"]])
    checks = {c.name: c for c in review(en, zh).checks}
    assert checks["no_repeated_paragraphs"].findings == ["en §1¶2 repeats en §1¶1"]


def test_different_structure_is_found():
    en = draft("en", ["One.", "Two."], [["s-03"], ["s-03"]])
    zh = draft("zh", ["一。"], [["s-03"]])
    checks = {c.name: c for c in review(en, zh).checks}
    assert not checks["same_structure"].passed


def test_fragments_and_restated_titles_are_not_substantive():
    en = draft("en", ["T results", "Too short to say anything."], [["s-03"], ["s-03"]])
    zh = draft("zh", ["标题结果", "太短了。"], [["s-03"], ["s-03"]])
    checks = {c.name: c for c in review(en, zh).checks}
    assert not checks["substantive_paragraphs"].passed
    assert len(checks["substantive_paragraphs"].findings) == 2


def test_a_long_title_copied_as_the_paragraph_is_found():
    title = "The cache eats GPU memory because every request keeps keys and values for every token"
    en = draft("en", [title], [["s-03"]], title=title)
    zh = draft("zh", ["缓存占用内存。"], [["s-03"]])
    findings = {c.name: c.findings for c in review(en, zh).checks}
    assert findings["substantive_paragraphs"] == ["en §1¶1: restates the chapter title"]


def review(english: DraftText, chinese: DraftText):
    return review_draft(Draft(en=english, zh=chinese), EVIDENCE)
