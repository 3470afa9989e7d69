"""run.json: what happened to one talk."""

from datetime import datetime
from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract, StageError
from pipeline.schema.review import Verdict

# How a run ends when it made articles.
ARTICLES_MADE = ("succeeded", "fallback", "partial")


class StageRecord(Contract):
    name: str
    status: Literal["done", "cached", "skipped", "failed"]
    seconds: float
    error: StageError | None = None
    warnings: list[str] = Field(default_factory=list, description="usable input with a flaw")
    fallbacks: list[str] = Field(
        default_factory=list, description="model answers replaced by a fallback"
    )


# A stage whose output restates an earlier stage's fallbacks once people corrected its text.
RESTATES = {"edits": "ledger"}


class RunRecord(Contract):
    talk: str
    status: Literal["running", "succeeded", "fallback", "partial", "failed", "interrupted"] = Field(
        "running",
        description="partial: articles made, but some input was unusable (see errors); "
        "fallback: articles made, but somewhere the model answered badly and a fallback "
        "stands in (see the stages' fallbacks)",
    )
    pid: int | None = Field(None, description="the process running it, while it runs")
    stage: str | None = Field(None, description="the stage in progress, or where it stopped")
    previous: str | None = Field(
        None, description="how the run before this one ended, if it was killed outright"
    )
    origin: str | None = Field(
        None,
        description="the talk folder it was made from: `inputs/<its path there>`, or the "
        "absolute path of a folder outside inputs/ (pipeline.talk.talk_origin)",
    )
    fingerprint: str | None = Field(
        None, description="of its files, settings, prompts and code (pipeline.fingerprint)"
    )
    minutes: float | None = Field(None, description="the talk's length, once transcribed")
    started: datetime
    finished: datetime | None = None
    stages: list[StageRecord] = Field(default_factory=list)
    errors: list[StageError] = Field(default_factory=list)
    versions: dict[str, str] = Field(default_factory=dict)
    outputs: list[str] = Field(default_factory=list, description="article paths")
    verdict: Verdict | None = Field(None, description="the review card's verdict")

    def fallbacks(self) -> list[str]:
        """The fallbacks the articles hold: a stage that restates an earlier one's (the
        reviewers' edits, after the ledger's) replaces that stage's list."""
        ran = {s.name for s in self.stages if s.status in ("done", "cached")}
        replaced = {RESTATES[name] for name in ran if name in RESTATES}
        return [
            f"{s.name}: {f}" for s in self.stages if s.name not in replaced for f in s.fallbacks
        ]
