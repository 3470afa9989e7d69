"""Data contracts passed between stages (pydantic models, extra fields forbidden)."""

from pipeline.schema.article import (
    CAUSAL_ORDER,
    Article,
    Chapter,
    Draft,
    DraftParagraph,
    DraftSection,
    DraftText,
    Outline,
    Place,
    Revision,
    Role,
)
from pipeline.schema.base import Contract, Provenance, StageError, StageOutput
from pipeline.schema.checks import SentenceCheck
from pipeline.schema.deck import Bullet, Deck, Slide
from pipeline.schema.edits import Edit, EditedLedger, Edits, StaleEdit
from pipeline.schema.evidence import Evidence, EvidenceUnit, GlossaryEntry
from pipeline.schema.ledger import Ledger, LedgerSentence, Written
from pipeline.schema.notes import FactSource, Notes, Section
from pipeline.schema.questions import QuestionAnswer, Questions, QuestionsText
from pipeline.schema.review import (
    Check,
    Decision,
    Decisions,
    Finding,
    Review,
    ReviewCard,
    Verdict,
)
from pipeline.schema.run import ARTICLES_MADE, RunRecord, StageRecord
from pipeline.schema.talk import Talk, TalkMeta
from pipeline.schema.timeline import Timeline, TimelineSpan
from pipeline.schema.transcript import Correction, DroppedSegment, Segment, Transcript, Word

__all__ = [
    "ARTICLES_MADE",
    "CAUSAL_ORDER",
    "Article",
    "Bullet",
    "Chapter",
    "Check",
    "Finding",
    "Contract",
    "Correction",
    "Deck",
    "Decision",
    "Decisions",
    "Draft",
    "Edit",
    "EditedLedger",
    "Edits",
    "DraftParagraph",
    "DraftSection",
    "DraftText",
    "DroppedSegment",
    "Evidence",
    "EvidenceUnit",
    "FactSource",
    "GlossaryEntry",
    "Ledger",
    "LedgerSentence",
    "Outline",
    "Place",
    "QuestionAnswer",
    "Questions",
    "QuestionsText",
    "Notes",
    "Revision",
    "Section",
    "StaleEdit",
    "SentenceCheck",
    "Provenance",
    "Review",
    "ReviewCard",
    "Role",
    "RunRecord",
    "Segment",
    "Slide",
    "StageError",
    "StageOutput",
    "StageRecord",
    "Talk",
    "TalkMeta",
    "Timeline",
    "TimelineSpan",
    "Transcript",
    "Verdict",
    "Word",
    "Written",
]
