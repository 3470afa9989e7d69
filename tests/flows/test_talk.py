"""The talk flow end to end in seconds: subtitles instead of Whisper, the LLM test double
instead of llama.cpp, a real deck, the real stage runner under a Prefect test harness."""

import re
import shutil
from pathlib import Path

import pytest
from prefect import flow
from prefect.testing.utilities import prefect_test_harness

from flows import talk as talk_flow
from pipeline.core import source
from pipeline.settings import Settings
from tests.decks import pdf_with_pages
from tests.helpers import DATA, MADE
from tests.llm_double import SchemaReplies, scripted_llm

SRT = """1
00:00:00,500 --> 00:00:05,000
Reserving memory for the longest answer wastes most of it.

2
00:00:05,500 --> 00:00:10,500
Blocks of sixteen tokens are handed out as a sequence grows.
"""


@pytest.fixture(scope="module")
def prefect():
    with prefect_test_harness(server_startup_timeout=120):
        yield


class Session:
    """Stands in for LLMSession: the LLM double, with every request it got."""

    def __init__(self) -> None:
        self.llm, self.endpoint = scripted_llm(SchemaReplies())
        self.model_id, self.runtime = "scripted", "a test double"

    def get(self):
        return self.llm


@pytest.fixture
def talk(tmp_path) -> tuple[Path, Settings]:
    folder = tmp_path / "inputs" / "meetups" / "paging"
    folder.mkdir(parents=True)
    shutil.copy(DATA / "jfk.flac", folder / "talk.flac")
    (folder / "talk.srt").write_text(SRT)
    pdf_with_pages(folder / "slides.pdf", ["Reserved memory is wasted", "Blocks of 16 tokens"])
    settings = Settings(inputs_dir=tmp_path / "inputs", outputs_dir=tmp_path / "outputs")
    return folder, settings


@flow(validate_parameters=False)
def run_talk(folder: Path, settings: Settings, session: "Session"):
    """The flow's run_talk inside a flow run, with the LLM double as the session."""
    return talk_flow.run_talk(folder, settings, session)


def statuses(record) -> dict[str, str]:
    return {stage.name: stage.status for stage in record.stages}


def test_outputs_go_to_the_talks_path_under_inputs(prefect, talk):
    folder, settings = talk
    record = run_talk(folder, settings, Session())
    assert record.status in MADE, record.errors
    out = settings.outputs_dir / "meetups" / "paging"
    assert record.talk == "meetups/paging"
    assert record.outputs == [str(out / "article.zh.md"), str(out / "article.en.md")]
    names = ["deck.json", "transcript.json", "transcript.srt", "timeline.json", "evidence.json"]
    names += [
        "notes.json",
        "outline.json",
        "ledger.json",
        "edited.json",
        "review.json",
        "questions.json",
        "run.json",
        "llm_calls.jsonl",
    ]
    assert all((out / name).is_file() for name in names)
    assert list(statuses(record)) == [
        "talk",
        "deck",
        "transcript",
        "timeline",
        "evidence",
        "notes",
        "outline",
        "ledger",
        "edits",
        "review",
        "questions",
        "article",
    ]


def test_a_run_says_each_stage_and_how_long_is_left_from_the_runs_before(prefect, talk, capsys):
    folder, settings = talk
    assert run_talk(folder, settings, Session()).status in MADE
    first = capsys.readouterr().err
    assert "meetups/paging: talk (1/12), 0 s in" in first and "ledger (8/12)" in first
    assert "left" not in first  # no earlier run to take a pace from
    (folder / "talk.yaml").write_text("title: Paging, again\n")  # a change: the run goes on
    assert run_talk(folder, settings, Session()).status in MADE
    again = capsys.readouterr().err
    assert re.search(r"ledger \(8/12\), [\d min]+ s in, about \d+ min left", again), again


def test_subtitles_alone_are_a_talk(prefect, talk):
    folder, settings = talk
    (folder / "talk.flac").unlink()
    (folder / "slides.pdf").unlink()
    record = run_talk(folder, settings, Session())
    assert record.status in MADE, record.errors
    assert statuses(record)["transcript"] == "done"
    assert statuses(record)["deck"] == "skipped"


def test_a_comment_edit_reruns_only_the_stage_whose_code_changed(prefect, talk, monkeypatch):
    folder, settings = talk
    code = folder.parent.parent.parent / "code" / "pipeline"
    shutil.copytree(source.ROOT, code, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(source, "ROOT", code)  # the code as the cache keys see it
    first = Session()
    assert run_talk(folder, settings, first).status in MADE
    assert first.endpoint.requests  # the LLM wrote the article

    unchanged = Session()
    record = run_talk(folder, settings, unchanged)
    assert not unchanged.endpoint.requests
    assert set(statuses(record).values()) == {"done", "cached"}
    assert [n for n, s in statuses(record).items() if s == "done"] == ["talk", "article"]

    for edited, reran in (("article/__init__.py", ["talk", "article"]),
                          ("review/__init__.py", ["talk", "review", "article"])):  # fmt: skip
        with open(code / edited, "a") as module:
            module.write("# a comment\n")
        session = Session()
        record = run_talk(folder, settings, session)
        assert not session.endpoint.requests
        assert [n for n, s in statuses(record).items() if s == "done"] == reran


def test_two_talks_from_outside_inputs_with_one_name_never_share_outputs(prefect, talk, tmp_path):
    folder, settings = talk
    first, second = tmp_path / "a" / "paging", tmp_path / "b" / "paging"
    shutil.copytree(folder, first)
    shutil.copytree(folder, second)
    (second / "talk.srt").write_text(SRT.replace("wastes most of it", "is mostly idle"))
    assert run_talk(first, settings, Session()).status in MADE
    article = (settings.outputs_dir / "paging" / "article.en.md").read_text()
    refused = run_talk(second, settings, Session())
    assert refused.status == "failed"
    assert "another talk with the same folder name" in refused.errors[0].message
    assert str(first) in refused.errors[0].message
    assert (settings.outputs_dir / "paging" / "article.en.md").read_text() == article
    assert run_talk(first, settings, Session()).status in MADE  # its own folder: fine


def test_a_library_correction_reruns_only_the_talks_that_heard_it(prefect, talk):
    from flows.talk import is_fresh
    from pipeline.schema import Evidence

    folder, settings = talk
    other = folder.parent / "other"
    other.mkdir()
    (other / "talk.srt").write_text(SRT.split("\n\n")[0] + "\n")  # never says the heard form
    for each in (folder, other):
        assert run_talk(each, settings, Session()).status in MADE
    correction = "corrections:\n- heard: sixteen tokens\n  right: 16 tokens\n"
    (settings.inputs_dir / "corrections.yaml").write_text(correction)
    assert not is_fresh(folder, settings) and is_fresh(other, settings)

    record = run_talk(folder, settings, Session())
    done = [name for name, status in statuses(record).items() if status == "done"]
    assert "transcript" not in done and "evidence" in done
    out = settings.outputs_dir / "meetups" / "paging"
    evidence = Evidence.model_validate_json((out / "evidence.json").read_text())
    said = " ".join(u.text for u in evidence.units if u.kind == "transcript")
    assert "16 tokens" in said and "sixteen" not in said
    assert [(c.original, c.listed) for c in evidence.corrections] == [("sixteen tokens", True)]
    assert is_fresh(folder, settings)

    # a typo in corrections.yaml: the corrections last read stand, nothing reruns or fails
    (settings.inputs_dir / "corrections.yaml").write_text(correction + "- heard: [\n")
    assert is_fresh(folder, settings) and is_fresh(other, settings)
    (warning,) = talk_flow.library_warnings(settings)
    assert "corrections.yaml" in warning and "line" in warning and "the 1 corrections" in warning
    assert run_talk(other, settings, Session()).status in MADE


def test_corrections_that_cannot_apply_are_refused_or_named(tmp_path):
    from pydantic import ValidationError

    from pipeline.schema.transcript import Replacement

    for heard in (" ", "-", "…"):  # a heard form with no word would match everywhere
        with pytest.raises(ValidationError, match="letter or digit"):
            Replacement(heard=heard, right="x")
    inputs = tmp_path / "inputs"
    (inputs / "talk").mkdir(parents=True)
    (inputs / "talk" / "talk.srt").write_text(SRT)
    (inputs / "corrections.yaml").write_text(
        "corrections:\n- {heard: vee ell em, right: vLLM, talk: tlak}\n"
        "- {heard: sig lang, right: SGLang, deck: none.pdf}\n"
        "- {heard: a b, right: AB, talk: talk}\n"
    )
    settings = Settings(inputs_dir=inputs, outputs_dir=tmp_path / "outputs")
    warnings = talk_flow.library_warnings(settings)
    assert len(warnings) == 2
    assert "'tlak', which is no talk folder" in warnings[0] and "'none.pdf'" in warnings[1]


def test_a_talk_folder_with_a_reserved_name_is_refused_before_anything_is_written(tmp_path):
    inputs = tmp_path / "inputs"
    (inputs / "site").mkdir(parents=True)
    (inputs / "site" / "talk.srt").write_text(SRT)
    settings = Settings(inputs_dir=inputs, outputs_dir=tmp_path / "outputs")
    record = talk_flow.run_talk(inputs / "site", settings, Session())
    assert record.status == "failed" and "cannot be called 'site'" in record.errors[0].message
    assert record.errors[0].file == str(inputs / "site")
    assert not (tmp_path / "outputs" / "site").exists()  # the site's folder is untouched
