"""The sentences a reviewer reads first, from the ledger's own record."""

from pipeline.review.flags import flags
from pipeline.schema.checks import SentenceCheck
from pipeline.schema.ledger import FactSource
from tests.helpers import ledger_of

EN = [
    ("Blocks hold 16 tokens.", ["s-02"]),
    ("Waste drops below 4 percent.", ["s-02"]),
    ("A block table maps blocks.", ["s-02"]),
    ("Copy on write shares blocks.", ["s-02"]),
    ("Prefix caching reuses blocks.", ["s-02"]),
]
ZH = [(f"中文句子{n}。", cites) for n, (_, cites) in enumerate(EN)]
SOURCES = [
    FactSource(id=f"s-02.{n}", unit="s-02", kind="slide", text=text)
    for n, (text, _) in enumerate(EN)
]


def test_what_the_run_record_says_is_likely_wrong_is_flagged_with_why():
    ledger = ledger_of(EN, ZH, sources=SOURCES)
    by_id = ledger.by_id()
    by_id["f-1"].en.calls = 2  # its rewrite passed on the second answer
    by_id["f-2"].zh.checks = [SentenceCheck(check="meaning", passed=True, detail="0.81")]
    by_id["f-4"].zh.left_out = True
    # f-3 and f-4 share a paragraph in the plan; f-4 is left out
    paragraphs = ledger.chapters[0].paragraphs
    merged = paragraphs[3].model_copy(update={"sentences": ["f-3", "f-4"]})
    plan = [ledger.chapters[0].model_copy(update={"paragraphs": [*paragraphs[:3], merged]})]
    ledger = ledger.model_copy(update={"plan": plan}).arranged()
    assert {f.sentence: f.why for f in flags(ledger)} == {
        "f-1": ["second try"],
        "f-3": ["beside a left-out fact"],
    }


def test_a_reviewers_own_text_is_not_flagged():
    ledger = ledger_of(EN[:1], ZH[:1], sources=SOURCES[:1])
    ledger.by_id()["f-0"].en.calls = 2
    assert [f.sentence for f in flags(ledger)] == ["f-0"]
    for written in (ledger.by_id()["f-0"].en, ledger.by_id()["f-0"].zh):
        written.edited_by = "Lin"
    assert flags(ledger) == []
