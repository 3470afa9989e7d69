"""Timestamped speech."""

import re
from typing import Literal

from pydantic import Field, field_validator

from pipeline.schema.base import Contract, StageOutput


class Word(Contract):
    start: float
    end: float
    text: str
    probability: float | None = None


class Segment(Contract):
    start: float = Field(description="seconds from the start of the recording")
    end: float
    text: str
    avg_logprob: float | None = None
    no_speech_prob: float | None = None
    compression_ratio: float | None = None
    words: list[Word] = Field(default_factory=list, description="as recognised, uncorrected")


class Correction(Contract):
    """A recognised spelling replaced by a glossary/deck term, or by a name on the slide on
    screen, kept for audit."""

    start: float = Field(description="start of the segment it was made in")
    original: str
    corrected: str
    score: float = Field(description="rapidfuzz similarity, 0-100")
    slide: int | None = Field(None, description="the slide on screen whose spelling won")
    listed: bool = Field(False, description="made by the library's corrections.yaml")


class Replacement(Contract):
    """A maintainer's correction of what the recogniser hears, for every talk it fits
    (inputs/corrections.yaml): a heard form and the right one."""

    heard: str = Field(min_length=1, max_length=200)
    right: str = Field(min_length=1, max_length=200)
    talk: str | None = Field(None, description="only this talk: its path under inputs/")
    deck: str | None = Field(None, description="only talks with a deck of this file name")

    @field_validator("heard")
    @classmethod
    def heard_has_a_word(cls, heard: str) -> str:
        """A heard form without a letter or digit would match between any two characters."""
        if not re.search(r"\w", heard):
            raise ValueError("a heard form has a letter or digit in it")
        return heard


class Replacements(Contract):
    """inputs/corrections.yaml."""

    corrections: list[Replacement] = Field(default_factory=list)


class DroppedSegment(Contract):
    """A segment left out as a likely hallucination or repetition loop."""

    start: float
    end: float
    text: str
    reason: str


class Transcript(StageOutput):
    source: Literal["asr", "subtitles"] = "asr"
    language: str
    language_probability: float | None = None
    encoding: str | None = Field(
        None, description="text encoding of the subtitle file read (None: recognised speech)"
    )
    duration: float = Field(description="seconds of audio (of the subtitles: their last end)")
    segments: list[Segment]
    vocabulary: list[str] = Field(
        default_factory=list,
        description="deck and glossary terms: the recogniser's hotwords, the corrections' targets",
    )
    corrections: list[Correction] = Field(default_factory=list)
    dropped: list[DroppedSegment] = Field(default_factory=list)
    punctuated: bool = Field(
        False, description="marks put in by the model (pipeline.transcript.punctuate)"
    )
