"""Reviewers' edits of an article's sentences (edits.yaml in the talk's folder), and the
article with them applied (pipeline/edits/)."""

import datetime as dt

from pydantic import Field, model_validator

from pipeline.schema.article import Lang
from pipeline.schema.base import Contract, StageOutput
from pipeline.schema.checks import SentenceCheck
from pipeline.schema.ledger import Ledger

MAX_EDIT_CHARS = 2000  # a reviewer's text of one sentence, with room to spare
MAX_NAME_CHARS = 100  # a reviewer's name


class Edit(Contract):
    """A person's text for one ledger sentence, bound to what the sentence is made from."""

    sentence: str = Field(min_length=1, description="the ledger sentence's id")
    source: str = Field(description="the hash of what the sentence is made from when edited")
    original_zh: str = Field("", description="the sentence's Chinese when edited")
    original_en: str = Field("", description="the sentence's English when edited")
    zh: str | None = Field(None, max_length=MAX_EDIT_CHARS)
    en: str | None = Field(None, max_length=MAX_EDIT_CHARS)
    drop: bool = Field(False, description="the sentence leaves the article")
    translated: Lang | None = Field(None, description="the language the model translated")
    checks: list[SentenceCheck] = Field(
        default_factory=list, description="the machine translation's checks"
    )
    by: str = Field(min_length=1, max_length=MAX_NAME_CHARS)
    at: dt.datetime

    @model_validator(mode="after")
    def says_something(self) -> "Edit":
        if not self.drop and not (self.zh and self.en):
            raise ValueError("an edit gives the sentence in both languages, or drops it")
        return self


class Edits(Contract):
    """edits.yaml: every edit, oldest first; a sentence's last edit counts."""

    edits: list[Edit] = Field(default_factory=list)


class StaleEdit(Contract):
    """An edit not applied: its sentence's source changed, or the sentence is gone."""

    edit: Edit
    why: str


class EditedLedger(StageOutput):
    """The ledger with every edit whose source is unchanged applied."""

    ledger: Ledger
    applied: list[Edit] = Field(default_factory=list, description="the edits applied")
    stale: list[StaleEdit] = Field(default_factory=list)
