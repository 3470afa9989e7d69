import json
import os

import pytest

from pipeline.core.errors import StageFailure
from pipeline.core.prompts import Prompt
from pipeline.core.source import ROOT
from pipeline.core.store import TalkStore
from pipeline.runner import Stage, StageFailed, TalkRun, provenance
from pipeline.schema import Deck, Evidence, EvidenceUnit, Slide
from pipeline.stages import DECK

EVIDENCE = Stage[Evidence](
    "evidence",
    code="pipeline.evidence",
    keyed_by=("notes", "options"),
    contract=Evidence,
    output="evidence.json",
    texts=lambda e: {"evidence.txt": "\n".join(u.text for u in e.units)},
)


class Maker:
    """make() for a stage, counting how often it really ran."""

    def __init__(self, text: str = "blocks of 16 tokens") -> None:
        self.text, self.calls = text, 0

    def __call__(self) -> Evidence:
        self.calls += 1
        unit = EvidenceUnit(id="s-01", kind="slide", text=self.text, slide=1)
        return Evidence(units=[unit], warnings=["slide 1 is blurry"])


def saved(tmp_path) -> dict:
    return json.loads((tmp_path / "run.json").read_text())


def test_a_stage_runs_once_then_is_reused_while_its_inputs_are_the_same(tmp_path):
    make, key = Maker(), {"notes": "a", "options": {"max_tokens": 80}}
    first = TalkRun(TalkStore(tmp_path), "talk")
    made = first.run(EVIDENCE, make, key)
    assert made.provenance.stage == "evidence" and made.provenance.options == {
        "options.max_tokens": "80"
    }
    assert (tmp_path / "evidence.txt").read_text() == "blocks of 16 tokens"
    again = TalkRun(TalkStore(tmp_path), "talk")
    assert again.run(EVIDENCE, make, key) == made and make.calls == 1
    again.run(EVIDENCE, make, key | {"notes": "b"})
    assert make.calls == 2
    record = saved(tmp_path)
    assert [(s["name"], s["status"]) for s in record["stages"]] == [
        ("evidence", "cached"),
        ("evidence", "done"),
    ]
    assert record["stages"][0]["warnings"] == ["slide 1 is blurry"]
    assert record["status"] == "running" and record["versions"]["talk2article"]


def test_a_stored_output_is_not_reused_without_the_files_it_names(tmp_path):
    make, key = Maker(), {"notes": "a", "options": {}}
    run = TalkRun(TalkStore(tmp_path), "talk")
    run.run(EVIDENCE, make, key)
    (tmp_path / "evidence.txt").unlink()
    run.run(EVIDENCE, make, key)
    assert make.calls == 2 and (tmp_path / "evidence.txt").exists()


def test_deck_pictures_must_exist_for_the_deck_to_be_reused(tmp_path):
    def make() -> Deck:
        (tmp_path / "slides").mkdir(exist_ok=True)
        (tmp_path / "slides" / "slide-001.jpg").write_bytes(b"jpg")
        return Deck(sources=["d.pdf"], slides=[Slide(index=1, thumbnail="slides/slide-001.jpg")])

    run = TalkRun(TalkStore(tmp_path), "talk")
    run.run(DECK, make, {"decks": [], "options": {}})
    (tmp_path / "slides" / "slide-001.jpg").unlink()
    run.run(DECK, make, {"decks": [], "options": {}})
    assert [s.status for s in run.record.stages] == ["done", "done"]


def test_the_key_must_name_exactly_the_inputs_of_the_stage_table(tmp_path):
    run = TalkRun(TalkStore(tmp_path), "talk")
    with pytest.raises(StageFailed, match="keyed by"):
        run.run(EVIDENCE, Maker(), {"notes": "a"})


def test_provenance_covers_code_inputs_model_prompts_and_options_without_leaking_text():
    stage = Stage("outline", code="pipeline.writing.outline", keyed_by=("evidence", "model", "p"))
    prompt = Prompt("outline", "f" * 64, "s", "u")
    base = provenance(stage, {"evidence": "secret text", "model": "m", "p": [prompt]}, ROOT)
    assert base.model == "m" and base.prompts == {"outline": "f" * 64}
    assert "secret text" not in base.model_dump_json()
    changed = [
        {"evidence": "other", "model": "m", "p": [prompt]},
        {"evidence": "secret text", "model": "n", "p": [prompt]},
        {"evidence": "secret text", "model": "m", "p": [Prompt("outline", "e" * 64, "s", "u")]},
    ]
    assert all(provenance(stage, key, ROOT).key != base.key for key in changed)


def test_a_fatal_failure_ends_the_run_and_names_stage_and_file(tmp_path):
    def fail() -> Evidence:
        raise StageFailure("no recording found", tmp_path)

    run = TalkRun(TalkStore(tmp_path), "talk")
    with pytest.raises(StageFailed):
        run.run(EVIDENCE, fail, {"notes": "a", "options": {}})
    record = saved(tmp_path)
    assert record["status"] == "failed"
    assert record["errors"] == [
        {"stage": "evidence", "message": "no recording found", "file": str(tmp_path)}
    ]


def test_a_non_fatal_failure_is_recorded_and_the_talk_goes_on(tmp_path):
    def fail() -> Deck:
        raise ValueError("odd deck")

    run = TalkRun(TalkStore(tmp_path), "talk")
    assert run.run(DECK, fail, {"decks": [], "options": {}}) is None
    assert run.record.status == "running"
    assert run.record.stages[0].status == "failed"
    assert run.record.errors[0].message == "ValueError: odd deck"
    assert run.finish([]).status == "partial"


def test_a_failed_rerun_leaves_no_articles_that_look_current(tmp_path):
    for name in ("article.zh.md", "article.en.md"):
        (tmp_path / name).write_text("an earlier run's article")

    def broken() -> Evidence:
        raise StageFailure("the evidence is unusable")

    run = TalkRun(TalkStore(tmp_path), "t")
    with pytest.raises(StageFailed):
        run.run(EVIDENCE, broken, {"notes": "a", "options": {}})
    assert saved(tmp_path)["status"] == "failed"
    assert not (tmp_path / "article.zh.md").exists() and not (tmp_path / "article.en.md").exists()


def test_the_stage_in_progress_is_recorded_and_a_killed_run_is_recognised(tmp_path):
    first = TalkRun(TalkStore(tmp_path), "t")
    first.record.stage = "draft"
    first.record.pid = 2**22 + 12345  # a process that is gone: killed outright
    first.save()
    second = TalkRun(TalkStore(tmp_path), "t")
    assert "was killed during draft" in second.record.previous
    assert saved(tmp_path)["pid"] == os.getpid()
    alive = TalkRun(TalkStore(tmp_path), "t")  # the last one is still running: not killed
    assert alive.record.previous is None


def test_an_interrupt_records_the_stage_it_stopped_in(tmp_path):
    run = TalkRun(TalkStore(tmp_path), "t")
    run.record.stage = "notes"
    run.interrupted("SIGINT")
    record = saved(tmp_path)
    assert record["status"] == "interrupted" and record["pid"] is None
    assert record["errors"] == [{"stage": "notes", "message": "interrupted (SIGINT)", "file": None}]


def test_a_talk_held_by_another_run_is_refused_with_a_clear_message(tmp_path):
    # flock is per open file: a second open in this process stands for another run
    first, second = TalkStore(tmp_path / "t"), TalkStore(tmp_path / "t")
    with first.lock(), pytest.raises(StageFailure, match=r"another run \(pid \d+\)"):
        second.lock().__enter__()


def test_a_fallback_anywhere_means_the_run_is_never_plain_succeeded(tmp_path):
    run = TalkRun(TalkStore(tmp_path), "talk")
    assert run.run(EVIDENCE, lambda: Evidence(units=[]), {"notes": "a", "options": {}}) is not None
    notes = Evidence(units=[], fallbacks=["sec-01: no valid claims; kept its sentences"])
    run.run(EVIDENCE, lambda: notes, {"notes": "b", "options": {}})
    record = run.finish([])
    assert record.status == "fallback"
    assert record.fallbacks() == ["evidence: sec-01: no valid claims; kept its sentences"]
    clean = TalkRun(TalkStore(tmp_path / "clean"), "talk")
    clean.run(EVIDENCE, lambda: Evidence(units=[]), {"notes": "a", "options": {}})
    assert clean.finish([]).status == "succeeded"
