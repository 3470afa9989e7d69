"""Data contracts passed between stages (pydantic models, extra fields forbidden)."""

from pipeline.schema.article import Draft, DraftParagraph, DraftSection, Outline, OutlineSection
from pipeline.schema.base import Contract, Provenance, StageError
from pipeline.schema.deck import Bullet, Deck, Slide
from pipeline.schema.evidence import Evidence, EvidenceUnit, GlossaryEntry
from pipeline.schema.review import Check, Review
from pipeline.schema.run import RunRecord, StageRecord
from pipeline.schema.talk import TalkInputs, TalkMeta
from pipeline.schema.timeline import Timeline, TimelineSpan
from pipeline.schema.transcript import Correction, DroppedSegment, Segment, Transcript, Word

__all__ = [
    "Bullet",
    "Correction",
    "DroppedSegment",
    "Word",
    "Check",
    "Contract",
    "Deck",
    "Draft",
    "DraftParagraph",
    "DraftSection",
    "Evidence",
    "EvidenceUnit",
    "GlossaryEntry",
    "Outline",
    "OutlineSection",
    "Provenance",
    "Review",
    "RunRecord",
    "Segment",
    "Slide",
    "StageError",
    "StageRecord",
    "TalkInputs",
    "TalkMeta",
    "Timeline",
    "TimelineSpan",
    "Transcript",
]
