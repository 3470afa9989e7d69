"""Automatic review of the drafts."""

from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract, Provenance


class Check(Contract):
    name: str
    passed: bool
    findings: list[str] = Field(default_factory=list, description="one line per problem")


class Review(Contract):
    checks: list[Check]
    verdict: Literal["pass", "fail"]
    provenance: Provenance
