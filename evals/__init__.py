"""Eval reports for reviewers: per-talk figures (evals.metrics), reports and a dashboard
across talks and runs with regressions flagged (evals.report), the golden cases with
their truth (evals.golden)."""

from pathlib import Path

from evals.metrics import Truth, talk_metrics
from evals.report import write_dashboard, write_talk_report
from pipeline.core.store import TalkStore
from pipeline.schema import RunRecord


def evaluate(
    folders: dict[str, Path],
    dashboard: Path,
    truths: dict[str, Truth] | None = None,
    awaiting: dict[str, str] | None = None,
) -> dict[str, list[str]]:
    """Figures, report and regressions of every talk in `folders`; the dashboard in
    `dashboard`, opening with the talks `awaiting` a reviewer (talk -> why). Returns each
    talk's regressions against its previous run."""
    results = {}
    for slug, out in folders.items():
        run = TalkStore(out).read("run.json", RunRecord)
        run_id = run.started.isoformat() if run else "unknown"
        results[slug] = (run_id, talk_metrics(out, (truths or {}).get(slug)))
    flagged = write_dashboard(dashboard, results, awaiting)
    for slug, (_, figures) in results.items():
        write_talk_report(folders[slug], slug, figures, flagged.get(slug, []))
    return flagged
