"""A library of a thousand talks: what an unchanged night, a night after one talk changed,
and a site build cost. The talks are generated here (subtitles alone, two cues each, in a
temporary folder, never committed); their last runs are laid down as a run leaves them
(contracts and articles, made by code, no model), with fingerprints as the pipeline
computes them, so the nightly finds them current, and the eval dashboard as the nights
before left it. The site publishes every article not rejected (the `preview` policy). The
changed talk then runs for real with the bundled model.

    python benchmarks/library_scale.py [--talks 1000] [--no-change]

Prints a line per step and, last, one JSON object: talks, unchanged_night_s (the second
unchanged night: the stat index warm), first_unchanged_night_s (the index cold: every file
hashed), site_build_s (`talk2article site build` over every article, both languages),
one_change_night_s (one talk's subtitles edited: that talk run with the model, the site
and the dashboard rebuilt) and one_change_talk_run_s (the talk's run alone);
site_rebuild_s (`talk2article site build` with nothing changed: what the site costs a
night that rebuilds it).
"""

import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evals import evaluate  # noqa: E402
from pipeline.article import typeset  # noqa: E402
from pipeline.core.store import TalkStore, talk_outputs  # noqa: E402
from pipeline.fingerprint import shared_fingerprint, talk_fingerprint  # noqa: E402
from pipeline.library.talks import keep_published  # noqa: E402
from pipeline.library.topics import DEFAULT_TOPICS  # noqa: E402
from pipeline.schema import EditedLedger, Evidence, Review, RunRecord, Talk  # noqa: E402
from pipeline.settings import Settings  # noqa: E402
from tests.site.published import publish  # noqa: E402

TOPICS = [t["id"] for t in yaml.safe_load(DEFAULT_TOPICS.read_text(encoding="utf-8"))]
SRT = """1
00:00:00,500 --> 00:00:05,000
Talk {n} explains why reserving memory for the longest answer wastes most of it.

2
00:00:05,500 --> 00:00:10,500
Blocks of {blocks} tokens are handed out as a sequence grows, so talk {n} wastes little.
"""


def lay_down(inputs: Path, outputs: Path, n: int, settings: Settings, shared: str) -> None:
    """Talk n's folder, and its outputs as its last run left them."""
    slug = f"library/talk-{n:04d}"
    folder = inputs / slug
    folder.mkdir(parents=True)
    (folder / "talk.srt").write_text(SRT.format(n=n, blocks=8 + n % 24))
    topic = TOPICS[n % len(TOPICS)]  # spread as a library's are: a path per topic
    (folder / "talk.yaml").write_text(
        f"language: en\ntitle: Talk {n}\ndate: 2026-01-01\ntopic: {topic}\n"
    )
    date = dt.date(2026, 1, 1) + dt.timedelta(days=n % 300)
    out = publish(
        outputs,
        slug,
        f"演讲 {n}",
        date,
        title_en=f"Paging the KV cache, part {n}",
        questions=True,
        topic=topic,
    )
    edited = EditedLedger.model_validate_json((out / "edited.json").read_text())
    evidence = Evidence.model_validate_json((out / "evidence.json").read_text())
    talk = Talk.model_validate_json((out / "talk.json").read_text())
    review = Review.model_validate_json((out / "review.json").read_text())
    articles = typeset(edited.ledger.draft(), evidence, talk, review)
    for article in articles:
        (out / article.file_name).write_text(article.markdown)
    run = RunRecord.model_validate_json((out / "run.json").read_text())
    run = run.model_copy(
        update={
            "origin": f"inputs/{slug}",
            "fingerprint": talk_fingerprint(folder, settings, shared),
            "outputs": [str(out / a.file_name) for a in articles],
            "verdict": review.card.verdict,
        }
    )
    (out / "run.json").write_text(run.model_dump_json(indent=2))
    keep_published(TalkStore(out))  # as a run that made articles keeps them


def timed(args: list[str], env: dict) -> float:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "flows.cli", *args, "--no-prefect"] if args[0] == "nightly"
        else [sys.executable, "-m", "flows.cli", *args],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode not in (0, 1):
        raise SystemExit(f"{args} failed: {done.stderr[-2000:]}")
    return round(time.monotonic() - started, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--talks", type=int, default=1000)
    parser.add_argument("--no-change", action="store_true", help="skip the run of a change")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="talk2article-library-"))
    inputs, outputs = work / "inputs", work / "outputs"
    env = {**os.environ, "TALK2ARTICLE_INPUTS_DIR": str(inputs)}
    env |= {"TALK2ARTICLE_OUTPUTS_DIR": str(outputs)}
    # the changed talk stays published whatever its new verdict: a talk a night unpublishes
    # is a page gone, and that builds the site whole (site_build_s)
    env |= {"TALK2ARTICLE_SITE_PUBLISH": "preview"}
    env.pop("PREFECT_API_URL", None)
    settings = Settings(inputs_dir=inputs, outputs_dir=outputs)
    result: dict[str, object] = {"talks": args.talks}
    try:
        started = time.monotonic()
        shared = shared_fingerprint(settings)
        for n in range(args.talks):
            lay_down(inputs, outputs, n, settings, shared)
        evaluate(talk_outputs(outputs), outputs / "evals")  # the dashboard the nights left
        print(f"laid down {args.talks} talks in {time.monotonic() - started:.0f} s", flush=True)
        result["site_build_s"] = timed(["site", "build"], env)
        print(f"site build: {result['site_build_s']} s", flush=True)
        (outputs / ".stat-index.json").unlink(missing_ok=True)
        result["first_unchanged_night_s"] = timed(["nightly"], env)
        result["unchanged_night_s"] = timed(["nightly"], env)
        print(f"unchanged nights: {result['first_unchanged_night_s']} s (index cold), "
              f"{result['unchanged_night_s']} s", flush=True)  # fmt: skip
        if not args.no_change:
            changed = inputs / "library" / "talk-0007" / "talk.srt"
            changed.write_text(changed.read_text().replace("little", "almost nothing"))
            result["one_change_night_s"] = timed(["nightly"], env)
            run = RunRecord.model_validate_json(
                (outputs / "library/talk-0007/run.json").read_text()
            )
            result["one_change_talk_run_s"] = round((run.finished - run.started).total_seconds(), 1)
            print(f"one talk changed: {result['one_change_night_s']} s, of which its run "
                  f"{result['one_change_talk_run_s']} s", flush=True)  # fmt: skip
            result["site_rebuild_s"] = timed(["site", "build"], env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
