"""The library's corrections of what the recogniser hears."""

import pytest

from pipeline.core.errors import StageFailure
from pipeline.core.replacements import heard_in, in_scope, read_replacements, replaced
from pipeline.schema import Segment, Transcript
from pipeline.schema.transcript import Replacement

HEARD = Transcript(
    language="en",
    source="asr",
    duration=8.0,
    segments=[
        Segment(start=1.0, end=4.0, text="Smart Perfecting hides the latency."),
        Segment(start=5.0, end=8.0, text="Perfectionists love smart perfecting too."),
    ],
)
FIX = Replacement(heard="smart perfecting", right="smart prefetching")


def test_a_heard_form_is_written_right_in_every_segment_and_recorded():
    fixed, made = replaced(HEARD, [FIX])
    assert [s.text for s in fixed.segments] == [
        "smart prefetching hides the latency.",
        "Perfectionists love smart prefetching too.",  # a word, never part of one
    ]
    assert [(c.start, c.original, c.listed) for c in made] == [
        (1.0, "Smart Perfecting", True),
        (5.0, "smart perfecting", True),
    ]


def test_a_correction_fits_its_talk_or_deck_and_only_transcripts_that_heard_it():
    only_one = FIX.model_copy(update={"talk": "meetups/sglang/"})
    of_deck = FIX.model_copy(update={"deck": "sglang.pdf"})
    assert in_scope(only_one, "meetups/sglang", []) and not in_scope(only_one, "other", [])
    assert in_scope(of_deck, "x", ["sglang.pdf"]) and not in_scope(of_deck, "x", ["a.pdf"])
    never = Replacement(heard="Potokans", right="prefill tokens")
    assert heard_in(HEARD, [FIX, never]) == [FIX]


def test_a_broken_corrections_file_names_itself(tmp_path):
    assert read_replacements(tmp_path) == []
    (tmp_path / "corrections.yaml").write_text("corrections:\n- heard: x\n")
    with pytest.raises(StageFailure, match="corrections.yaml"):
        read_replacements(tmp_path)
