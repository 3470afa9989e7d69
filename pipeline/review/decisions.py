"""A person's decision on an article, and what the site publishes by it.

Reviewers approve, reject or hold an article (`talk2article review`); each decision goes into
decisions.yaml in the talk's own folder, beside its recording and deck, with the reviewer's
name and note, oldest first. A decision is bound to the article it was made on by a hash of
the article's text in both languages: when a rerun changes the article, the decision is
stale (the reviewer read another text) and the article awaits a reviewer again.

decisions.yaml is no input of the articles: it is left out of the talk's fingerprint, so a
decision never reruns a talk.
"""

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pipeline.core.errors import StageFailure
from pipeline.core.store import sha256_bytes
from pipeline.core.yamlfile import read_or_last_read, read_yaml, update_yaml
from pipeline.schema import Decision, Decisions, Draft, Verdict

DECISIONS_FILE = "decisions.yaml"
LAST_READ = ".decisions.json"  # in the talk's outputs folder: the decisions last read
# What the site publishes: "recommended" (the default) an approved article, or one the
# automatic review recommends that no person has decided on yet; "approved" only what a
# person approved; "preview" everything not rejected, for reviewers to read before deciding.
# A rejection (and, but in a preview, a hold) keeps an article off even once its text changes,
# until a person decides again.
Policy = Literal["recommended", "approved", "preview"]
State = Literal["approved", "rejected", "held", "awaiting"]


def article_hash(draft: Draft) -> str:
    """What a reviewer read: the title, summary, chapters and paragraphs of both languages,
    and the tags (not how or when they were made)."""
    return sha256_bytes(draft.model_dump_json(include={"en", "zh", "tags"}).encode())


def read_decisions(folder: Path) -> list[Decision]:
    path = folder / DECISIONS_FILE
    if not path.is_file():
        return []
    return read_yaml(path, Decisions, {}).decisions


def record_decision(folder: Path, decision: Decision) -> Path:
    """Add a decision to the talk folder's decisions.yaml (under its lock, written whole)."""

    def add(file: Decisions) -> Decisions:
        return Decisions(decisions=[*file.decisions, decision])

    return update_yaml(folder / DECISIONS_FILE, Decisions, add)


def decisions_standing(folder: Path, outputs: Path) -> tuple[list[Decision], StageFailure | None]:
    """The talk folder's decisions and, when its decisions.yaml is broken, why: then the
    decisions last read from it stand (kept in the talk's outputs folder), so a typo neither
    publishes what a reviewer rejected nor takes down what one approved. Broken and never
    read: StageFailure."""
    read, problem = read_or_last_read(folder / DECISIONS_FILE, Decisions, outputs / LAST_READ)
    return (read.decisions if read else []), problem


def decide(draft: Draft, verdict: Verdict, kind: str, reviewer: str, note: str = "") -> Decision:
    return Decision(
        decision=kind,
        reviewer=reviewer,
        note=note,
        at=dt.datetime.now(dt.UTC),
        article=article_hash(draft),
        verdict=verdict,
    )


@dataclass(frozen=True)
class Standing:
    """Where an article stands with its reviewers: the automatic verdict, the last decision
    and whether that decision was made on this text."""

    verdict: Verdict
    decision: Decision | None = None
    stale: bool = False

    @property
    def state(self) -> State:
        """A stale approval is no approval; a stale rejection or hold still keeps the
        article back until a person decides again."""
        if self.decision is None or (self.stale and self.decision.decision == "approved"):
            return "awaiting"
        return self.decision.decision

    @property
    def awaits_reviewer(self) -> bool:
        """No decision on this text, or a hold: a reviewer has something to do."""
        return self.decision is None or self.stale or self.decision.decision == "held"

    def publishable(self, policy: Policy) -> bool:
        if self.state == "approved":
            return True
        if self.state == "rejected":
            return False
        if policy == "preview":
            return True
        return policy == "recommended" and self.state == "awaiting" and self.verdict == "推荐收录"

    def why_not(self, policy: Policy) -> str:
        """Why `publishable(policy)` is false, for the site's list of talks left out."""
        if self.state in ("rejected", "held"):
            verb = "rejected" if self.state == "rejected" else "held"
            return f"{verb} by {self.decision.reviewer} on {self.decision.at.date()}"
        again = " again (its text changed since the last decision)" if self.stale else ""
        if policy == "approved":
            return f"not approved by a reviewer{again}"
        return f"automatic verdict {self.verdict}: awaiting a reviewer{again}"


def standing_of(draft: Draft, verdict: Verdict, decisions: list[Decision]) -> Standing:
    if not decisions:
        return Standing(verdict)
    last = decisions[-1]
    return Standing(verdict, last, stale=last.article != article_hash(draft))
