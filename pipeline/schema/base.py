"""Shared pieces of every contract: strictness, provenance, errors."""

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from pipeline.core.errors import redact


class Contract(BaseModel):
    """Base of every contract: unknown fields are an error, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


class Provenance(Contract):
    """What made a stage output; equal keys mean a rerun would produce the same thing."""

    stage: str
    code_version: str = Field(description="package version + hash of the code the stage runs")
    inputs: dict[str, str] = Field(default_factory=dict, description="name -> sha256")
    model: str | None = None
    prompts: dict[str, str] = Field(default_factory=dict, description="prompt id -> sha256")
    options: dict[str, str] = Field(default_factory=dict, description="settings that matter")
    key: str = Field("", description="sha256 over everything above")


class StageOutput(Contract):
    """What a stage writes: its content plus what made it (stamped by the stage runner)
    and the flaws of usable input it met along the way."""

    warnings: list[str] = Field(default_factory=list, description="usable input with a flaw")
    fallbacks: list[str] = Field(
        default_factory=list,
        description="where the model answered badly after its retries and a documented "
        "fallback stands in (a talk with any is never plain `succeeded`)",
    )
    provenance: Provenance | None = Field(None, description="set by the stage runner")


class StageError(Contract):
    """A failure a maintainer can act on: which stage, which file, what happened."""

    stage: str
    message: Annotated[str, AfterValidator(redact)] = Field(description="secrets redacted")
    file: str | None = None

    def __str__(self) -> str:
        where = f" [{self.file}]" if self.file else ""
        return f"{self.stage}{where}: {self.message}"
