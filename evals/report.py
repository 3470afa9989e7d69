"""Eval reports: one per talk (eval.json, eval.md, eval.html beside its articles) and a
dashboard across talks and runs (outputs/evals/) that flags what got worse since the
talk's previous run. The HTML is self-contained: inline CSS and SVG bars, no scripts.
"""

import html
import json
from datetime import UTC, datetime
from pathlib import Path

from evals.metrics import BETTER
from pipeline.core.store import atomic_write_text
from pipeline.core.text import markdown_table, markdown_text

# A figure is a regression when it moved the wrong way by more than this: shares by two
# points, counts by any, times by a quarter (the machine is shared and noisy).
TOLERANCE = {"llm_seconds": 0.25, "seconds": 0.25, "llm_tokens": 0.25}
SHARE_TOLERANCE = 0.02
SHOWN = [
    "status",
    "wer",
    "term_accuracy",
    "low_confidence_share",
    "timeline_accuracy",
    "facts_covered",
    "invented_numbers",
    "unsupported_sentences",
    "copied_share",
    "prompt_echoes",
    "wrong_language_sentences",
    "duplicate_paragraphs",
    "terms_right_en",
    "terms_right_zh",
    "sections_cited",
    "parity",
    "cjk_lint",
    "llm_calls",
    "llm_tokens",
    "llm_seconds",
    "seconds",
]
CSS = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;
text-align:right}th:first-child,td:first-child{text-align:left}.bad{background:#fde2e1}
.note{color:#666}svg text{font-size:12px}"""


def worse(name: str, before, after) -> bool:
    """Whether `after` is a regression from `before` for figure `name`."""
    if name not in BETTER or before is None or after is None:
        return False
    change = (after - before) * BETTER[name]
    if name in TOLERANCE:
        return change < -TOLERANCE[name] * abs(before)
    if isinstance(before, float) or isinstance(after, float):
        return change < -SHARE_TOLERANCE
    return change < 0


def regressions(previous: dict | None, current: dict) -> list[str]:
    if not previous:
        return []
    return [
        f"{name}: {previous[name]} → {current[name]}"
        for name in BETTER
        if worse(name, previous.get(name), current.get(name))
    ]


def cell(value) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3g}"
    return str(value)


def table(header: list[str], rows: list[list]) -> str:
    """A Markdown table of figures (pipeline.core.text.markdown_table, with "|" escaped)."""
    return markdown_table([header, *([cell(v) for v in row] for row in rows)])


def html_table(header: list[str], rows: list[list], bad: set[tuple[int, str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = []
    for r, row in enumerate(rows):
        cells = "".join(
            f'<td class="bad">{html.escape(cell(v))}</td>'
            if (r, header[c]) in bad
            else f"<td>{html.escape(cell(v))}</td>"
            for c, v in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def bars(title: str, values: dict[str, float]) -> str:
    """A horizontal bar chart as inline SVG."""
    values = {k: v for k, v in values.items() if isinstance(v, int | float)}
    if not values:
        return ""
    top = max(values.values()) or 1.0
    height = 22 * len(values) + 30
    rows = [f'<text x="0" y="14" font-weight="bold">{html.escape(title)}</text>']
    for i, (name, value) in enumerate(values.items()):
        y = 24 + 22 * i
        width = 360 * value / top
        rows.append(f'<text x="0" y="{y + 13}">{html.escape(name)}</text>')
        rows.append(f'<rect x="180" y="{y}" width="{width:.1f}" height="16" fill="#4a6fa5"/>')
        rows.append(f'<text x="{186 + width:.1f}" y="{y + 13}">{cell(value)}</text>')
    return f'<svg width="640" height="{height}">{"".join(rows)}</svg>'


def page(title: str, parts: list[str]) -> str:
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>'
        f"{html.escape(title)}</title><style>{CSS}</style></head><body>"
        f"<h1>{html.escape(title)}</h1>{''.join(parts)}</body></html>\n"
    )


def write_talk_report(out: Path, talk: str, figures: dict, flagged: list[str]) -> None:
    """eval.json, eval.md and eval.html in the talk's outputs folder."""
    rows = [[name, figures.get(name)] for name in SHOWN if name in figures]
    md = [f"# Eval: {markdown_text(talk)}", "", table(["figure", "value"], rows), ""]
    if flagged:
        md += ["## Worse than the previous run", "", *(f"- {f}" for f in flagged), ""]
    stage_seconds = figures.get("stage_seconds", {})
    if stage_seconds:
        md += ["## Seconds per stage", ""]
        md += [table(["stage", "seconds"], [[k, v] for k, v in stage_seconds.items()])]
    atomic_write_text(out / "eval.json", json.dumps(figures, indent=2, ensure_ascii=False) + "\n")
    atomic_write_text(out / "eval.md", "\n".join(md) + "\n")
    flagged_names = {f.split(":")[0] for f in flagged}
    bad = {(r, "value") for r, row in enumerate(rows) if row[0] in flagged_names}
    shares = {
        f"{n} {'↑' if BETTER[n] > 0 else '↓'}": figures[n]
        for n in SHOWN
        if n in BETTER and isinstance(figures.get(n), float) and 0.0 <= figures[n] <= 1.0
    }
    parts = [
        html_table(["figure", "value"], rows, bad),
        bars("Shares (↑ higher is better)", shares),
    ]
    parts.append(bars("Seconds per stage", stage_seconds))
    if flagged:
        items = "".join(f"<li>{html.escape(f)}</li>" for f in flagged)
        parts.insert(0, f"<h2>Worse than the previous run</h2><ul>{items}</ul>")
    atomic_write_text(out / "eval.html", page(f"Eval: {talk}", parts))


HISTORY = "history.jsonl"  # each talk's figures, a line per run


def read_history(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return entries


def write_dashboard(
    folder: Path, results: dict[str, tuple[str, dict]], awaiting: dict[str, str] | None = None
) -> dict[str, list[str]]:
    """Record this night's figures (talk -> (run id, figures)) in history.jsonl and write
    dashboard.md/.html: first the articles awaiting a reviewer and why (talk -> why), then
    the latest figures of every talk, regressions against each talk's previous run, and
    each figure's course over the runs. Returns the regressions."""
    folder.mkdir(parents=True, exist_ok=True)
    history_file = folder / HISTORY
    history = read_history(history_file)
    known = {(h["talk"], h["run"]) for h in history}
    for talk, (run, figures) in results.items():
        if (talk, run) not in known:
            history.append({"talk": talk, "run": run, "figures": figures})
    atomic_write_text(
        history_file, "".join(json.dumps(h, ensure_ascii=False) + "\n" for h in history)
    )
    by_talk: dict[str, list[dict]] = {}
    for entry in history:
        by_talk.setdefault(entry["talk"], []).append(entry)
    header = ["talk", *SHOWN]
    rows, flagged, bad = [], {}, set()
    for r, (talk, runs) in enumerate(sorted(by_talk.items())):
        runs.sort(key=lambda h: h["run"])
        latest, previous = runs[-1]["figures"], runs[-2]["figures"] if len(runs) > 1 else None
        flagged[talk] = regressions(previous, latest)
        bad |= {(r, f.split(":")[0]) for f in flagged[talk]}
        rows.append([talk, *(latest.get(name) for name in SHOWN)])
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    notes = [
        f"- **{markdown_text(t)}**: {markdown_text('; '.join(f))}" for t, f in flagged.items() if f
    ]
    waiting = [
        f"- **{markdown_text(t)}**: {markdown_text(why)}"
        for t, why in sorted((awaiting or {}).items())
    ]
    md = [f"# Eval dashboard ({stamp})", "", "## Awaiting a reviewer", ""]
    md += [*(waiting or ["None."]), "", "## Figures", "", table(header, rows), ""]
    md += ["## Regressions against the previous run", "", *(notes or ["None."]), ""]
    atomic_write_text(folder / "dashboard.md", "\n".join(md) + "\n")
    trend = [
        bars(
            f"{talk}: facts covered, run by run",
            {h["run"][:16]: h["figures"].get("facts_covered") for h in runs},
        )
        for talk, runs in sorted(by_talk.items())
    ]
    listing = "".join(
        f"<li><b>{html.escape(t)}</b>: {html.escape('; '.join(f))}</li>"
        for t, f in flagged.items()
        if f
    )
    waiting_items = "".join(
        f"<li><b>{html.escape(t)}</b>: {html.escape(why)}</li>"
        for t, why in sorted((awaiting or {}).items())
    )
    parts = [
        f"<h2>Awaiting a reviewer</h2><ul>{waiting_items or '<li>None.</li>'}</ul>",
        f'<p class="note">{stamp}; red cells got worse since the talk\'s previous run.</p>',
        html_table(header, rows, bad),
        f"<h2>Regressions against the previous run</h2><ul>{listing or '<li>None.</li>'}</ul>",
        bars(
            "Copied share, latest run",
            {row[0]: row[1 + SHOWN.index("copied_share")] for row in rows},
        ),
        *trend,
    ]
    atomic_write_text(folder / "dashboard.html", page("talk2article eval dashboard", parts))
    return flagged
