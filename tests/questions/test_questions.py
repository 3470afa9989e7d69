import json

from pipeline.draft import DraftPrompts, Writer
from pipeline.questions import QuestionPrompts, Topic, question_topics, write_questions
from pipeline.schema import Claim, DraftParagraph, DraftSection, DraftText, Notes, Section
from tests.draft.test_draft import BLOCKS, EVIDENCE, WASTE
from tests.llm_double import PromptReplies, scripted_llm

NOTES = Notes(
    language="en",
    sections=[
        Section(id="sec-01", unit_ids=["t-00:00:00"], claims=[WASTE]),
        Section(id="sec-02", unit_ids=["t-00:00:06"], claims=[BLOCKS]),
    ],
)
ARTICLE = DraftText(
    lang="en",
    title="Paging the KV cache",
    sections=[
        DraftSection(
            title="Memory waste",
            paragraphs=[DraftParagraph(text="…", citations=["t-00:00:00"])],
        ),
        DraftSection(
            title="Blocks on demand",
            paragraphs=[DraftParagraph(text="…", citations=["t-00:00:06"])],
        ),
    ],
)
TERMS = ["KV cache", "PagedAttention"]
ASKED = ["How much KV cache memory is wasted by reserving the maximum length?"]
ASKED += ["How does PagedAttention keep the KV cache?"]
ANSWERED = ["Reserving the maximum length wastes 60 to 80 percent of the KV cache memory."]
ANSWERED += ["PagedAttention stores the KV cache in 16-token blocks that requests get on demand."]
TRANSLATED = [
    "预留最大长度会浪费多少 KV cache 内存？",
    "预留最大长度会浪费 60 到 80% 的 KV cache 内存。",
    "PagedAttention 如何保存 KV cache？",
    "PagedAttention 把 KV cache 存进 16 个 token 的块中，按请求所需分配。",
]


def text(value: str) -> str:
    return json.dumps({"text": value})


def companion(questions=ASKED, answers=ANSWERED, translations=TRANSLATED):
    replies = PromptReplies(
        ask_question=[text(q) for q in questions],
        answer_question=[text(a) for a in answers],
        translate_zh=[text(t) for t in translations],
    )
    llm, endpoint = scripted_llm(replies)
    prompts = QuestionPrompts.load()
    writer = Writer(llm, DraftPrompts.load(), EVIDENCE, TERMS, "en", others=tuple(prompts.all()))
    return write_questions(ARTICLE, NOTES, [], writer, prompts), endpoint


def test_each_chapter_is_asked_about_and_answered_from_its_claims_in_both_languages():
    questions, endpoint = companion()
    asked = [(i.question, i.answer) for i in questions.en.items]
    assert asked == list(zip(ASKED, ANSWERED, strict=True))
    assert [i.citations for i in questions.en.items] == [["t-00:00:00"], ["t-00:00:06"]]
    assert [i.citations for i in questions.zh.items] == [["t-00:00:00"], ["t-00:00:06"]]
    assert [i.question for i in questions.zh.items] == TRANSLATED[::2]
    assert questions.revisions == []
    assert "Chapter: Memory waste" in endpoint.user_messages()[0]
    # two questions are not a companion worth its page: visible, never plain `succeeded`
    assert questions.fallbacks == ["only 2 questions passed"]


def test_an_answer_with_an_invented_number_is_redrafted_then_replaced_by_its_claims():
    invented = ANSWERED[0].replace("60 to 80", "60 to 90")
    questions, _ = companion(answers=[invented, invented, ANSWERED[1]])
    first = questions.en.items[0]
    assert first.answer == WASTE.statement  # the claim as it is: grounded by construction
    revision = questions.revisions[0]
    assert (revision.where, revision.action) == ("en A1", "replaced by its claims")
    assert any("number 90 is not in the cited passages" in f for f in revision.findings)
    assert "en A1: replaced by its claims" in questions.fallbacks


def test_a_question_that_is_no_question_or_adds_a_number_is_asked_again_or_dropped():
    questions, endpoint = companion(
        questions=[
            "The KV cache wastes memory.",  # not a question
            ASKED[0],
            "Why does PagedAttention use blocks of 32 tokens?",  # a number the notes lack
            "Why does PagedAttention use blocks of 64 tokens?",
        ],
        answers=ANSWERED[:1],
        translations=TRANSLATED[:2],
    )
    assert [i.question for i in questions.en.items] == ASKED[:1]
    actions = [(r.where, r.action) for r in questions.revisions]
    assert actions == [("en Q1", "redrafted"), ("en Q2", "dropped")]
    assert any("question mark" in f for f in questions.revisions[0].findings)
    assert any("number 32 is not in the notes" in f for f in questions.revisions[1].findings)


def test_a_question_whose_translation_keeps_failing_leaves_both_languages():
    english = ["How is it kept?"] * 4  # never Chinese
    questions, _ = companion(translations=[*english, *TRANSLATED[2:], *TRANSLATED[2:]])
    assert [i.question for i in questions.en.items] == ASKED[1:]
    assert [i.question for i in questions.zh.items] == TRANSLATED[2:3]
    assert ("zh Q1", "dropped") in [(r.where, r.action) for r in questions.revisions]


def test_questions_are_spread_over_the_chapters_before_a_chapter_gets_a_second():
    claims = [
        Claim(statement=f"Fact {n}.", units=[f"t-{n}"]) for n in range(12)
    ]  # chapter one has nine claims (three runs), chapter two one, chapter three two
    chapters = [Topic("one", claims[:9]), Topic("two", claims[9:10]), Topic("three", claims[10:])]
    picked = question_topics(chapters, most=4)
    assert [t.chapter for t in picked] == ["one", "one", "two", "three"]
    assert [len(t.claims) for t in picked] == [3, 3, 1, 2]


def test_a_question_about_the_notes_rather_than_the_subject_is_asked_again():
    meta = "Which strategies to save KV cache memory are discussed in the notes?"
    questions, _ = companion(questions=[meta, *ASKED])
    assert [i.question for i in questions.en.items] == ASKED
    assert any("speaks of the notes" in f for f in questions.revisions[0].findings)
