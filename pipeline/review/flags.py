"""The sentences a reviewer reads first: each printed fact sentence the ledger's own record
says is likely to need an edit, with why. Computed from the ledger alone (no model call):

- unsure word: what it is made from holds a word recognition was unsure of;
- second try: its rewrite or translation passed only on the model's second answer;
- far from its source: its meaning score against its source is low for a pass;
- beside a left-out fact: a fact of its paragraph was left out, so what it says may lean
  on a sentence the article no longer has.
"""

from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract
from pipeline.schema.ledger import Ledger, LedgerSentence

FlagReason = Literal["unsure word", "second try", "far from its source", "beside a left-out fact"]

# A meaning score (multilingual-e5, pipeline.core.fidelity) that passes but is below this is
# far from its source: the lowest quarter of passing scores on the dev cases' ledgers.
FAR_FROM_SOURCE = 0.86


class Flag(Contract):
    sentence: str = Field(description="the ledger sentence's id")
    why: list[FlagReason]


def meaning_scores(sentence: LedgerSentence) -> list[float]:
    scores = []
    for written in (sentence.zh, sentence.en):
        for check in written.checks if written else []:
            if check.check == "meaning" and check.passed:
                try:
                    scores.append(float(check.detail))
                except ValueError:
                    continue
    return scores


def beside_left_out(ledger: Ledger) -> set[str]:
    """The printed facts whose paragraph in the plan holds a fact left out."""
    printed = {s.id for s in ledger.sentences if s.printed}
    found: set[str] = set()
    for chapter in ledger.plan:
        for paragraph in chapter.paragraphs:
            if any(i not in printed for i in paragraph.sentences):
                found |= {i for i in paragraph.sentences if i in printed}
    return found


def reasons(ledger: Ledger, sentence: LedgerSentence, beside: set[str]) -> list[FlagReason]:
    source = next((s for s in ledger.sources if s.id == sentence.source), None)
    why: list[FlagReason] = []
    if source is not None and source.uncertain:
        why.append("unsure word")
    if any(w is not None and w.calls >= 2 for w in (sentence.zh, sentence.en)):
        why.append("second try")
    if any(score < FAR_FROM_SOURCE for score in meaning_scores(sentence)):
        why.append("far from its source")
    if sentence.id in beside:
        why.append("beside a left-out fact")
    return why


def flags(ledger: Ledger) -> list[Flag]:
    """The printed fact sentences to read first, in the article's order, each with why."""
    by_id, beside = ledger.by_id(), beside_left_out(ledger)
    ids = [i for c in ledger.chapters for p in c.paragraphs for i in p.sentences]
    found = []
    for sentence in (by_id[i] for i in ids):
        if any(w is not None and w.edited_by for w in (sentence.zh, sentence.en)):
            continue  # a reviewer's own text
        if why := reasons(ledger, sentence, beside):
            found.append(Flag(sentence=sentence.id, why=why))
    return found
