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


def test_a_reviewer_lists_what_awaits_them_and_decides(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from pipeline.review.decisions import read_decisions
    from tests.site.published import ZH_UNTRANSLATED, publish

    monkeypatch.chdir(tmp_path)
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    publish(outputs, "revise", "待修改的演讲", dt.date(2026, 4, 1), zh=ZH_UNTRANSLATED)
    publish(outputs, "good", "推荐的演讲", dt.date(2026, 4, 1))
    (inputs / "revise").mkdir(parents=True)
    (inputs / "good").mkdir()
    (inputs / "none").mkdir()
    runner = CliRunner()
    listed = runner.invoke(cli.app, ["review"], env={"COLUMNS": "200"})
    assert listed.exit_code == 0, listed.output
    assert "revise" in listed.output and "需修改" in listed.output
    assert "a sentence is in the wrong language (Chinese chapter 1, paragraph 2)" in listed.output
    assert "talk2article site build --preview" in listed.output  # no preview built yet
    assert "no eval report yet" in listed.output

    refused = runner.invoke(cli.app, ["review", "reject", "inputs/revise", "--by", "Ada"])
    assert refused.exit_code != 0 and "--note" in refused.output  # a rejection says why
    done = runner.invoke(
        cli.app,
        ["review", "hold", "inputs/revise", "--note", "check slide 2"],
        env={"TALK2ARTICLE_REVIEWER": "Ada"},
    )
    assert done.exit_code == 0, done.output
    assert [(d.decision, d.reviewer, d.note) for d in read_decisions(inputs / "revise")] == [
        ("held", "Ada", "check slide 2")
    ]
    listed = runner.invoke(cli.app, ["review"], env={"COLUMNS": "200"})
    assert "held by Ada: check slide 2" in listed.output
    runner.invoke(cli.app, ["review", "approve", "inputs/revise", "--by", "Bo"])
    runner.invoke(cli.app, ["review", "approve", "inputs/good", "--by", "Bo"])
    assert "nothing awaits a reviewer" in runner.invoke(cli.app, ["review"]).output
    missing = runner.invoke(cli.app, ["review", "approve", "inputs/none", "--by", "Bo"])
    assert missing.exit_code == 1 and "it has not run" in missing.output


def test_a_reviewer_is_told_of_a_talk_whose_decisions_cannot_be_read(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from tests.site.published import publish

    monkeypatch.chdir(tmp_path)
    publish(tmp_path / "outputs", "talk", "演讲", dt.date(2026, 4, 1))
    (tmp_path / "inputs" / "talk").mkdir(parents=True)
    (tmp_path / "inputs" / "talk" / "decisions.yaml").write_text("decisions: [{at: 2026-13-45}]")
    runner = CliRunner()
    for command in (["review"], ["review", "--all"]):
        listed = runner.invoke(cli.app, command, env={"COLUMNS": "300"})
        assert listed.exit_code == 0 and "not listed" in listed.output, listed.output
        assert "inputs/talk/decisions.yaml" in listed.output


def test_a_note_too_long_is_a_one_line_error(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from tests.site.published import publish

    monkeypatch.chdir(tmp_path)
    publish(tmp_path / "outputs", "talk", "演讲", dt.date(2026, 4, 1))
    (tmp_path / "inputs" / "talk").mkdir(parents=True)
    held = CliRunner().invoke(
        cli.app, ["review", "hold", "inputs/talk", "--by", "Ada", "--note", "x" * 100_000]
    )
    assert held.exit_code == 1 and "note: String should have at most" in held.output
    assert "Traceback" not in held.output and "xxxx" not in held.output
    assert len(held.output.splitlines()) <= 2
    assert not (tmp_path / "inputs" / "talk" / "decisions.yaml").exists()
