"""Reviewers' edits: bound to a sentence's source, applied without a model, stale when the
source changed."""

import pytest

from pipeline.core.errors import StageFailure
from pipeline.edits import (
    EDITS_FILE,
    EditRefused,
    apply_edits,
    make_edit,
    read_edits,
    record_edit,
)
from pipeline.schema import FactSource
from pipeline.schema.article import DraftParagraph
from pipeline.schema.checks import SentenceCheck
from pipeline.schema.ledger import Written
from tests.helpers import ledger_of

SOURCES = [
    FactSource(id="s-02.0", unit="s-02", kind="slide", text="Blocks of 16 tokens", slide=2),
    FactSource(id="t-1.0", unit="t-1", kind="speech", text="It wastes 60 percent.", start=1),
]
EN = [("Blocks hold 16 tokens.", ["s-02"]), ("It wastes 30 percent.", ["t-1"])]
ZH = [("每个块有 16 个 token。", ["s-02"]), ("它浪费 30% 的内存。", ["t-1"])]


def ledger(sources=SOURCES):
    return ledger_of(EN, ZH, sources=sources)


def translating(calls: list):
    def translate(sentence, given, into):
        calls.append((sentence.text(given).text, given, into))
        check = SentenceCheck(check="numbers", passed=True)
        return Written(text="It wastes 60 percent of the memory.", checks=[check])

    return translate


def test_an_edit_in_one_language_is_translated_once_and_applied_without_a_model():
    calls = []
    edit = make_edit(ledger(), "f-1", {"zh": "它浪费 60% 的内存。"}, "Lin", translating(calls))
    assert calls == [("它浪费 60% 的内存。", "zh", "en")] and edit.translated == "en"
    assert (edit.original_en, edit.original_zh) == ("It wastes 30 percent.", "它浪费 30% 的内存。")
    done = apply_edits(ledger(), [edit])
    fact = done.ledger.by_id()["f-1"]
    assert (fact.zh.text, fact.en.text) == (
        "它浪费 60% 的内存。",
        "It wastes 60 percent of the memory.",
    )
    assert (
        fact.zh.edited_by == "Lin"
        and [e.sentence for e in done.applied] == ["f-1"]
        and not done.stale
    )
    assert "60%" in done.ledger.draft().zh.sections[0].paragraphs[1].text


def test_an_edit_whose_source_changed_is_stale_and_not_applied():
    edit = make_edit(ledger(), "f-1", {"zh": "它浪费 60%。", "en": "It wastes 60%."}, "Lin", None)
    heard_again = [SOURCES[0], SOURCES[1].model_copy(update={"text": "It wastes 70 percent."})]
    done = apply_edits(ledger(heard_again), [edit])
    assert done.applied == [] and [s.edit.sentence for s in done.stale] == ["f-1"]
    assert done.ledger.by_id()["f-1"].en.text == "It wastes 30 percent."
    assert done.warnings == ["stale edit of f-1 by Lin: what the sentence is made from changed"]


def test_a_dropped_sentence_leaves_its_paragraph_and_a_heading_cannot_be_dropped():
    edit = make_edit(ledger(), "f-1", {}, "Lin", None, drop=True)
    done = apply_edits(ledger(), [edit])
    assert "f-1" not in done.ledger.by_id() and len(done.ledger.chapters[0].paragraphs) == 1
    with pytest.raises(EditRefused, match="cannot be dropped"):
        make_edit(ledger(), "h-1", {}, "Lin", None, drop=True)
    with pytest.raises(EditRefused, match="no sentence f-9"):
        make_edit(ledger(), "f-9", {"en": "x"}, "Lin", None)


def test_a_heading_edit_holds_while_the_model_writes_the_same_heading():
    edit = make_edit(ledger(), "h-1", {"en": "Paged memory", "zh": "分页内存"}, "Lin", None)
    assert apply_edits(ledger(), [edit]).ledger.draft().en.sections[0].title == "Paged memory"
    renamed = ledger().model_copy(deep=True)
    renamed.by_id()["h-1"].en.text = "Paging blocks"
    assert apply_edits(renamed, [edit]).stale


def test_edits_are_kept_in_the_talk_folder_and_a_broken_file_names_itself(tmp_path):
    first = make_edit(ledger(), "f-1", {"zh": "甲。", "en": "A."}, "Lin", None)
    other = make_edit(ledger(), "h-1", {"zh": "分页。", "en": "Paging."}, "Lin", None)
    last = make_edit(ledger(), "f-1", {"zh": "乙。", "en": "B."}, "Wu", None)
    for edit in (first, other, last):
        record_edit(tmp_path, edit)
    # a sentence's superseded edit is folded into its last: the file does not only grow
    assert [(e.sentence, e.by) for e in read_edits(tmp_path)] == [("h-1", "Lin"), ("f-1", "Wu")]
    assert apply_edits(ledger(), read_edits(tmp_path)).ledger.by_id()["f-1"].en.text == "B."
    (tmp_path / EDITS_FILE).write_text("edits:\n- sentence: f-1\n  zh: [\n")
    with pytest.raises(StageFailure, match="edits.yaml"):
        read_edits(tmp_path)


def test_the_companion_answers_with_the_reviewers_text_and_without_a_dropped_sentence():
    from pipeline.schema import QuestionAnswer, Questions, QuestionsText

    def companion(lang, question):
        item = QuestionAnswer(question=question, sentences=["f-0", "f-1"])
        return QuestionsText(lang=lang, items=[item])

    questions = Questions(
        en=companion("en", "How much is wasted?"), zh=companion("zh", "浪费多少？")
    )
    assert questions.answered(ledger(), "zh") == [
        ("浪费多少？", DraftParagraph(text=f"{ZH[0][0]}{ZH[1][0]}", citations=["s-02", "t-1"]))
    ]
    texts = {"zh": "它浪费 60% 的内存。", "en": "It wastes 60 percent."}
    fixed = apply_edits(ledger(), [make_edit(ledger(), "f-1", texts, "Lin", None)]).ledger
    [(_, en)], [(_, zh)] = questions.answered(fixed, "en"), questions.answered(fixed, "zh")
    assert (en.text, zh.text) == (
        "Blocks hold 16 tokens. It wastes 60 percent.",
        "每个块有 16 个 token。它浪费 60% 的内存。",
    )
    dropped = apply_edits(ledger(), [make_edit(ledger(), "f-1", {}, "Lin", None, drop=True)])
    [(_, en)] = questions.answered(dropped.ledger, "en")
    assert (en.text, en.citations) == ("Blocks hold 16 tokens.", ["s-02"])
    both = [make_edit(ledger(), i, {}, "Lin", None, drop=True) for i in ("f-0", "f-1")]
    assert questions.answered(apply_edits(ledger(), both).ledger, "en") == []  # not asked


def test_a_left_out_fact_a_reviewer_wrote_is_printed_and_no_longer_the_runs():
    import datetime as dt

    from pipeline.schema import RunRecord, StageRecord

    marked = ledger().model_copy(deep=True)
    marked.by_id()["f-1"].zh.left_out = True
    marked = marked.model_copy(update={"plan": marked.chapters}).arranged()
    assert [x.sentence for x in marked.left_out()] == ["f-1"]
    assert "f-1" not in [i for c in marked.chapters for p in c.paragraphs for i in p.sentences]
    edit = make_edit(marked, "f-1", {"zh": "它浪费 60%。", "en": "It wastes 60%."}, "Lin", None)
    done = apply_edits(marked, [edit])
    assert marked.revisions() and not done.fallbacks and not done.ledger.left_out()
    assert "It wastes 60%." in " ".join(
        p.text for p in done.ledger.text("en").sections[0].paragraphs
    )
    stages = [
        StageRecord(name="ledger", status="cached", seconds=0, fallbacks=["zh §1¶2"]),
        StageRecord(name="edits", status="done", seconds=0, fallbacks=done.fallbacks),
    ]
    record = RunRecord(talk="t", status="succeeded", started=dt.datetime.now(dt.UTC), stages=stages)
    assert record.fallbacks() == []


def test_an_edit_too_long_is_refused_before_any_model_call():
    def no_model(*_):
        raise AssertionError("the model was asked")

    with pytest.raises(EditRefused, match="2001 characters"):
        make_edit(ledger(), "f-1", {"zh": "长" * 2001}, "Lin", no_model)
    with pytest.raises(EditRefused, match="--by"):
        make_edit(ledger(), "f-1", {"zh": "短。"}, "L" * 101, no_model)


def test_a_failed_machine_translation_of_an_edit_is_refused_not_recorded():
    from pipeline.edits import EditRefused
    from pipeline.schema.ledger import Written

    def failing(sentence, given, into):
        return Written(text="Blocks.", left_out=True)

    try:
        make_edit(ledger(), "f-1", {"zh": "它浪费 60% 的内存。"}, "Lin", failing)
    except EditRefused as refused:
        assert "give the sentence in both languages" in str(refused)
    else:
        raise AssertionError("a failed translation was recorded as the reviewer's text")
