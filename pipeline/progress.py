"""What a run says while it runs: a line as each stage starts, with how far the talk is and,
once its length is known, about how long is left, from the pace of this machine's earlier
runs (each stage's seconds per minute of talk, when it last did the work)."""

import statistics
from pathlib import Path

from pipeline.core.store import talk_outputs
from pipeline.schema import RunRecord
from pipeline.stages import STAGES

NAMES = [stage.name for stage in STAGES]  # in the order a run takes them
# Earlier runs a pace is taken from: the newest ones, as this machine and its model are now.
PACE_RUNS = 20

Pace = dict[str, float]  # stage -> seconds per minute of talk


def pace_of(outputs_dir: Path) -> Pace:
    """The median seconds per talk minute of each stage over the newest earlier runs that
    did its work (not reused it) and know their talk's length."""
    runs = sorted(
        (f / "run.json" for f in talk_outputs(outputs_dir).values()),
        key=lambda path: path.stat().st_mtime_ns,
    )[-PACE_RUNS:]
    rates: dict[str, list[float]] = {}
    for path in runs:
        try:
            record = RunRecord.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for stage in record.stages if record.minutes else ():
            if stage.status == "done":
                rates.setdefault(stage.name, []).append(stage.seconds / record.minutes)
    return {name: statistics.median(found) for name, found in rates.items()}


def seconds_left(record: RunRecord, stage: str, pace: Pace) -> float | None:
    """About how long this stage and those after it take, or None without the talk's
    length or a pace for one of them."""
    later = NAMES[NAMES.index(stage) :]
    if not record.minutes or any(name not in pace for name in later):
        return None
    return sum(pace[name] for name in later) * record.minutes


def progress_line(record: RunRecord, stage: str, pace: Pace, elapsed_s: float) -> str:
    """ "talk: ledger (8/12), 2 min 10 s in, about 4 min left"."""
    line = f"{record.talk}: {stage} ({NAMES.index(stage) + 1}/{len(NAMES)}), "
    line += f"{duration(elapsed_s)} in"
    left = seconds_left(record, stage, pace)
    return line if left is None else f"{line}, about {max(1, round(left / 60))} min left"


def duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"
