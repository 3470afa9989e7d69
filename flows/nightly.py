"""The nightly flow: every new or changed talk under inputs/, then the site and the eval
dashboard (published as Prefect artifacts when it runs as a flow).

Talks are independent tasks. By default they run one at a time (a transcription or a
local LLM takes every core); with the Dask task runner they spread over workers, each
with its own LLM endpoint (prefect-dask: `nightly.with_options(task_runner=...)`).
"""

from pathlib import Path

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NONE
from prefect.context import FlowRunContext
from prefect.task_runners import ThreadPoolTaskRunner
from pydantic import Field

from evals import evaluate
from evals.report import HISTORY, read_history
from flows.talk import configured, is_fresh, library_warnings, run_talk
from pipeline.core.store import talk_outputs
from pipeline.fingerprint import shared_fingerprint, stat_index
from pipeline.library.talks import awaiting_review, talks_with_articles
from pipeline.llm.session import LLMSession
from pipeline.schema import Contract, RunRecord
from pipeline.settings import Settings
from pipeline.site import build_site, site_is_current
from pipeline.talk import discover_talks, talk_slug


class NightlyReport(Contract):
    fresh: list[str] = Field(description="talks whose articles are current: not run")
    records: list[RunRecord] = Field(description="the talks that ran")
    site: str | None = Field(None, description="the built site, if rebuilt")
    warnings: list[str] = Field(
        default_factory=list, description="maintainers' files the site could not use, by name"
    )
    regressions: dict[str, list[str]] = Field(
        default_factory=dict, description="per talk, the figures worse than its previous run"
    )


def changed_talks(settings: Settings) -> tuple[list[Path], list[Path]]:
    """(talks to run, talks whose last run is current), without loading any model."""
    talks = discover_talks(settings.inputs_dir, settings.outputs_dir)
    shared = shared_fingerprint(settings)  # the same for every talk: hashed once
    fresh = [folder for folder in talks if is_fresh(folder, settings, shared)]
    stat_index(settings.outputs_dir).save()
    return [folder for folder in talks if folder not in fresh], fresh


@task(name="talk", cache_policy=NONE, persist_result=False)
def talk_task(folder: Path, settings: Settings) -> RunRecord:
    """One talk with its own LLM session: a worker elsewhere cannot share ours."""
    with LLMSession(settings.llm_setup) as llm:
        return run_talk(folder, settings, llm)


@flow(name="nightly", task_runner=ThreadPoolTaskRunner(max_workers=1))
def nightly(inputs_dir: Path | None = None, outputs_dir: Path | None = None) -> NightlyReport:
    """Run every new or changed talk, then rebuild the site and the dashboard if anything
    ran or a reviewer decided since the last build."""
    settings = configured(inputs_dir, outputs_dir)
    changed, fresh = changed_talks(settings)
    if FlowRunContext.get() is None:  # called plainly (`talk2article nightly`, no server)
        records = [talk_task.fn(folder, settings) for folder in changed]
    else:
        futures = [talk_task.submit(folder, settings) for folder in changed]
        records = [future.result() for future in futures]
    site = settings.outputs_dir / "site"
    built, flagged, warnings = None, {}, []
    policy, topics, paths = settings.site.publish, settings.site.topics, settings.site.paths
    if records or not site_is_current(site, settings.inputs_dir, policy, topics, paths):
        made = build_site(
            settings.outputs_dir, site, settings.inputs_dir, policy, topics=topics, paths=paths
        )
        built, warnings = made.public, made.library.warnings + made.warnings
        dashboard = settings.outputs_dir / "evals"
        talks, _ = talks_with_articles(settings.outputs_dir, settings.inputs_dir, site)
        waiting = awaiting_review(talks)
        flagged = evaluate(talk_outputs(settings.outputs_dir, site), dashboard, awaiting=waiting)
        if FlowRunContext.get() is not None:
            publish_artifacts(dashboard)
    slugs = [talk_slug(folder, settings.inputs_dir) for folder in fresh]
    warnings = library_warnings(settings, changed + fresh) + warnings
    return NightlyReport(
        fresh=slugs, records=records, site=built, warnings=warnings, regressions=flagged
    )


def publish_artifacts(dashboard: Path) -> None:
    """The dashboard in the Prefect UI: as Markdown, and the latest figures as a table."""
    create_markdown_artifact(
        (dashboard / "dashboard.md").read_text(encoding="utf-8"), key="eval-dashboard"
    )
    latest: dict[str, dict] = {}
    for entry in read_history(dashboard / HISTORY):
        latest[entry["talk"]] = {"talk": entry["talk"], **flat(entry["figures"])}
    create_table_artifact(list(latest.values()), key="eval-figures")


def flat(figures: dict) -> dict:
    return {k: v for k, v in figures.items() if isinstance(v, int | float | str) or v is None}
