import json

import pytest

from pipeline.errors import StageFailure
from pipeline.runlog import RunLog
from pipeline.store import TalkStore


def test_stages_are_timed_and_saved_as_they_finish(tmp_path):
    log = RunLog(TalkStore(tmp_path), "talk")
    with log.stage("one"):
        pass
    with log.stage("two") as state:
        state["cached"] = True
    saved = json.loads((tmp_path / "run.json").read_text())
    assert [(s["name"], s["status"]) for s in saved["stages"]] == [
        ("one", "done"),
        ("two", "cached"),
    ]
    assert saved["status"] == "running" and saved["versions"]["talk2article"]


def test_a_fatal_failure_ends_the_run_and_propagates(tmp_path):
    log = RunLog(TalkStore(tmp_path), "talk")
    with pytest.raises(StageFailure), log.stage("ingest"):
        raise StageFailure("ingest", "no recording found", tmp_path)
    saved = json.loads((tmp_path / "run.json").read_text())
    assert saved["status"] == "failed"
    assert saved["errors"] == [
        {"stage": "ingest", "message": "no recording found", "file": str(tmp_path)}
    ]


def test_a_non_fatal_failure_is_recorded_and_swallowed(tmp_path):
    log = RunLog(TalkStore(tmp_path), "talk")
    with log.stage("slides", fatal=False):
        raise ValueError("odd deck")
    assert log.record.status == "running"
    assert log.record.stages[0].status == "failed"
    assert log.record.errors[0].message == "ValueError: odd deck"
