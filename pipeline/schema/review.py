"""Automatic review of the drafts, and the decisions of the people who read them."""

import datetime as dt
from typing import Literal

from pydantic import Field

from pipeline.schema.article import Place, Revision
from pipeline.schema.base import Contract, StageOutput
from pipeline.schema.checks import ArticleCheckName


class Finding(Contract):
    """One problem a check found, and where."""

    place: Place
    detail: str

    def __str__(self) -> str:
        return f"{self.place}: {self.detail}"


class Check(Contract):
    name: ArticleCheckName
    passed: bool
    findings: list[Finding] = Field(default_factory=list)


Verdict = Literal["推荐收录", "需修改", "不推荐收录"]


class CardText(Contract):
    """The card in one language."""

    verdict: str = Field(description="the verdict's label in that language")
    summary: str = Field(description="what the article says: problem, method, results, limits")
    assessment: str = Field(description="the verdict and why: strengths, readers, risks")
    reasons: list[str] = Field(description="the rules that decided the verdict")


class ReviewCard(Contract):
    """What a reviewer reads first, in Chinese (and `en`, the same in English): what the
    talk says, and whether to publish."""

    verdict: Verdict
    summary: str = Field(description="what the article says: problem, method, results, limits")
    assessment: str = Field(description="the verdict and why: strengths, readers, risks")
    reasons: list[str] = Field(description="the rules that decided the verdict")
    en: CardText | None = Field(None, description="the card in English (None: an older review)")


class Review(StageOutput):
    checks: list[Check]
    verdict: Literal["pass", "fail"] = Field(description="whether every check passed")
    revisions: list[Revision] = Field(default_factory=list, description="made while drafting")
    card: ReviewCard


DecisionKind = Literal["approved", "rejected", "held"]


class Decision(Contract):
    """A person's decision on an article, bound to the article it was made on."""

    decision: DecisionKind
    reviewer: str = Field(min_length=1, max_length=100)
    note: str = Field("", max_length=2000)
    at: dt.datetime
    article: str = Field(description="the content hash of the article decided on")
    verdict: Verdict = Field(description="the automatic verdict the reviewer saw")


class Decisions(Contract):
    """decisions.yaml in the talk's folder: every decision, oldest first; the last counts."""

    decisions: list[Decision] = Field(default_factory=list)
