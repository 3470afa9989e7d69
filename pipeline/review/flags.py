"""The sentences a reviewer reads first: each printed fact sentence the ledger's own record
says is likely to need an edit, with why. Computed from the ledger alone (no model call):

- second try: its rewrite or translation passed only on the model's second answer;
- beside a left-out fact: a fact of its paragraph was left out, so what it says may lean
  on a sentence the article no longer has.
"""

from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract
from pipeline.schema.ledger import Ledger, LedgerSentence

# Measured on the readings of kv-cache-serving and sglang-2025 (7caa459, 68 printed facts,
# 59% marked by readers): a second try is marked 83% of the time, a fact beside a left-out
# one 66%; a passing meaning score below 0.86 only 38%, less than any fact: not a flag.
# (Speech with a word recognition was unsure of is never printed: pipeline.notes.select.)
FlagReason = Literal["second try", "beside a left-out fact"]


class Flag(Contract):
    sentence: str = Field(description="the ledger sentence's id")
    why: list[FlagReason]


def beside_left_out(ledger: Ledger) -> set[str]:
    """The printed facts whose paragraph in the plan holds a fact left out."""
    left = {x.sentence for x in ledger.left_out()}
    printed = {s.id for s in ledger.sentences if s.printed}
    return {
        i
        for chapter in ledger.plan
        for paragraph in chapter.paragraphs
        if left & set(paragraph.sentences)
        for i in paragraph.sentences
        if i in printed
    }


def reasons(sentence: LedgerSentence, beside: set[str]) -> list[FlagReason]:
    why: list[FlagReason] = []
    if any(w is not None and w.calls >= 2 for w in (sentence.zh, sentence.en)):
        why.append("second try")
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
        if why := reasons(sentence, beside):
            found.append(Flag(sentence=sentence.id, why=why))
    return found
