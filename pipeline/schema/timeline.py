"""Which slide is on screen when."""

from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract, StageOutput


class TimelineSpan(Contract):
    slide: int = Field(ge=1, description="slide number (Slide.index)")
    start: float = Field(ge=0, description="seconds")
    end: float = Field(ge=0, description="seconds")
    method: Literal["frame", "text"] = Field(
        description="'frame': video frames matched to slide pictures; "
        "'text': speech aligned to slide text in slide order"
    )
    confidence: float = Field(ge=0, le=1)


class Timeline(StageOutput):
    spans: list[TimelineSpan] = Field(description="in time order, not overlapping")
    frames_sampled: int = Field(0, ge=0)

    def slide_for(self, start: float, end: float) -> int | None:
        """The slide on screen for most of [start, end]; at `start` for an instant."""
        overlap: dict[int, float] = {}
        for span in self.spans:
            if end > start:
                shared = min(end, span.end) - max(start, span.start)
            else:
                shared = 1.0 if span.start <= start < span.end else 0.0
            if shared > 0:
                overlap[span.slide] = overlap.get(span.slide, 0.0) + shared
        return max(overlap, key=overlap.__getitem__) if overlap else None
