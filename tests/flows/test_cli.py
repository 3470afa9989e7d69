import datetime as dt

from flows import cli
from pipeline.schema import RunRecord, StageError


def test_the_summary_shows_verdicts_and_prints_errors_as_they_are(capsys):
    started = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)
    error = StageError(stage="talk", message="bad :x: [red]title[/red]", file="talk.yaml")
    records = [
        RunRecord(talk="good", status="succeeded", started=started, verdict="推荐收录"),
        RunRecord(talk="bad", status="failed", started=started, errors=[error]),
    ]
    cli.report(records)
    out = capsys.readouterr().out
    assert "推荐收录" in out and "succeeded" in out and "failed" in out
    assert "bad :x: [red]title[/red]" in out  # no emoji, no markup from an error's text
