"""The companion in questions and answers: answers are the article's own verified
sentences; the model asks one question per answer, checked against that answer alone."""

import json

from pipeline.ledger import LedgerPrompts
from pipeline.questions import QuestionPrompts, Topic, question_topics, write_questions
from pipeline.schema.ledger import (
    Ledger,
    LedgerChapter,
    LedgerParagraph,
    LedgerSentence,
    Written,
)
from tests.llm_double import PromptReplies, asked_item, scripted_llm

WASTE = (
    "Reserving the maximum length wastes 60 to 80 percent of the KV cache memory.",
    "预留最大长度会浪费 60 到 80% 的 KV cache 内存。",
)
BLOCKS = (
    "PagedAttention stores the KV cache in blocks of 16 tokens handed out on demand.",
    "PagedAttention 把 KV cache 存进 16 个 token 的块中，按需分配。",
)
SHAKY = ("The speaker says the blocks help.", "讲者说块有帮助。")


def sentence(id: str, kind: str, en: str, zh: str, unit: str = "", verified=True):
    def text(t: str) -> Written:
        return Written(text=t, left_out=not verified)

    return LedgerSentence(id=id, kind=kind, units=[unit] if unit else [], en=text(en), zh=text(zh))


def ledger() -> Ledger:
    facts = [
        sentence("f-1", "fact", *WASTE, unit="t-00:00:00"),
        sentence("f-2", "fact", *BLOCKS, unit="t-00:00:06"),
        sentence("f-3", "fact", *SHAKY, unit="t-00:00:09", verified=False),
    ]
    chapters = [
        LedgerChapter(
            heading="h-1", sections=["sec-01"], paragraphs=[LedgerParagraph(sentences=["f-1"])]
        ),
        LedgerChapter(
            heading="h-2",
            sections=["sec-02"],
            paragraphs=[LedgerParagraph(sentences=["f-2", "f-3"])],
        ),
    ]
    return Ledger(
        language="en",
        title="title",
        summary="summary",
        chapters=chapters,
        sentences=[
            sentence("title", "title", "Paging the KV cache", "分页管理 KV cache"),
            sentence("summary", "summary", "Why paging wins.", "分页为何胜出。"),
            sentence("h-1", "heading", "Memory waste", "显存浪费"),
            sentence("h-2", "heading", "Blocks on demand", "按需分块"),
            *facts,
        ],
    )


ASKED = {
    "q-1": "How much KV cache memory does reserving the maximum length waste?",
    "q-2": "How does PagedAttention store the KV cache?",
}
TRANSLATED = {
    ASKED["q-1"]: "预留最大长度会浪费多少 KV cache 内存？",
    ASKED["q-2"]: "PagedAttention 如何存放 KV cache？",
}


ANSWERS = {"q-1": WASTE[0], "q-2": BLOCKS[0]}


def answering(questions: dict, translations: dict):
    def ask(body):
        item = asked_item(body)
        return json.dumps({"text": next(questions[q] for q, a in ANSWERS.items() if a in item)})

    def translate(body):
        item = asked_item(body)
        return json.dumps({"text": translations.get(item, item)})

    replies = PromptReplies(ask_question_en=ask, translate_sentences_zh=translate)
    llm, endpoint = scripted_llm(replies)
    done = write_questions(
        ledger(), ["PagedAttention"], llm, QuestionPrompts.load(), LedgerPrompts.load()
    )
    return done, endpoint


def test_each_answer_is_the_articles_own_verified_sentences_in_both_languages():
    questions, endpoint = answering(ASKED, TRANSLATED)
    # the unverified sentence is no part of an answer
    assert [i.sentences for i in questions.en.items] == [["f-1"], ["f-2"]]
    assert [(q, a.text) for q, a in questions.answered(ledger(), "en")] == [
        (ASKED["q-1"], WASTE[0]),
        (ASKED["q-2"], BLOCKS[0]),
    ]
    zh = questions.answered(ledger(), "zh")
    assert [(q, a.text) for q, a in zh] == [
        (TRANSLATED[ASKED["q-1"]], WASTE[1]),
        (TRANSLATED[ASKED["q-2"]], BLOCKS[1]),
    ]
    assert [a.citations for _, a in zh] == [["t-00:00:00"], ["t-00:00:06"]]
    assert "(chapter: Memory waste)" in endpoint.user_messages()[0]
    # two questions are not a companion worth its page: visible, never plain `succeeded`
    assert questions.fallbacks == ["only 2 questions passed"]


def test_a_question_with_a_number_or_no_question_mark_is_dropped_after_two_answers():
    bad = {"q-1": "Why does reserving waste 90 percent?", "q-2": "PagedAttention stores blocks."}
    questions, endpoint = answering(bad, TRANSLATED)
    assert questions.en.items == [] and questions.zh.items == []
    assert [(str(r.place), r.action) for r in questions.revisions] == [
        ("en q-1", "dropped"),
        ("en q-2", "dropped"),
    ]
    assert "numbers" in [c.check for c in questions.revisions[0].findings]
    assert "sentence" in [c.check for c in questions.revisions[1].findings]
    assert len(endpoint.requests) == 4  # each asked twice, nothing translated


def test_a_question_whose_translation_keeps_failing_leaves_both_languages():
    questions, _ = answering(ASKED, {})  # never Chinese
    assert questions.en.items == [] and questions.zh.items == []
    assert {str(r.place) for r in questions.revisions} == {"zh q-1", "zh q-2"}


def test_questions_are_spread_over_the_chapters_before_a_chapter_gets_a_second():
    runs = [[Topic("one", [])] * 3, [Topic("two", [])], [Topic("three", [])] * 2]
    picked = question_topics(runs, most=4)
    assert [t.chapter for t in picked] == ["one", "one", "two", "three"]


def test_a_question_whose_translation_no_longer_asks_leaves_both_languages():
    told = {
        ASKED["q-1"]: "预留最大长度会浪费 KV cache 内存。",
        ASKED["q-2"]: TRANSLATED[ASKED["q-2"]],
    }
    questions, _ = answering(ASKED, told)
    assert [i.question for i in questions.en.items] == [ASKED["q-2"]]
    assert [i.question for i in questions.zh.items] == [TRANSLATED[ASKED["q-2"]]]
    dropped = [(str(r.place), r.reason) for r in questions.revisions]
    assert ("zh q-1", "no question") in dropped
