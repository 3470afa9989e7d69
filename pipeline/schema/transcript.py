"""Timestamped speech."""

from pydantic import Field

from pipeline.schema.base import Contract, Provenance


class Segment(Contract):
    start: float = Field(description="seconds from the start of the recording")
    end: float
    text: str
    avg_logprob: float | None = None
    no_speech_prob: float | None = None
    compression_ratio: float | None = None


class Transcript(Contract):
    language: str
    language_probability: float | None = None
    duration: float = Field(description="seconds of audio")
    segments: list[Segment]
    vocabulary: list[str] = Field(
        default_factory=list, description="terms given to the recogniser as its initial prompt"
    )
    provenance: Provenance
