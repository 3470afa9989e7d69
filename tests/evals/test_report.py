import datetime as dt
import html
import json

import markdown

from evals import evaluate
from evals.report import regressions, write_dashboard
from pipeline.core.store import talk_outputs
from tests.site.hostile import live_markup
from tests.site.published import publish

BEFORE = {"facts_covered": 0.9, "invented_numbers": 0, "copied_share": 0.30, "seconds": 100.0}


def test_a_figure_that_got_worse_is_flagged_and_noise_is_not():
    after = {"facts_covered": 0.7, "invented_numbers": 2, "copied_share": 0.31, "seconds": 110.0}
    flagged = regressions(BEFORE, after)
    assert flagged == ["facts_covered: 0.9 → 0.7", "invented_numbers: 0 → 2"]
    assert regressions(BEFORE, {**BEFORE, "seconds": 150.0}) == ["seconds: 100.0 → 150.0"]
    assert regressions(BEFORE, {**BEFORE, "facts_covered": 1.0}) == []  # better is no flag
    assert regressions(None, BEFORE) == []  # a first run has nothing to compare with


def test_the_dashboard_compares_each_talk_with_its_own_previous_run(tmp_path):
    write_dashboard(tmp_path, {"a": ("2026-11-01", BEFORE), "b": ("2026-11-01", BEFORE)})
    worse = {**BEFORE, "invented_numbers": 3}
    flagged = write_dashboard(tmp_path, {"a": ("2026-11-02", worse), "b": ("2026-11-01", BEFORE)})
    assert flagged == {"a": ["invented_numbers: 0 → 3"], "b": []}
    assert len((tmp_path / "history.jsonl").read_text().splitlines()) == 3  # b's run once
    dashboard = (tmp_path / "dashboard.md").read_text()
    assert "**a**: invented\\_numbers: 0 → 3" in dashboard  # Markdown, shown as text
    page = (tmp_path / "dashboard.html").read_text()
    assert '<td class="bad">3</td>' in page and "<script" not in page and "<svg" in page


def test_every_talk_gets_a_report_beside_its_articles(tmp_path):
    outputs = tmp_path / "outputs"
    publish(outputs, "examples/paging", "分页", dt.date(2026, 10, 1))
    folders = talk_outputs(outputs, outputs / "site")
    assert list(folders) == ["examples/paging"]
    evaluate(folders, outputs / "evals")
    talk = outputs / "examples/paging"
    figures = json.loads((talk / "eval.json").read_text())
    assert figures["parity"] == 1.0 and figures["invented_numbers"] == 0
    assert figures["facts_covered"] is None  # no truth for this talk
    assert "| parity | 1 |" in (talk / "eval.md").read_text()
    assert (talk / "eval.html").read_text().startswith("<!doctype html>")
    assert "examples/paging" in (outputs / "evals" / "dashboard.md").read_text()


def test_a_run_already_measured_is_not_measured_again(tmp_path):
    outputs = tmp_path / "outputs"
    publish(outputs, "paging", "分页", dt.date(2026, 10, 1))
    publish(outputs, "later", "以后", dt.date(2026, 11, 1))
    evaluate(talk_outputs(outputs, outputs / "site"), outputs / "evals")
    (outputs / "paging" / "eval.json").unlink()
    (outputs / "later" / "eval.json").unlink()
    run = json.loads((outputs / "later" / "run.json").read_text())
    run["started"] = "2026-12-01T00:00:00Z"  # a new run
    (outputs / "later" / "run.json").write_text(json.dumps(run))
    evaluate(talk_outputs(outputs, outputs / "site"), outputs / "evals")
    assert not (outputs / "paging" / "eval.json").exists()  # its run's figures are recorded
    assert (outputs / "later" / "eval.json").exists()
    assert "paging" in (outputs / "evals" / "dashboard.md").read_text()


def test_the_dashboard_opens_with_the_articles_awaiting_a_reviewer(tmp_path):
    waiting = {"talk": "no decision yet. Automatic verdict Needs revision: <b>x</b>"}
    write_dashboard(tmp_path, {"talk": ("2026-11-01", BEFORE)}, waiting)
    dashboard = (tmp_path / "dashboard.md").read_text()
    assert dashboard.index("## Awaiting a reviewer") < dashboard.index("## Figures")
    assert "- **talk**: no decision yet. Automatic verdict Needs revision" in dashboard
    page = (tmp_path / "dashboard.html").read_text()
    assert page.index("Awaiting a reviewer") < page.index("<table")
    assert "&lt;b&gt;x&lt;/b&gt;" in page  # escaped
    write_dashboard(tmp_path, {"talk": ("2026-11-01", BEFORE)})
    assert "## Awaiting a reviewer\n\nNone." in (tmp_path / "dashboard.md").read_text()


def test_a_reviewers_note_in_the_dashboard_markdown_is_text(tmp_path):
    note = "held by Ada: see [here](javascript:alert(1)) <img src=x onerror=alert(2)> & _x_"
    write_dashboard(tmp_path, {"my_talk": ("2026-11-01", BEFORE)}, {"my_talk": note})
    shown = markdown.markdown((tmp_path / "dashboard.md").read_text(), extensions=["tables"])
    assert live_markup(shown) == [] and "<em>" not in shown
    assert f"<strong>my_talk</strong>: {html.escape(note, quote=False)}" in shown
