"""How the support check judges Chinese said in other words, on seeded sentences
(tests/data/zh_support.yaml: what a speaker said, faithful written rephrasings, invented
on-topic claims): by character pairs alone, and as the check does it (pairs or words).

    python benchmarks/chinese_support.py

Prints one JSON object per measure: rephrasings the check would call unsupported (lower is
better), invented claims it would let through (must be 0), and the lowest and highest
scores of each kind. No model runs: this takes seconds.
"""

import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.core.grounding import MIN_SUPPORT, pair_support, support  # noqa: E402

CASES = ROOT / "tests" / "data" / "zh_support.yaml"


def judged(measure, cases: list[dict]) -> dict:
    scores = {
        kind: [measure(s, case["said"]) for case in cases for s in case[kind]]
        for kind in ("rephrased", "invented")
    }
    return {
        "measure": measure.__name__,
        "rephrasings_unsupported": sum(v < MIN_SUPPORT for v in scores["rephrased"]),
        "inventions_supported": sum(v >= MIN_SUPPORT for v in scores["invented"]),
        "sentences": len(scores["rephrased"]),
        "rephrased_min": round(min(scores["rephrased"]), 2),
        "invented_max": round(max(scores["invented"]), 2),
    }


def main() -> None:
    cases = yaml.safe_load(CASES.read_text())
    for measure in (pair_support, support):
        print(json.dumps(judged(measure, cases)))


if __name__ == "__main__":
    main()
