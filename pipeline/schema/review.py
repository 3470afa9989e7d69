"""Automatic review of the drafts."""

from typing import Literal

from pydantic import Field

from pipeline.schema.article import Revision
from pipeline.schema.base import Contract, StageOutput


class Check(Contract):
    name: str
    passed: bool
    findings: list[str] = Field(default_factory=list, description="one line per problem")


class Review(StageOutput):
    checks: list[Check]
    verdict: Literal["pass", "fail"]
    revisions: list[Revision] = Field(default_factory=list, description="made while drafting")
