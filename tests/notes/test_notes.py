"""What each section of the talk states, decided in code with no LLM call."""

from pipeline.notes import build_notes
from pipeline.notes.options import NotesOptions
from pipeline.schema import Evidence, EvidenceUnit

SLIDE = "\n".join(
    [
        "KV cache memory",
        "Blocks of 16 tokens, handed out on demand",
        "| GPU | Throughput |",
        "| --- | --- |",
        "| A100 | 2.2x |",
    ]
)
EVIDENCE = Evidence(
    language="en",
    units=[
        EvidenceUnit(id="s-02", kind="slide", text=SLIDE, slide=2),
        EvidenceUnit(
            id="t-00:00:00",
            kind="transcript",
            text="Um, so, next we look at it. Reserving the maximum length wastes 60 to 80 "
            "percent of KV cache memory.",
            start=0.0,
            end=6.0,
            slide=2,
        ),
        EvidenceUnit(
            id="t-00:00:06",
            kind="transcript",
            text="So blocks of 16 tokens are handed out on demand. PagedAttention keeps them "
            "in a block table.",
            start=6.0,
            end=12.0,
            slide=2,
        ),
    ],
)


def test_a_section_states_its_slide_lines_table_rows_and_the_speech_that_names_something():
    notes = build_notes(EVIDENCE, ["PagedAttention", "KV cache"], NotesOptions())
    [section] = notes.sections
    assert section.title == "KV cache memory"
    assert [(f.kind, f.text) for f in section.facts] == [
        ("slide", "Blocks of 16 tokens, handed out on demand"),
        ("table", "GPU: A100; Throughput: 2.2x"),
        ("speech", "Reserving the maximum length wastes 60 to 80 percent of KV cache memory."),
        ("speech", "PagedAttention keeps them in a block table."),
    ]  # the meta-talk and the slide line said again are left out
    assert section.terms == ["KV cache", "PagedAttention"]  # in the order first named
    assert all(f.unit in section.unit_ids for f in section.facts)


def test_the_notes_cost_no_llm_call_and_their_numbers_are_the_talks():
    notes = build_notes(EVIDENCE, [], NotesOptions())
    said = " ".join(u.text for u in EVIDENCE.units)
    facts = [f for s in notes.sections for f in s.facts]
    assert facts and all(f.text in said or f.kind == "table" for f in facts)
    assert notes.fallbacks == []


def test_the_decks_cover_states_no_fact():
    cover = EvidenceUnit(
        id="s-01", kind="slide", text="Serving LLMs fast\nAda Lindqvist, Example Labs", slide=1
    )
    evidence = EVIDENCE.model_copy(update={"units": [cover, *EVIDENCE.units]})
    facts = [f for s in build_notes(evidence, [], NotesOptions()).sections for f in s.facts]
    assert facts and not any(f.unit == "s-01" for f in facts)
