import datetime as dt

from pipeline.progress import NAMES, pace_of, progress_line
from pipeline.schema import RunRecord, StageRecord

STARTED = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


def ran(outputs, slug: str, minutes: float | None, seconds: dict[str, tuple[float, str]]):
    stages = [StageRecord(name=n, status=s, seconds=x) for n, (x, s) in seconds.items()]
    record = RunRecord(talk=slug, started=STARTED, minutes=minutes, stages=stages)
    (outputs / slug).mkdir(parents=True)
    (outputs / slug / "run.json").write_text(record.model_dump_json())


def test_the_pace_is_each_stages_work_per_minute_of_talk_in_earlier_runs(tmp_path):
    ran(tmp_path, "a", 10.0, {"ledger": (100.0, "done"), "outline": (1.0, "cached")})
    ran(tmp_path, "b", 20.0, {"ledger": (400.0, "done")})
    ran(tmp_path, "c", 30.0, {"ledger": (900.0, "done")})
    ran(tmp_path, "untimed", None, {"ledger": (5.0, "done")})  # its length unknown
    assert pace_of(tmp_path) == {"ledger": 20.0}  # the median; a reused stage did no work


def test_the_time_left_shows_once_the_talk_has_a_length_and_every_stage_a_pace(tmp_path):
    pace = dict.fromkeys(NAMES, 1.0)  # a second per minute of talk, each stage
    record = RunRecord(talk="t", started=STARTED)
    assert progress_line(record, "ledger", pace, 75.0) == "t: ledger (8/12), 1 min 15 s in"
    record.minutes = 60.0
    line = progress_line(record, "ledger", pace, 75.0)
    assert line == "t: ledger (8/12), 1 min 15 s in, about 5 min left"  # 5 stages × 60 s
    assert "left" not in progress_line(record, "ledger", {"ledger": 1.0}, 75.0)
