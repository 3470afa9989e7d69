"""The knowledge base over the dev talks (evals/knowledge-base/truth.yaml): a meetup of four
talks and two others, run end to end with the real bundled models as a night would, and
the site built from them, measured against the truth.

    python benchmarks/knowledge_base.py [--model 1.5b|0.5b] [--cold | --measure-only]

A night of all talks but one, then a night that adds that one (its outputs removed first:
its LLM work counts), then a night with nothing new. Work folders are kept in
outputs/.benchmarks/knowledge-base/ (hidden: never published), so a second run only pays
for the new talk; --cold clears them first; --measure-only rebuilds the site from the
talks already run (the library's code changed, not the talks') and measures it. Prints a
line per night and per talk and, last, one JSON object:

    topics_assigned       share of articles on the topic the truth expects
    path_order_agreement  truth pairs put on one path (or the hub) in the truth's order,
                          of those the site puts on one path or hub (pairs_compared);
                          pairs_ordered_by_terms: how many of those the articles' terms
                          order at all (the others fall to the date-then-name tie-break)
    ungrounded_relations  relations the published library states that its articles do
                          not support (the checks of pipeline.library.relations)
    dropped_relations     relations the checks caught and left out while building
    qa_unsupported, qa_invented_numbers   over every article's companion
    glossary_terms, paths_with_notes, hub_talks
    incremental_rebuild_s the night that adds one new talk (LLM work included)
    pages_changed_by_new_talk  the site's pages (docs/*.md) the new talk changed (with
                          --measure-only: the site built without it, then with it)
    unchanged_rebuild_s   the night with nothing new
"""

import argparse
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

from evals.golden import CASES, talk_folder, truth_of  # noqa: E402
from evals.metrics import qa_metrics  # noqa: E402
from pipeline.library.glossary import Articles  # noqa: E402
from pipeline.library.paths import prerequisites  # noqa: E402
from pipeline.library.relations import findings_of  # noqa: E402
from pipeline.library.talks import published_talks  # noqa: E402
from pipeline.site import SiteBuild, build_site  # noqa: E402

TRUTH = ROOT / "evals" / "knowledge-base" / "truth.yaml"


def assemble(truth: dict, inputs: Path, without: str | None = None) -> dict[str, Path]:
    """The dev talks as an inputs/ tree (the meetup's in its folder with its meetup file),
    but `without`; case name -> talk folder."""
    meetup = truth["meetup"]
    hub = inputs / meetup["folder"]
    hub.mkdir(parents=True, exist_ok=True)
    (hub / "meetup.yaml").write_text(yaml.safe_dump(meetup["file"], allow_unicode=True))
    folders = {}
    for name in [*meetup["talks"], *truth["others"]]:
        where = hub if name in meetup["talks"] else inputs
        if name == without:
            shutil.rmtree(where / name, ignore_errors=True)
            continue
        raw, _ = truth_of(CASES / name)
        folders[name] = talk_folder(CASES / name, raw, where)
    return folders


def night(inputs: Path, outputs: Path, model: str) -> float:
    """`talk2article nightly` as the schedule runs it; its seconds."""
    command = [sys.executable, "-m", "flows.cli", "nightly", "--no-prefect"]
    command += ["--inputs", str(inputs), "--outputs", str(outputs)]
    env = {**os.environ, "TALK2ARTICLE_LLAMA_MODEL": model, "TALK2ARTICLE_SITE_PUBLISH": "preview"}
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: a talk failed (reported below)
        raise SystemExit(f"nightly failed ({done.returncode}): {done.stderr[-2000:]}")
    return round(seconds, 1)


def pair_agreement(
    truth: dict, built: SiteBuild, slugs: dict[str, str], talks: list
) -> tuple[int, int, int]:
    """(truth pairs in the truth's order, pairs compared, compared pairs the articles'
    terms order at all): on a path or the hub, wherever both talks of a pair are listed
    together. A pair no term orders is placed by date, then name: a tie-break, not a
    judgement."""
    orders = [p.talks for p in built.library.paths] + [h.talks for h in built.library.hubs]
    grounds = prerequisites(talks, Articles(talks))
    agree = compared = grounded = 0
    for pair in truth["order"]:
        first, then = slugs.get(pair["before"]), slugs.get(pair["after"])
        for order in orders:
            if first in order and then in order:
                compared += 1
                agree += order.index(first) < order.index(then)
                grounded += bool(grounds.get((first, then)) or grounds.get((then, first)))
    return agree, compared, grounded


def measure(truth: dict, inputs: Path, outputs: Path, folders: dict[str, Path]) -> dict:
    site = outputs / "site"
    built = SiteBuild.model_validate_json((site / "site.json").read_text())
    slugs = {name: folder.relative_to(inputs).as_posix() for name, folder in folders.items()}
    expected = truth["topics"]
    placed = [built.topics.get(slugs[name]) == topic for name, topic in expected.items()]
    talks, _ = published_talks(outputs, inputs, "preview", skip=site)
    agree, compared, grounded = pair_agreement(truth, built, slugs, talks)
    qa = {"qa_unsupported": 0, "qa_invented_numbers": 0, "qa_questions": 0}
    for talk in talks:
        found = qa_metrics(talk.questions, talk.ledger, talk.evidence, talk.evidence.language)
        for key, value in found.items():
            qa[key] += value or 0
    return {
        "articles": len(built.articles),
        "topics_assigned": round(sum(placed) / len(placed), 3),
        "topics_wrong": {
            n: built.topics.get(slugs[n]) for n, ok in zip(expected, placed, strict=True) if not ok
        },
        "path_order_agreement": round(agree / compared, 3) if compared else None,
        "pairs_compared": compared,
        "pairs_ordered_by_terms": grounded,
        "ungrounded_relations": len(findings_of(built.library, Articles(talks))),
        "dropped_relations": len(built.library.dropped),
        **qa,
        "glossary_terms": len(built.library.glossary),
        "paths_with_notes": sum(bool(p.notes) for p in built.library.paths),
        "hub_talks": [len(h.talks) for h in built.library.hubs],
    }


def pages_changed_by(outputs: Path, talk: Path, inputs: Path) -> list[str]:
    """The site built without the talk whose outputs folder is `talk`, then with it: the
    pages the second build changed. No stage runs: the talk's outputs are set aside, beside
    the outputs folder, for the first build, and put back."""
    aside = Path(tempfile.mkdtemp(dir=outputs.parent, prefix=".aside-")) / talk.name
    talk.rename(aside)
    try:
        build_site(outputs, outputs / "site", inputs, "preview")
    finally:
        aside.rename(talk)
        aside.parent.rmdir()
    changed = build_site(outputs, outputs / "site", inputs, "preview").changed
    print(f"pages the new talk changes: {changed}", flush=True)
    return changed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="1.5b", choices=["1.5b", "0.5b"])
    parser.add_argument("--cold", action="store_true", help="clear the work folders first")
    parser.add_argument(
        "--measure-only", action="store_true", help="rebuild the site from the talks run, measure"
    )
    args = parser.parse_args()
    work = ROOT / "outputs" / ".benchmarks" / "knowledge-base" / args.model
    if args.cold:
        shutil.rmtree(work, ignore_errors=True)
    inputs, outputs = work / "inputs", work / "outputs"
    truth = yaml.safe_load(TRUTH.read_text())
    if args.measure_only:
        folders = assemble(truth, inputs)
        new_talk = outputs / folders[truth["new_talk"]].relative_to(inputs)
        changed = pages_changed_by(outputs, new_talk, inputs)
        result = {"model": args.model, **measure(truth, inputs, outputs, folders)}
        print(json.dumps(result | {"pages_changed_by_new_talk": len(changed)}, ensure_ascii=False))
        return
    new = truth["new_talk"]
    assemble(truth, inputs, without=new)
    print(f"night of the others: {night(inputs, outputs, args.model)} s", flush=True)
    folders = assemble(truth, inputs)
    shutil.rmtree(outputs / folders[new].relative_to(inputs), ignore_errors=True)
    incremental = night(inputs, outputs, args.model)
    changed = SiteBuild.model_validate_json((outputs / "site" / "site.json").read_text()).changed
    print(f"night adding {new}: {incremental} s; pages changed: {changed}", flush=True)
    unchanged = night(inputs, outputs, args.model)
    print(f"night with nothing new: {unchanged} s", flush=True)
    for name, folder in folders.items():
        run = json.loads((outputs / folder.relative_to(inputs) / "run.json").read_text())
        print(f"{name}: {run['status']}", flush=True)
    result = {"model": args.model, **measure(truth, inputs, outputs, folders)}
    result |= {"incremental_rebuild_s": incremental, "unchanged_rebuild_s": unchanged}
    result |= {"pages_changed_by_new_talk": len(changed)}
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
