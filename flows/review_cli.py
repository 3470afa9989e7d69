"""`talk2article review`: what awaits a reviewer, and their decisions (approve, reject,
hold), written to decisions.yaml in the talk's folder (pipeline.review.decisions)."""

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from flows.console import console

review_app = typer.Typer(invoke_without_command=True, rich_markup_mode="markdown")
Folders = Annotated[Path | None, typer.Option(help="The inputs directory (default: ./inputs).")]
Outputs = Annotated[Path | None, typer.Option(help="The outputs directory (default: ./outputs).")]
TalkArgument = Annotated[
    Path,
    typer.Argument(help="The talk folder, as given to `run`.", exists=True, file_okay=False),
]
Reviewer = Annotated[
    str,
    typer.Option(
        "--by", envvar="TALK2ARTICLE_REVIEWER", help="Your name (or TALK2ARTICLE_REVIEWER)."
    ),
]


@review_app.callback()
def awaiting(
    ctx: typer.Context,
    inputs: Folders = None,
    outputs: Outputs = None,
    every: Annotated[
        bool, typer.Option("--all", help="Every talk with articles, decided or not.")
    ] = False,
) -> None:
    """What awaits a reviewer, and a reviewer's decisions.

    With no command: the articles awaiting a reviewer (no decision on their current text,
    or held), with the review card's findings and where to read them: the proofreading page
    of the preview site (`talk2article site build --preview`) and the eval report. Then
    `approve`, `reject` or `hold` a talk folder: the decision goes to decisions.yaml in that
    folder, bound to the article's current text.
    """
    if ctx.invoked_subcommand is not None:
        return
    from flows.talk import configured
    from pipeline.library.talks import awaiting_review, talks_with_articles

    settings = configured(inputs, outputs)
    site = settings.outputs_dir / "site"
    talks, unreadable = talks_with_articles(settings.outputs_dir, settings.inputs_dir, site)
    for reason in unreadable:
        console.print(f"[yellow]not listed[/yellow] {escape(reason)}")
    waiting = awaiting_review(talks)
    shown = talks if every else [t for t in talks if t.slug in waiting]
    if not shown:
        console.print("nothing awaits a reviewer", markup=False)
        return
    table = Table("talk", "decision", "verdict", "why")
    for talk in shown:
        decision = talk.standing.decision
        state = "none" if decision is None else f"{decision.decision} by {decision.reviewer}"
        state += " (stale)" if talk.standing.stale else ""
        why = waiting.get(talk.slug, decision.note if decision else "")
        table.add_row(*map(escape, (talk.slug, state, talk.standing.verdict, why)))
    console.print(table)
    for talk in shown:
        console.print(f"{escape(talk.slug)}:", markup=True)
        lines = read_first(talk.ledger) + places_to_read(talk.slug, talk.folder, site)
        for line in lines + stale_lines(talk.stale):
            console.print(f"  {line}", markup=False, soft_wrap=True)
    console.print(
        "correct a sentence with: talk2article edit TALK_FOLDER SENTENCE_ID --zh ... --by NAME",
        markup=False,
    )
    console.print(
        "decide with: talk2article review approve|reject|hold TALK_FOLDER --by NAME --note ...",
        markup=False,
    )


MAX_LISTED = 12  # sentence ids listed on one line of the console; the page lists all


def read_first(ledger) -> list[str]:
    """The sentences to read first, with why, and the facts left out."""
    from pipeline.review.flags import flags

    found, left = flags(ledger), ledger.left_out()
    lines = []
    if found:
        said = "; ".join(f"{f.sentence} ({', '.join(f.why)})" for f in found[:MAX_LISTED])
        more = f"; and {len(found) - MAX_LISTED} more" if len(found) > MAX_LISTED else ""
        lines.append(f"read first ({len(found)}): {said}{more}")
    if left:
        ids = ", ".join(x.sentence for x in left[:MAX_LISTED])
        more = f" and {len(left) - MAX_LISTED} more" if len(left) > MAX_LISTED else ""
        lines.append(f"left out ({len(left)}, put back with talk2article edit): {ids}{more}")
    return lines


def stale_lines(stale: list) -> list[str]:
    """The edits a rerun could not apply, and why."""
    return [
        f"stale edit of {s.edit.sentence} by {s.edit.by} ({s.why}): "
        + ("drop" if s.edit.drop else s.edit.zh)
        for s in stale
    ]


def places_to_read(slug: str, folder: Path, site: Path) -> list[str]:
    """The proofreading page (preview site, else the published one) and the eval report."""
    lines = []
    for built in (site / "preview", site):
        if (page := built / "public" / "proof" / slug / "index.html").is_file():
            lines.append(f"proofreading: {page.resolve().as_uri()}")
            break
    else:
        lines.append("proofreading: build it with talk2article site build --preview")
    report = folder / "eval.html"
    lines.append(
        f"eval report: {report.resolve().as_uri()}"
        if report.is_file()
        else f"articles: {(folder / 'article.zh.md').resolve()} (no eval report yet)"
    )
    return lines


def record(kind: str, talk: Path, reviewer: str, note: str, inputs, outputs) -> None:
    from pydantic import ValidationError

    from flows.talk import configured
    from pipeline.core.errors import StageFailure
    from pipeline.core.yamlfile import field_problems
    from pipeline.library.talks import PublishedTalk, load_talk
    from pipeline.review.decisions import decide, decisions_standing, record_decision
    from pipeline.talk import talk_slug

    if not reviewer.strip():
        raise typer.BadParameter("give your name with --by (or TALK2ARTICLE_REVIEWER)")
    settings = configured(inputs, outputs)
    slug = talk_slug(talk, settings.inputs_dir)
    found = load_talk(settings.outputs_dir / slug, slug, settings.inputs_dir)
    if not isinstance(found, PublishedTalk):
        console.print(f"[red]error[/red] cannot decide on {escape(found)}")
        raise typer.Exit(1)
    try:
        decision = decide(found.draft, found.review.card.verdict, kind, reviewer.strip(), note)
    except ValidationError as err:
        console.print(f"[red]error[/red] {escape(field_problems(err, 'decision'))}")
        raise typer.Exit(1) from err
    try:
        path = record_decision(talk, decision)
    except StageFailure as err:
        console.print(
            f"[red]error[/red] {escape(str(err))}; fix it (or move it away) and decide again"
        )
        raise typer.Exit(1) from err
    except OSError as err:
        console.print(f"[red]error[/red] {escape(str(err))}")
        raise typer.Exit(1) from err
    decisions_standing(talk, settings.outputs_dir / slug)  # the copy a later typo falls back on
    console.print(f"{slug}: {kind} by {decision.reviewer}, in {path}", markup=False)
    console.print(
        "the site follows at the next `talk2article nightly` or `talk2article site build`",
        markup=False,
    )


@review_app.command()
def approve(
    talk: TalkArgument,
    reviewer: Reviewer = "",
    note: Annotated[str, typer.Option(help="What you checked, for the team.")] = "",
    inputs: Folders = None,
    outputs: Outputs = None,
) -> None:
    """Approve the article as it is now: the site publishes it, whatever the automatic
    verdict, until its text changes."""
    record("approved", talk, reviewer, note, inputs, outputs)


@review_app.command()
def reject(
    talk: TalkArgument,
    note: Annotated[str, typer.Option(help="Why, for the team.")],
    reviewer: Reviewer = "",
    inputs: Folders = None,
    outputs: Outputs = None,
) -> None:
    """Reject the article: never on the site, even after it changes, until a reviewer
    decides again."""
    record("rejected", talk, reviewer, note, inputs, outputs)


@review_app.command()
def hold(
    talk: TalkArgument,
    note: Annotated[str, typer.Option(help="What is to be checked first, for the team.")],
    reviewer: Reviewer = "",
    inputs: Folders = None,
    outputs: Outputs = None,
) -> None:
    """Hold the article back (only the preview site shows it) until a reviewer decides
    again."""
    record("held", talk, reviewer, note, inputs, outputs)
