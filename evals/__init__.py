"""Eval reports for reviewers: per-talk figures (evals.metrics), reports and a dashboard
across talks and runs with regressions flagged (evals.report), the golden cases with
their truth (evals.golden)."""

from pathlib import Path

from evals.metrics import Truth, talk_metrics
from evals.report import HISTORY, read_history, write_dashboard, write_talk_report
from pipeline.core.store import TalkStore
from pipeline.schema import RunRecord


def evaluate(
    folders: dict[str, Path],
    dashboard: Path,
    truths: dict[str, Truth] | None = None,
    awaiting: dict[str, str] | None = None,
) -> dict[str, list[str]]:
    """Figures, report and regressions of every talk in `folders`; the dashboard in
    `dashboard`, opening with the talks `awaiting` a reviewer (talk -> why). A run the
    dashboard's history already holds (and judged without a truth) keeps its recorded
    figures and report. Returns each talk's regressions against its previous run."""
    recorded = {(h["talk"], h["run"]): h["figures"] for h in read_history(dashboard / HISTORY)}
    results, measured = {}, []
    for slug, out in folders.items():
        run = TalkStore(out).read("run.json", RunRecord)
        run_id = run.started.isoformat() if run else "unknown"
        figures = recorded.get((slug, run_id)) if run and slug not in (truths or {}) else None
        if figures is None:
            figures = talk_metrics(out, (truths or {}).get(slug))
            measured.append(slug)
        results[slug] = (run_id, figures)
    flagged = write_dashboard(dashboard, results, awaiting)
    for slug in measured:
        write_talk_report(folders[slug], slug, results[slug][1], flagged.get(slug, []))
    return flagged
