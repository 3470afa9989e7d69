"""What the CLI prints: one console, run summaries and warnings."""

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pipeline.schema import RunRecord

# No emoji codes: an error message saying ":x:" is printed as it is.
console = Console(emoji=False, soft_wrap=True)  # a path or command is never cut


def say_warnings(warnings: list[str]) -> None:
    for warning in warnings:
        console.print(f"[yellow]warning[/yellow] {escape(warning)}")


def report(records: list[RunRecord]) -> None:
    if not records:
        return
    table = Table("talk", "status", "verdict", "fallbacks", "seconds", "stages")
    for record in records:
        seconds = sum(s.seconds for s in record.stages)
        stages = " ".join(f"{s.name}:{s.status}" for s in record.stages)
        colour = {"succeeded": "green", "partial": "yellow", "fallback": "yellow"}.get(
            record.status, "red"
        )
        verdict = record.verdict or "-"
        tint = {"推荐收录": "green", "需修改": "yellow"}.get(verdict, "red")
        table.add_row(
            escape(record.talk),
            f"[{colour}]{record.status}[/{colour}]",
            f"[{tint}]{verdict}[/{tint}]",
            str(len(record.fallbacks())),
            f"{seconds:.1f}",
            stages,
        )
    console.print(table)
    for record in records:
        talk = escape(record.talk)
        for stage in record.stages:
            for warning in stage.warnings:
                console.print(f"[yellow]warning[/yellow] {talk} {stage.name}: {escape(warning)}")
        for fallback in record.fallbacks():
            console.print(f"[yellow]fallback[/yellow] {talk} {escape(fallback)}")
        for error in record.errors:
            console.print(f"[red]error[/red] {talk}: {escape(str(error))}")
        for path in record.outputs:
            console.print(path, markup=False, soft_wrap=True)
