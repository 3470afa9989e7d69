"""The card the model writes: kept when it passes the checks, redrafted when it does not,
built in code when it fails twice."""

import json

from pipeline.core.prompts import load_prompt
from pipeline.draft import DraftPrompts, Writer
from pipeline.review import review as review_draft
from pipeline.review.written import CardFacts, card_findings
from pipeline.schema import Check, Draft
from tests.llm_double import PromptReplies, scripted_llm
from tests.review.test_review import EN, EVIDENCE, PROMPTS, ZH, text

SUMMARY = "文章讲缓存分页：重点包括按需分块；实测吞吐量是静态批处理的 2.2 倍。"
ASSESSMENT = "文章给出了分块的具体做法，适合推理服务工程师阅读，可用于估算自己的显存浪费。"
SUMMARY_EN = (
    "The article covers paging the cache: chiefly blocks on demand; measured: throughput "
    "was 2.2 times that of static batching."
)
ASSESSMENT_EN = (
    "The article gives the concrete way blocks are handed out; for inference-serving "
    "engineers, who can use it to estimate their own wasted memory."
)
FACTS = CardFacts(verdict="需修改", reasons=["未通过检查：有重复的句子"], strengths=[], risks=[])
ARTICLE = "缓存分页 Paging the cache 吞吐量是静态批处理的 2.2 倍 PagedAttention"


def reply(text: str) -> str:
    return json.dumps({"text": text}, ensure_ascii=False)


def reviewed(card_replies: list[str], translations: list[str]):
    draft = Draft(en=text("en", EN, "Paging the cache"), zh=text("zh", ZH, "缓存分页"))
    replies = PromptReplies(
        review_card=[reply(t) for t in card_replies],
        translate_en=[reply(t) for t in translations],
    )
    llm, endpoint = scripted_llm(replies)
    writer = Writer(llm, DraftPrompts.load(), EVIDENCE, [], "en")
    card_writer = (writer, load_prompt("review_card"))
    result = review_draft(draft, EVIDENCE, "en", ["static batching"], PROMPTS, (), card_writer)
    return result, endpoint


def test_the_model_writes_the_card_in_both_languages_after_the_rules_verdict():
    result, _ = reviewed([SUMMARY, ASSESSMENT], [SUMMARY_EN, ASSESSMENT_EN])
    card = result.card
    assert card.written and not result.fallbacks
    assert card.verdict == "推荐收录" and card.summary == SUMMARY
    assert card.assessment == f"推荐收录：全部自动检查通过。{ASSESSMENT}"
    assert card.en.summary == SUMMARY_EN
    assert card.en.assessment == f"Recommended: every automatic check passed. {ASSESSMENT_EN}"


def test_a_card_sentence_with_a_number_the_article_lacks_is_rejected_and_redrafted():
    invented = SUMMARY.replace("2.2", "3.5")
    result, endpoint = reviewed([invented, SUMMARY, ASSESSMENT], [SUMMARY_EN, ASSESSMENT_EN])
    assert result.card.written and result.card.summary == SUMMARY
    retry = endpoint.requests[1]["messages"][0]["content"]
    assert "the number 3.5 is not in the article" in retry


def test_a_card_failing_twice_is_built_in_code_and_the_fallback_is_recorded():
    result, _ = reviewed([SUMMARY.replace("2.2", "3.5"), SUMMARY.replace("2.2", "4")], [])
    assert not result.card.written
    assert result.card.summary.startswith("文章讲缓存分页；实测")  # the code's card
    assert result.fallbacks and "the number 3.5 is not in the article" in result.fallbacks[0]
    assert "实测在演讲者自己的基准测试中" in result.card.summary


def test_a_translation_that_fails_twice_leaves_both_languages_to_the_code():
    result, _ = reviewed([SUMMARY, ASSESSMENT], [SUMMARY_EN.replace("2.2", "2")] * 2)
    assert not result.card.written and result.card.en.summary.startswith("The article covers")
    assert "en summary" in result.fallbacks[0]


def findings(text: str, part="assessment", checks=(), facts=FACTS) -> list[str]:
    return card_findings(text, part, ARTICLE, facts, list(checks), [])


def test_the_card_says_nothing_a_check_denies():
    failed = [Check(name="numbers_grounded", passed=False, findings=["en §1¶1: 9 …"])]
    assert findings("文中数字均可追溯到演讲。", checks=failed) == [
        "'可追溯' is not what the checks found"
    ]
    passed = [Check(name=n, passed=True) for n in ("citations", "numbers_grounded")]
    assert findings("文中数字均可追溯到演讲。", checks=passed) == []  # the others did not run
    assert findings("所有检查都已通过。", checks=failed) == [
        "'都已通过' is not what the checks found"
    ]


def test_the_card_gives_only_the_rules_verdict_and_measurements_as_measured():
    assert findings("因此推荐收录。") == [
        "it gives the verdict 推荐收录 (the rules' verdict is 需修改)"
    ]
    assert findings("需修改的地方不多。") == []  # the rules' verdict, said again
    forecast = "文章讲缓存分页：实测预计下一个版本提升 2.2 倍。"
    assert findings(forecast, "summary") == [f"'实测' before no measurement: {forecast!r}"]
    assert findings("文章讲缓存分页：重点包括 vAttention。", "summary") == [
        "the name 'vAttention' is not in the article"
    ]
    assert findings("适合 LLM 推理与 SRE 工程师阅读。") == []  # reader roles
    assert findings("文中 3 处数字有出处。", facts=FACTS) == ["the number 3 is not in the article"]
    counted = CardFacts("需修改", [], ["文中 3 处数字均可追溯到演讲原文"], [])
    assert findings("文中 3 处数字有出处。", facts=counted) == []  # a count of the checks
    assert findings("缓存分页值得一读。", "summary") == [
        "the summary does not open with what the article says (文章讲……)"
    ]
