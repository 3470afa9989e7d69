import json

import pytest
from pydantic import ValidationError

from pipeline.draft import DraftPrompts, write_drafts
from pipeline.llm import FakeLLM
from pipeline.outline import build_outline
from pipeline.prompts import load_prompt
from pipeline.schema import Evidence, EvidenceUnit, Outline, OutlineSection, TalkMeta
from pipeline.schema.article import CAUSAL_ORDER
from pipeline.settings import REPO_ROOT
from pipeline.store import provenance

PROMPTS = REPO_ROOT / "prompts"
EVIDENCE = Evidence(
    provenance=provenance("evidence", {}),
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


def test_outline_has_five_causal_chapters_and_records_the_prompt():
    llm = FakeLLM([outline_reply(["t-00:00", "s-02", "t-00:00"])])
    outline = build_outline(
        EVIDENCE, TalkMeta(title="Given title"), llm, load_prompt(PROMPTS, "outline")
    )
    assert [s.role for s in outline.sections] == list(CAUSAL_ORDER)
    assert outline.sections[0].evidence_ids == ["t-00:00", "s-02"]  # repeats dropped
    assert outline.title == "Given title"  # talk.yaml wins over the model's title
    assert "[s-02] Blocks of 16 tokens" in llm.prompts[0].user
    assert outline.provenance.prompts == {"outline": load_prompt(PROMPTS, "outline").sha256}


def test_outline_rejects_evidence_ids_that_do_not_exist():
    llm = FakeLLM([outline_reply(["t-09:99"])])
    with pytest.raises(ValidationError):
        build_outline(EVIDENCE, TalkMeta(), llm, load_prompt(PROMPTS, "outline"))


def one_chapter_outline() -> Outline:
    section = OutlineSection(role="mechanism", title="Paging", evidence_ids=["s-02", "t-00:00"])
    return Outline(title="A talk", sections=[section], provenance=provenance("outline", {}))


def draft_prompts() -> DraftPrompts:
    return DraftPrompts(load_prompt(PROMPTS, "draft_section"), load_prompt(PROMPTS, "translate"))


def test_drafts_share_structure_and_citations():
    replies = [
        json.dumps(
            {
                "paragraphs": [
                    {"text": "Blocks hold 16 tokens each.", "citations": ["s-02"]},
                    {
                        "text": "Reservation wastes 60 to 80 percent.",
                        "citations": ["t-00:00", "t-00:00"],
                    },
                ]
            }
        ),
        json.dumps({"zh": "每个块容纳 16 个 token。"}),
        json.dumps({"zh": "1. 预留浪费 60 到 80% 的内存。"}),
        json.dumps({"zh": "分页"}),
        json.dumps({"zh": "一次演讲"}),
    ]
    llm = FakeLLM(replies)
    en, zh = write_drafts(one_chapter_outline(), EVIDENCE, llm, draft_prompts())
    assert [p.citations for p in en.sections[0].paragraphs] == [["s-02"], ["t-00:00"]]
    assert [p.citations for p in zh.sections[0].paragraphs] == [["s-02"], ["t-00:00"]]
    assert zh.sections[0].paragraphs[1].text == "预留浪费 60 到 80% 的内存。"  # numbering gone
    assert (zh.title, zh.sections[0].title) == ("一次演讲", "分页")
    assert "[s-02] Blocks of 16 tokens" in llm.prompts[0].user
    assert "Blocks hold 16 tokens each." in llm.prompts[1].user


def test_draft_rejects_citations_outside_the_chapter_and_english_translations():
    outside = json.dumps(
        {"paragraphs": [{"text": "Something long enough here.", "citations": ["n-09"]}]}
    )
    with pytest.raises(ValidationError):
        write_drafts(one_chapter_outline(), EVIDENCE, FakeLLM([outside]), draft_prompts())
    valid = json.dumps(
        {"paragraphs": [{"text": "Blocks hold 16 tokens each.", "citations": ["s-02"]}]}
    )
    english_back = json.dumps({"zh": "Blocks hold 16 tokens each."})
    with pytest.raises(ValidationError, match="not written in Chinese"):
        write_drafts(
            one_chapter_outline(), EVIDENCE, FakeLLM([valid, english_back]), draft_prompts()
        )


def test_a_paragraph_repeated_from_an_earlier_chapter_is_dropped():
    sections = [
        OutlineSection(role=role, title=role, evidence_ids=["s-02"])
        for role in ("mechanism", "results")
    ]
    outline = Outline(title="A talk", sections=sections, provenance=provenance("outline", {}))
    same = {"text": "Blocks hold 16 tokens each.", "citations": ["s-02"]}
    new = {"text": "Throughput is what the blocks buy.", "citations": ["s-02"]}
    replies = [json.dumps({"paragraphs": [same]}), json.dumps({"paragraphs": [same, new]})]
    replies += [json.dumps({"zh": text}) for text in ("块。", "标题一", "吞吐。", "标题二", "演讲")]
    en, _ = write_drafts(outline, EVIDENCE, FakeLLM(replies), draft_prompts())
    assert [p.text for p in en.sections[1].paragraphs] == [new["text"]]


def test_a_chapter_with_nothing_new_is_left_out():
    sections = [
        OutlineSection(role=role, title=role, evidence_ids=["s-02"])
        for role in ("mechanism", "results")
    ]
    outline = Outline(title="A talk", sections=sections, provenance=provenance("outline", {}))
    same = json.dumps(
        {"paragraphs": [{"text": "Blocks hold 16 tokens each.", "citations": ["s-02"]}]}
    )
    replies = [same, same] + [json.dumps({"zh": t}) for t in ("块。", "标题", "演讲")]
    en, zh = write_drafts(outline, EVIDENCE, FakeLLM(replies), draft_prompts())
    assert [s.role for s in en.sections] == [s.role for s in zh.sections] == ["mechanism"]


ECHO = {
    "text": "How the proposed design works, step by step, and its trade-offs",
    "citations": ["s-02"],
}


def test_a_reply_that_only_echoes_the_instructions_is_rejected():
    echo = json.dumps({"paragraphs": [ECHO]})
    with pytest.raises(ValidationError, match="copies the instructions"):
        write_drafts(one_chapter_outline(), EVIDENCE, FakeLLM([echo]), draft_prompts())


def test_echoed_paragraphs_are_dropped_when_real_ones_remain():
    real = {"text": "Blocks hold 16 tokens each.", "citations": ["s-02"]}
    replies = [
        json.dumps({"paragraphs": [ECHO, real]}),
        json.dumps({"zh": "每块 16 个 token。"}),
        json.dumps({"zh": "分页"}),
        json.dumps({"zh": "演讲"}),
    ]
    en, _ = write_drafts(one_chapter_outline(), EVIDENCE, FakeLLM(replies), draft_prompts())
    assert [p.text for p in en.sections[0].paragraphs] == [real["text"]]
