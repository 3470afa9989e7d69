"""Fact sentences: one source each, verified against that source alone."""

import json
import re

import httpx
import pytest

from pipeline.core.grounding import number_forms
from pipeline.core.prompts import load_prompt
from pipeline.core.text import numbers
from pipeline.ledger.facts import line_of, rewrite_facts
from pipeline.llm.client import EndpointError
from pipeline.notes.sources import fact_sources
from pipeline.schema import Evidence, EvidenceUnit
from pipeline.schema.ledger import joined
from tests.llm_double import asked_item, scripted_llm

EVIDENCE = Evidence(
    units=[
        EvidenceUnit(
            id="t-00:01:05",
            kind="transcript",
            text="So I think reserving the max length wastes 60 to 80 percent of memory. "
            "We fill each block with 16 tokens.",
            start=65.0,
            slide=2,
        ),
        EvidenceUnit(
            id="s-02",
            kind="slide",
            text="PagedAttention\nBlocks of 16 tokens, handed out on demand\nNext:\n"
            "| GPU | Throughput |\n| --- | --- |\n| A100 | 2.2x vLLM |\n| H100 | 3.1x vLLM |",
            slide=2,
        ),
    ]
)
PROMPT = load_prompt("rewrite_facts_en")
ITEM = re.compile(r"^\(([^)]*)\) (.*)$", re.S)


def answering(write) -> callable:
    """An endpoint that answers the item it is given, "(kind) text", with write(kind, text)."""

    def reply(body: dict) -> str:
        return json.dumps({"text": write(*ITEM.match(asked_item(body)).groups())})

    return reply


def test_a_talk_is_cut_into_one_source_per_line_row_and_sentence():
    sources = fact_sources(EVIDENCE)
    assert [(s.id, s.kind, s.context) for s in sources] == [
        ("t-00:01:05.0", "speech", ""),
        ("t-00:01:05.1", "speech", ""),
        ("s-02.0", "slide", "PagedAttention"),  # the title is context, "Next:" no fact
        ("s-02.2", "table", "GPU | Throughput"),
        ("s-02.3", "table", "GPU | Throughput"),
    ]
    assert sources[3].text == "GPU: A100; Throughput: 2.2x vLLM"  # a number beside its column
    # the model is given speech without its opener, the source stays as said
    assert line_of(sources[0], "en").startswith("(said) I think") and sources[0].text.startswith(
        "So"
    )
    assert line_of(sources[1], "en") == "(said) Each block is filled with 16 tokens."


def test_a_faithful_rewrite_is_verified_and_cites_its_unit():
    sources = fact_sources(EVIDENCE)[2:]
    llm, endpoint = scripted_llm(
        answering(lambda _, t: f"The measured value is {t.replace(';', ',').replace(': ', ' ')}.")
    )
    ledger = rewrite_facts(sources, "en", llm, PROMPT, ["PagedAttention"])
    assert [s.en.verified for s in ledger] == [True, True, True] and len(endpoint.requests) == 3
    assert "keep these names as they are: PagedAttention)" in endpoint.user_messages()[0]
    assert [s.units for s in ledger] == [["s-02"], ["s-02"], ["s-02"]]
    assert ledger[0].id == "f-s-02.0" and ledger[0].zh is None


def test_a_number_can_only_stand_in_the_sentence_of_its_own_source():
    # The small model's known fault: an answer that says another item, with its numbers.
    sources = fact_sources(EVIDENCE)
    texts = [s.text for s in sources]
    given = [line_of(s, "en").split(") ", 1)[1] for s in sources]

    def another(_, text):  # the item is its source as given ("So, " taken off speech)
        return texts[(given.index(text) + 1) % len(texts)]

    llm, endpoint = scripted_llm(answering(another))
    ledger = rewrite_facts(sources, "en", llm, PROMPT, [])
    own = {s.id: s.text for s in sources}
    for sentence in (s for s in ledger if s.printed or not s.en.left_out):
        assert numbers(sentence.en.text) <= number_forms(own[sentence.source]), sentence
    assert all(s.en.left_out for s in ledger[3:])  # 2.2x stays A100's: left out, not printed
    assert [c.check for c in ledger[3].en.rejected][:1] == ["numbers"]  # why, for the reviewer
    assert ledger[3].en.calls == 2  # what it cost: its translation gets one call
    assert len(endpoint.requests) == 2 * len(sources)  # each asked again with what failed
    again = [r["messages"][0]["content"] for r in endpoint.requests[len(sources) :]]
    assert any("use exactly the numbers of the item (" in system for system in again)


def test_the_speakers_voice_is_asked_away_or_stays_visible():
    first = fact_sources(EVIDENCE)[:1]
    replies = iter(["I think reserving the max length wastes 60 to 80 percent of memory."])
    passive = "Reserving the maximum length wastes 60 to 80 percent of memory."
    llm, _ = scripted_llm(answering(lambda *_: next(replies, passive)))
    (sentence,) = rewrite_facts(first, "en", llm, PROMPT, [])
    assert sentence.en.text == passive and sentence.en.verified
    llm, _ = scripted_llm(answering(lambda _, t: t))  # the model keeps the "I" twice
    (kept,) = rewrite_facts(first, "en", llm, PROMPT, [])
    assert kept.en.left_out and [c.check for c in kept.en.rejected] == ["voice"]


def test_garbage_twice_is_left_out_never_the_source_and_an_outage_fails():
    sources = fact_sources(EVIDENCE)[:3:2]  # a sentence said, a slide line
    llm, _ = scripted_llm(["garbage"] * 8)
    said, shown = rewrite_facts(sources, "en", llm, PROMPT, [])
    for sentence, source in ((said, sources[0]), (shown, sources[1])):
        assert sentence.en.left_out and sentence.en.rejected  # what the answers failed, kept
        assert sentence.en.text != source.text and sentence.kind == "fact"
    llm, _ = scripted_llm(lambda body: httpx.Response(503, json={"error": "down"}))
    with pytest.raises(EndpointError):
        rewrite_facts(sources, "en", llm, PROMPT, [])


def test_long_speech_is_cut_at_its_clauses_and_a_bare_link_is_no_fact():
    said = (
        "所谓的高吞吐，这是指我们的整个推理框架有很多的人去访问，我们需要做到非常高的吞吐，"
        "能够处理非常多的数据，但是处理数据多的时候，就会导致延迟增加"
    )
    units = [
        EvidenceUnit(id="t-00:02:00", kind="transcript", text=said, start=120.0),
        EvidenceUnit(id="s-04", kind="slide", text="Links\nhttps://github.com/x/y/issues/4042"),
    ]
    sources = fact_sources(Evidence(language="zh", units=units))
    assert [s.id for s in sources] == ["t-00:02:00.0", "t-00:02:00.1"]
    assert all(len(s.text) <= 60 for s in sources) and sources[0].text.endswith("数据，")
    assert "".join(s.text for s in sources).replace("，", "") == said.replace("，", "")


def test_a_slide_line_kept_as_a_label_is_left_out_and_a_written_one_printed():
    sources = fact_sources(EVIDENCE)[2:]
    llm, _ = scripted_llm(answering(lambda _, t: t.rstrip(".")))  # labels, as shown
    ledger = rewrite_facts(sources, "en", llm, PROMPT, ["PagedAttention"])
    assert all(s.en.left_out and s.en.rejected[-1].check == "sentence" for s in ledger)
    agenda = Evidence(
        units=[
            EvidenceUnit(
                id="s-03",
                kind="slide",
                text="Review\nHierarchical KV Caching Integration\nUp to 6x faster via KV reuse",
                slide=3,
            )
        ]
    )
    written = "The system integrates hierarchical KV caching."
    claim = "KV reuse makes serving up to 6x faster."
    llm, endpoint = scripted_llm(answering(lambda _, t: written if "Caching" in t else claim))
    label, said = rewrite_facts(fact_sources(agenda), "en", llm, PROMPT, [])
    assert (
        '(slide line of "Review") Hierarchical KV Caching Integration'
        in (endpoint.user_messages()[0])
    )  # the line with its slide's title as context
    assert label.en.text == written and label.en.verified and label.kind == "fact"
    assert said.en.text == claim and said.en.verified
    assert joined([label, said], "en") == f"{written} {claim}"
