import json

import pytest

from pipeline.llm.client import LLMError
from pipeline.prompts import load_prompt
from pipeline.schema import CAUSAL_ORDER, Evidence, EvidenceUnit, Outline, OutlineSection, TalkMeta
from pipeline.writing.draft import ROLE_GOALS, DraftPrompts, write_drafts
from pipeline.writing.outline import build_outline
from tests.llm_double import scripted_llm

EVIDENCE = Evidence(
    units=[
        EvidenceUnit(
            id="t-00:00",
            kind="transcript",
            text="Memory is wasted: 60 to 80 percent.",
            start=0.0,
            end=9.0,
        ),
        EvidenceUnit(id="s-02", kind="slide", text="Blocks of 16 tokens", slide=2),
    ],
)


def outline_reply(ids: list[str]) -> str:
    chapters = {role: {"title": f"{role} title", "evidence_ids": ids} for role in CAUSAL_ORDER}
    return json.dumps({"title": "A talk", **chapters})


def test_every_role_has_a_goal_and_is_named_in_the_outline_prompt():
    assert set(ROLE_GOALS) == set(CAUSAL_ORDER)
    prompt = load_prompt("outline")
    assert all(role in prompt.system and role in prompt.user for role in CAUSAL_ORDER)


def test_outline_has_five_causal_chapters():
    llm, endpoint = scripted_llm([outline_reply(["t-00:00", "s-02", "t-00:00"])])
    outline = build_outline(EVIDENCE, TalkMeta(title="Given title"), llm, load_prompt("outline"))
    assert [s.role for s in outline.sections] == list(CAUSAL_ORDER)
    assert outline.sections[0].evidence_ids == ["t-00:00", "s-02"]  # repeats dropped
    assert outline.title == "Given title"  # talk.yaml wins over the model's title
    assert "[s-02] Blocks of 16 tokens" in endpoint.user_messages()[0]


def test_outline_evidence_ids_that_do_not_exist_are_retried_then_an_error():
    llm, endpoint = scripted_llm([outline_reply(["t-09:99"])] * 3)
    with pytest.raises(LLMError, match="outline: no valid reply after 3 attempts"):
        build_outline(EVIDENCE, TalkMeta(), llm, load_prompt("outline"))
    assert len(endpoint.requests) == 3


def one_chapter_outline() -> Outline:
    section = OutlineSection(role="mechanism", title="Paging", evidence_ids=["s-02", "t-00:00"])
    return Outline(title="A talk", sections=[section])


def draft_prompts() -> DraftPrompts:
    return DraftPrompts(load_prompt("draft_section"), load_prompt("translate"))


def chapter(*paragraphs: dict) -> str:
    return json.dumps({"paragraphs": list(paragraphs)})


def chinese(*texts: str) -> list[str]:
    return [json.dumps({"zh": text}) for text in texts]


BLOCKS = {"text": "Blocks hold 16 tokens each.", "citations": ["s-02"]}


def test_drafts_share_structure_and_citations():
    waste = {"text": "Reservation wastes 60 to 80 percent.", "citations": ["t-00:00", "t-00:00"]}
    replies = [chapter(BLOCKS, waste)]
    replies += chinese(
        "每个块容纳 16 个 token。", "1. 预留浪费 60 到 80% 的内存。", "分页", "一次演讲"
    )
    llm, endpoint = scripted_llm(replies)
    draft = write_drafts(one_chapter_outline(), EVIDENCE, llm, draft_prompts())
    assert [p.citations for p in draft.en.sections[0].paragraphs] == [["s-02"], ["t-00:00"]]
    assert [p.citations for p in draft.zh.sections[0].paragraphs] == [["s-02"], ["t-00:00"]]
    assert draft.zh.sections[0].paragraphs[1].text == "预留浪费 60 到 80% 的内存。"  # no "1."
    assert (draft.zh.title, draft.zh.sections[0].title) == ("一次演讲", "分页")
    assert "[s-02] Blocks of 16 tokens" in endpoint.user_messages()[0]
    assert "Blocks hold 16 tokens each." in endpoint.user_messages()[1]


def test_citations_outside_the_chapter_are_retried_then_an_error():
    outside = chapter({"text": "Something long enough here.", "citations": ["n-09"]})
    llm, _ = scripted_llm([outside] * 3)
    with pytest.raises(LLMError, match="draft_section: no valid reply"):
        write_drafts(one_chapter_outline(), EVIDENCE, llm, draft_prompts())


def test_a_translation_left_in_english_is_retried():
    english_back = json.dumps({"zh": "Blocks hold 16 tokens each."})
    replies = [chapter(BLOCKS), english_back, *chinese("每块 16 个 token。", "分页", "演讲")]
    llm, endpoint = scripted_llm(replies)
    draft = write_drafts(one_chapter_outline(), EVIDENCE, llm, draft_prompts())
    assert draft.zh.sections[0].paragraphs[0].text == "每块 16 个 token。"
    assert "not written in Chinese" in endpoint.user_messages()[2]  # the retry says why


def two_chapter_outline() -> Outline:
    sections = [
        OutlineSection(role=role, title=role, evidence_ids=["s-02"])
        for role in ("mechanism", "results")
    ]
    return Outline(title="A talk", sections=sections)


def test_a_paragraph_repeated_from_an_earlier_chapter_is_dropped():
    new = {"text": "Throughput is what the blocks buy.", "citations": ["s-02"]}
    replies = [chapter(BLOCKS), chapter(BLOCKS, new)]
    replies += chinese("块。", "标题一", "吞吐。", "标题二", "演讲")
    llm, _ = scripted_llm(replies)
    draft = write_drafts(two_chapter_outline(), EVIDENCE, llm, draft_prompts())
    assert [p.text for p in draft.en.sections[1].paragraphs] == [new["text"]]


def test_a_chapter_with_nothing_new_is_left_out():
    replies = [chapter(BLOCKS), chapter(BLOCKS), *chinese("块。", "标题", "演讲")]
    llm, _ = scripted_llm(replies)
    draft = write_drafts(two_chapter_outline(), EVIDENCE, llm, draft_prompts())
    assert [s.role for s in draft.en.sections] == [s.role for s in draft.zh.sections]
    assert [s.role for s in draft.en.sections] == ["mechanism"]


ECHO = {
    "text": "How the proposed design works, step by step, and its trade-offs",
    "citations": ["s-02"],
}


def test_a_reply_that_only_echoes_the_instructions_is_an_error_after_retries():
    llm, _ = scripted_llm([chapter(ECHO)] * 3)
    with pytest.raises(LLMError, match="copies the instructions"):
        write_drafts(one_chapter_outline(), EVIDENCE, llm, draft_prompts())


def test_echoed_paragraphs_are_dropped_when_real_ones_remain():
    replies = [chapter(ECHO, BLOCKS), *chinese("每块 16 个 token。", "分页", "演讲")]
    llm, _ = scripted_llm(replies)
    draft = write_drafts(one_chapter_outline(), EVIDENCE, llm, draft_prompts())
    assert [p.text for p in draft.en.sections[0].paragraphs] == [BLOCKS["text"]]
