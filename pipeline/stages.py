"""The stage table, in the order data flows: what each stage is called, the code it runs,
the inputs that key its output, the file it writes and whether a talk can go on without it.

One word per stage across its folder (pipeline/<word>/), output file, contract and
options: deck -> pipeline/deck/, deck.json, Deck, DeckOptions.
"""

from pipeline.runner import Stage
from pipeline.schema import (
    Article,
    Deck,
    EditedLedger,
    Evidence,
    Ledger,
    Notes,
    Outline,
    Questions,
    Review,
    Talk,
    Timeline,
    Transcript,
)
from pipeline.transcript.subtitles import to_srt, to_vtt

# The talk folder classified: recording, decks, subtitles, talk.yaml. Cheap: always runs.
# talk.json tells the site what the talk is (never the deck's password).
TALK = Stage[Talk](
    "talk",
    code="pipeline.talk",
    contract=Talk,
    texts=lambda t: {"talk.json": t.model_dump_json(indent=2, exclude={"meta": {"deck_password"}})},
)

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
    # subtitles: "model" is the LLM that punctuates unpunctuated Chinese ones, with its prompt
    keyed_by=(
        *("source", "recording", "model", "language", "vocabulary", "options"),
        *("prompts", "sampling"),
    ),
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

# Citable units with stable ids, and a glossary of first occurrences; the transcript as
# the library's corrections (inputs/corrections.yaml) write it. "model": the LLM that judges
# the words recognition doubted in English speech (None otherwise; it is asked at
# temperature 0, so no sampling).
EVIDENCE = Stage[Evidence](
    "evidence",
    code="pipeline.evidence",
    keyed_by=("transcript", "corrections", "deck", "timeline", "vocabulary", "options", "model"),
    contract=Evidence,
    output="evidence.json",
)

# The talk's own sections and what each states (its slide lines and the speech that names
# or measures something), decided in code. Cheap: no LLM.
NOTES = Stage[Notes](
    "notes",
    code="pipeline.notes",
    keyed_by=("evidence", "vocabulary", "options"),
    contract=Notes,
    output="notes.json",
)

# Title, card summary, tags and chapters as runs of sections, planned by the LLM over
# what the sections state.
OUTLINE = Stage[Outline](
    "outline",
    code="pipeline.outline",
    keyed_by=("notes", "evidence", "meta", "model", "prompts", "sampling"),
    contract=Outline,
    output="outline.json",
)

# The article as sentences: each slide line, table row or chosen sentence said rewritten
# alone and checked against it, arranged by code, then each sentence translated.
LEDGER = Stage[Ledger](
    "ledger",
    code="pipeline.ledger",
    keyed_by=("outline", "notes", "evidence", "vocabulary", "model", "prompts", "sampling"),
    contract=Ledger,
    output="ledger.json",
)

# The reviewers' edits (edits.yaml in the talk's folder) applied to the ledger: those whose
# sentence's source is unchanged, in code; the others listed as stale. Cheap: no LLM.
EDITS = Stage[EditedLedger](
    "edits",
    code="pipeline.edits",
    keyed_by=("ledger", "edits"),
    contract=EditedLedger,
    output="edited.json",
)

# Automatic checks a reviewer would otherwise do by hand, a verdict by written rules, and
# the review card, built in code from the article's sentences. Cheap: no LLM.
REVIEW = Stage[Review](
    "review",
    code="pipeline.review",
    keyed_by=(
        "ledger",
        "evidence",
        "language",
        "vocabulary",
        "prompts",
    ),
    contract=Review,
    output="review.json",
)

# The article's companion in questions and answers: runs of its verified sentences as
# answers, a question asked of each and checked against it. A talk goes on without it.
QUESTIONS = Stage[Questions](
    "questions",
    code="pipeline.questions",
    keyed_by=("ledger", "vocabulary", "model", "prompts", "sampling"),
    contract=Questions,
    output="questions.json",
    fatal=False,
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
    NOTES,
    OUTLINE,
    LEDGER,
    EDITS,
    REVIEW,
    QUESTIONS,
    ARTICLE,
)
