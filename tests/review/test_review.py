import pytest

from pipeline.core.prompts import load_prompt
from pipeline.review import review as review_draft
from pipeline.schema import (
    Draft,
    DraftParagraph,
    DraftSection,
    DraftText,
    Evidence,
    EvidenceUnit,
    Revision,
)

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
PROMPTS = [
    load_prompt(n) for n in ("notes", "outline", "rewrite_facts_en", "translate_sentences_zh")
]


def text(lang: str, paragraphs: list[str], title: str) -> DraftText:
    pars = [DraftParagraph(text=t, citations=c) for t, c in zip(paragraphs, CITES, strict=True)]
    section = DraftSection(role="results", title=title, paragraphs=pars)
    return DraftText(lang=lang, title=title, summary="", sections=[section])


def review(en=EN, zh=ZH, en_title="Paging the cache", revisions=()):
    draft = Draft(
        en=text("en", en, en_title), zh=text("zh", zh, "缓存分页"), revisions=list(revisions)
    )
    result = review_draft(draft, EVIDENCE, "en", ["static batching"], PROMPTS)
    return result, {c.name: c for c in result.checks}


def test_a_faithful_pair_passes_every_check_and_carries_the_revisions():
    revision = Revision(where="en §1¶1", findings=["unsupported: 'x'"], action="dropped")
    result, checks = review(revisions=[revision])
    assert result.verdict == "pass", [c for c in result.checks if not c.passed]
    assert result.revisions == [revision]


@pytest.mark.parametrize(
    ("en", "zh", "title", "check", "finding"),
    [
        ([EN[0].replace("2.2", "2.5"), EN[1]], ZH, None, "numbers_grounded", "2.5 is not in"),
        (
            [EN[0] + " Each sentence states only what its own item states.", EN[1]],
            ZH,
            None,
            "no_prompt_echo",
            "en §1¶1",
        ),
        ([EN[0], EN[1] + " 每块 16 个 token。"], ZH, None, "languages", "en §1¶2"),
        (EN, [ZH[0], "The cache is handed out on demand in blocks."], None, "languages", "zh §1¶2"),
        ([EN[0], EN[0]], ZH, None, "no_duplicate_paragraphs", "en §1¶2 repeats en §1¶1"),
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
            [EN[0], EN[1] + " Startups save millions with it."],
            ZH,
            None,
            "sentences_supported",
            "Startups",
        ),
        (EN, [ZH[0], "缓存按需分配，每块 32 个 token。"], None, "numbers_grounded", "zh §1¶2"),
        ([EVIDENCE.units[0].text, EN[1]], ZH, None, "own_words", "en: 52% of the text is"),
    ],
)
def test_a_seeded_fault_fails_its_check(en, zh, title, check, finding):
    result, checks = review(en, zh, title or "Paging the cache")
    assert result.verdict == "fail"
    assert not checks[check].passed
    assert any(finding in f for f in checks[check].findings), checks[check].findings


def test_two_chapters_under_one_heading_fail():
    draft = Draft(en=text("en", EN, "Paging"), zh=text("zh", ZH, "分页"))
    for lang in (draft.en, draft.zh):
        lang.sections.append(lang.sections[0].model_copy())
    checks = {c.name: c for c in review_draft(draft, EVIDENCE, "en", [], PROMPTS).checks}
    assert checks["headings_name_chapters"].findings == [
        "zh §2 title: '分页' heads §1 too",
        "en §2 title: 'Paging' heads §1 too",
    ]


def test_unknown_and_missing_citations_are_found():
    draft = Draft(en=text("en", EN, "T"), zh=text("zh", ZH, "标题"))
    draft.en.sections[0].paragraphs[1].citations = ["x-99"]
    draft.zh.sections[0].paragraphs[1].citations = []
    checks = {c.name: c for c in review_draft(draft, EVIDENCE, "en", [], PROMPTS).checks}
    assert "en §1¶2: unknown evidence id x-99" in checks["citations"].findings
    assert "zh §1¶2: no citation" in checks["citations"].findings
    assert not checks["same_structure"].passed


def test_a_number_moved_to_another_subject_fails_numbers_bound():
    slide = EvidenceUnit(
        id="s-04",
        kind="slide",
        text="Releases\nv0.1 — 5x higher throughput with automatic KV cache reuse\n"
        "v0.2 — 3x higher throughput with a low-overhead CPU runtime",
        slide=4,
    )
    evidence = Evidence(units=[*EVIDENCE.units, slide])
    misbound = "Automatic KV cache reuse brought 3x higher throughput in v0.2."
    faithful = "Automatic KV cache reuse brought 5x higher throughput in v0.1."
    for en, passed in ((misbound, False), (faithful, True)):
        pars = [DraftParagraph(text=t, citations=["s-04"]) for t in (en, EN[1])]
        section = DraftSection(role="results", title="Releases", paragraphs=pars)
        zh_pars = [
            DraftParagraph(text=t, citations=["s-04"])
            for t in ("自动 KV cache 复用带来更高吞吐。", ZH[1])
        ]
        draft = Draft(
            en=DraftText(lang="en", title="Releases", sections=[section]),
            zh=DraftText(
                lang="zh",
                title="版本",
                sections=[section.model_copy(update={"paragraphs": zh_pars})],
            ),
        )
        checks = {c.name: c for c in review_draft(draft, evidence, "en", [], PROMPTS).checks}
        assert checks["numbers_bound"].passed is passed, checks["numbers_bound"].findings


def test_word_by_word_chinese_terms_fail_terminology():
    zh = [ZH[0], "缓存按需分配，每块 16 个令牌。"]
    result, checks = review(EN, zh)
    assert not checks["terminology"].passed
    assert any("zh §1¶2" in f and "令牌" in f for f in checks["terminology"].findings)
    assert result.card.verdict == "需修改"  # a wording fault, not a trust fault


def test_a_placeholder_translation_fails_translations_faithful():
    result, checks = review(EN, [ZH[0], "这一段的译文。"])
    assert not checks["translations_faithful"].passed
    assert any(f.startswith("zh §1¶2") for f in checks["translations_faithful"].findings)
    assert result.card.verdict != "推荐收录"
