"""The stage table, in the order data flows: what each stage is called, the code it runs,
the inputs that key its output, the file it writes and whether a talk can go on without it.

One word per stage across its folder (pipeline/<word>/), output file, contract and
options: deck -> pipeline/deck/, deck.json, Deck, DeckOptions.
"""

from pipeline.runner import Stage
from pipeline.schema import (
    Article,
    Deck,
    Draft,
    Evidence,
    Outline,
    Review,
    Talk,
    Timeline,
    Transcript,
)
from pipeline.transcript.subtitles import to_srt, to_vtt

# The talk folder classified: recording, decks, subtitles, talk.yaml. Cheap: always runs.
TALK = Stage[Talk]("talk", code="pipeline.talk", contract=Talk)

# Slides (titles, bullets, tables, notes) and a picture of each. A talk without a usable
# deck goes on with its speech alone.
DECK = Stage[Deck](
    "deck",
    code="pipeline.deck",
    keyed_by=("decks", "options"),
    contract=Deck,
    output="deck.json",
    fatal=False,
    refers_to=Deck.pictures,
)

# Timestamped speech: faster-whisper steered by the deck's vocabulary, or the talk's
# subtitles read as they are.
TRANSCRIPT = Stage[Transcript](
    "transcript",
    code="pipeline.transcript",
    keyed_by=("source", "model", "language", "vocabulary", "options"),
    contract=Transcript,
    output="transcript.json",
    texts=lambda t: {"transcript.srt": to_srt(t), "transcript.vtt": to_vtt(t)},
)

# Which slide is on screen when. Without one, evidence has no slide links.
TIMELINE = Stage[Timeline](
    "timeline",
    code="pipeline.timeline",
    keyed_by=("recording", "transcript", "deck", "options"),
    contract=Timeline,
    output="timeline.json",
    fatal=False,
)

# Citable units with stable ids, and a glossary of first occurrences.
EVIDENCE = Stage[Evidence](
    "evidence",
    code="pipeline.evidence",
    keyed_by=("transcript", "deck", "timeline", "vocabulary", "options"),
    contract=Evidence,
    output="evidence.json",
)

# Chapters along the causal chain, planned by the LLM.
OUTLINE = Stage[Outline](
    "outline",
    code="pipeline.writing.outline",
    keyed_by=("evidence", "meta", "model", "prompts", "sampling"),
    contract=Outline,
    output="outline.json",
)

# English chapters written from the evidence, translated paragraph by paragraph.
DRAFT = Stage[Draft](
    "draft",
    code="pipeline.writing.draft",
    keyed_by=("outline", "evidence", "model", "prompts", "sampling"),
    contract=Draft,
    output="draft.json",
)

# Automatic checks a reviewer would otherwise do by hand, and a verdict.
REVIEW = Stage[Review](
    "review",
    code="pipeline.review",
    keyed_by=("draft", "evidence"),
    contract=Review,
    output="review.json",
)

# Markdown articles with front matter. Cheap: always runs.
ARTICLE = Stage[list[Article]](
    "article",
    code="pipeline.article",
    texts=lambda articles: {a.file_name: a.markdown for a in articles},
)

STAGES: tuple[Stage, ...] = (
    TALK,
    DECK,
    TRANSCRIPT,
    TIMELINE,
    EVIDENCE,
    OUTLINE,
    DRAFT,
    REVIEW,
    ARTICLE,
)
