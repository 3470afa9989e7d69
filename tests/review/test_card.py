import pytest
from pydantic import ValidationError

from pipeline.review import review as review_ledger
from pipeline.review.card import place_of
from pipeline.schema import Place
from pipeline.schema.checks import ARTICLE_CHECKS, SentenceCheck
from pipeline.site.pages import anchor_of
from tests.review.test_review import EN, EVIDENCE, PROMPTS, ZH, ledger, review


def test_a_faithful_article_is_recommended_with_its_grounds_readers_and_risks():
    result, _ = review()
    card = result.card
    assert card.verdict == "推荐收录" and card.reasons == ["全部自动检查通过"]
    assert (
        card.summary.startswith("文章讲缓存分页；实测")
        and "实测在演讲者自己的基准测试中" in card.summary
    )
    assert "2 处数字均可追溯到演讲原文" in card.assessment
    assert "数据为演讲者自测" in card.assessment and "未经独立复现" in card.assessment


@pytest.mark.parametrize(
    ("en", "zh", "verdict", "reason"),
    [
        # an invented number: the article says what the talk did not
        ([EN[0].replace("2.2", "2.5"), EN[1]], ZH, "不推荐收录", "sentences_grounded"),
        # a name its source never said
        (
            [EN[0], EN[1] + " Startups save millions with vLLM."],
            ZH,
            "不推荐收录",
            "sentences_grounded",
        ),
        # the prompt echoed into the article
        (
            [EN[0] + " The sentence states only what the item states.", EN[1]],
            ZH,
            "不推荐收录",
            "no_prompt_echo",
        ),
        # an untranslated paragraph: fixable, but not publishable as it is
        (EN, [ZH[0], "The cache is handed out in blocks of 16 tokens."], "需修改", "languages"),
    ],
)
def test_a_failing_article_is_never_recommended(en, zh, verdict, reason):
    result, _ = review(en=en, zh=zh)
    assert result.verdict == "fail"
    assert result.card.verdict == verdict and ARTICLE_CHECKS[reason].zh in result.card.reasons[0]
    assert reason not in result.card.assessment  # a reviewer reads problems, not check ids


def test_a_fragment_heading_needs_editing():
    result, _ = review(title="16 tokens each, handed out")
    assert result.card.reasons == [
        "未通过检查：有标题是截断的幻灯片文字（英文标题、英文第 1 章标题）"
    ]


def failed_in(lang: str, kind: str = "fact"):
    """The ledger with the text in `lang` of its second fact (or of its first chapter's
    heading) failed twice: a fact left out, a heading kept with its best answer."""
    written = ledger()
    chapter = written.chapters[0]
    target = written.sentences[-1] if kind == "fact" else written.by_id()[chapter.heading]
    failed = target.text(lang)
    missed = [c.model_copy(update={"passed": False}) for c in failed.checks[:1]]
    missed = missed or [SentenceCheck(check="language", passed=False, detail="not zh")]
    update = {"left_out": kind == "fact", "rejected": missed}
    setattr(target, lang, failed.model_copy(update=update))
    return written.model_copy(update={"plan": written.chapters}).arranged()


def test_a_heading_kept_with_findings_needs_a_reader_before_publishing():
    result = review_ledger(failed_in("zh", "heading"), EVIDENCE, "en", [], PROMPTS)
    assert result.card.verdict == "需修改" and "中文第 1 章标题" in result.card.reasons[0]
    assert "保留了最好的一次（中文第 1 章标题）" in result.card.assessment


def test_an_article_of_one_paragraph_is_not_recommended():
    result, _ = review(en=EN[:1] + [EN[0]], zh=ZH[:1] + [ZH[0]])
    assert result.card.verdict != "推荐收录"


def test_a_fact_left_out_is_counted_on_the_card_and_not_printed():
    left = failed_in("en")
    result = review_ledger(left, EVIDENCE, "en", [], PROMPTS)
    assert "另有 1 条事实因模型写的句子两次未通过检查而没有写进文章" in result.card.assessment
    assert "1 fact(s) were left out" in result.card.en.assessment
    fact = left.sentences[-1]
    printed = " ".join(p.text for s in left.text("zh").sections for p in s.paragraphs)
    assert (
        fact.zh.text not in printed
        and fact.en.text not in left.draft().en.sections[0].paragraphs[0].text
    )
    assert "没有写进文章" not in review()[0].card.assessment


def test_a_strength_is_said_only_where_its_check_passed():
    result, _ = review(en=[EN[0].replace("2.2", "2.5"), EN[1]])
    assert result.card.reasons == [
        "未通过可信度检查：有句子的数字或名称不在它的出处中（英文第 1 章第 1 段）"
    ]
    assert "可追溯" not in result.card.assessment


def test_a_forecast_is_never_quoted_as_a_measurement():
    forecast = "下一个版本预计带来 10 到 20% 的性能提升。"
    zh = [forecast + ZH[0], ZH[1]]
    result, _ = review(zh=zh)
    assert "实测下一个版本" not in result.card.summary
    assert "实测在演讲者自己的基准测试中" in result.card.summary  # the measured one is


def test_the_english_card_says_what_the_chinese_one_says():
    card = review()[0].card
    assert card.en.verdict == "Recommended" and card.en.reasons == ["every automatic check passed"]
    assert card.en.summary.startswith("The article covers Paging the cache")
    assert "measured: In the speaker's own benchmark, throughput was 2.2 times" in card.en.summary
    assert "all 2 numbers trace back to the talk" in card.en.assessment
    assert "speaker's own measurements" in card.en.assessment
    failed = review(en=[EN[0].replace("2.2", "2.5"), EN[1]])[0].card
    assert failed.en.verdict == "Not recommended"
    assert failed.en.reasons == [
        "failed a trust check: a sentence has a number or name its source lacks "
        "(English chapter 1, paragraph 1)"
    ]
    assert "trace back" not in failed.en.assessment


def test_a_measurement_in_seconds_is_one():
    from pipeline.review.card import first_sentence
    from pipeline.schema import DraftParagraph, DraftSection

    said = "It shipped in 2024. A single request takes about 0.8 seconds with xgrammar."
    section = DraftSection(
        title="R", role="results", paragraphs=[DraftParagraph(text=said, citations=["x"])]
    )
    assert first_sentence([section], measured=True) == (
        "A single request takes about 0.8 seconds with xgrammar"
    )


def test_the_code_summary_names_the_mechanisms_not_the_title_or_an_introduction():
    from pipeline.review.card import summary_of
    from pipeline.schema import DraftParagraph, DraftSection, DraftText

    def chapter(role: str, title: str) -> DraftSection:
        return DraftSection(
            role=role, title=title, paragraphs=[DraftParagraph(text="x。", citations=[])]
        )

    article = DraftText(
        lang="zh",
        title="缓存分页",
        sections=[
            chapter("problem", "介绍"),
            chapter("mechanism", "按需分块"),
            chapter("mechanism", "前缀共享"),
            chapter("results", "结果"),
        ],
    )
    assert summary_of(article) == "文章讲缓存分页：重点包括按需分块、前缀共享。"


@pytest.mark.parametrize(
    ("place", "zh", "en", "anchor"),
    [
        (
            Place(lang="en", part="paragraph", chapter=3, paragraph=4),
            "英文第 3 章第 4 段",
            "English chapter 3, paragraph 4",
            "p-3-4",
        ),
        (
            Place(lang="zh", part="heading", chapter=2),
            "中文第 2 章标题",
            "Chinese chapter 2, heading",
            "c-2",
        ),
        (Place(lang="zh", part="summary"), "中文摘要", "Chinese summary", None),
        (Place(lang="en", part="text"), "英文全文", "English text", None),
        (Place(part="tags"), "标签", "tags", None),
        (
            Place(lang="en", part="sentence", sentence="f-12"),
            "英文句子 f-12",
            "English sentence f-12",
            None,
        ),
    ],
)
def test_a_place_is_said_in_a_reviewers_words_and_linked_where_the_proof_page_has_it(
    place, zh, en, anchor
):
    assert (place_of(place, "zh"), place_of(place, "en"), anchor_of(place)) == (zh, en, anchor)


def test_a_place_without_what_locates_it_is_refused():
    with pytest.raises(ValidationError):
        Place(lang="en", part="paragraph", chapter=3)
