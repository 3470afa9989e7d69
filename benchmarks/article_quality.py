"""Article quality on the dev cases (evals/cases/*/truth.yaml), end to end with the real
bundled models: facts covered, invented numbers, unsupported sentences, copied share,
echoes, language purity, duplicate paragraphs and sentences, slide text dumped into prose,
numbers given to the wrong subject, misheard words printed, stub chapters, cut headings,
terms in both languages, sections cited, how many cases the review recommends, LLM
seconds per talk minute, and the companion in questions and answers (how many questions,
answer sentences unsupported, numbers invented; its seconds apart from the article's).

    python benchmarks/article_quality.py [--model 1.5b|0.5b] [--long] [--cases a,b]

Outputs go to outputs/.benchmarks/<model>/ (hidden: never published on the site), cleared
before each case so every figure is a cold run's (`--keep` reuses fresh stages instead, for
a quick look after a change).
Prints one line per case and, last, one JSON object: the worst value over the cases for
each figure, and the LLM seconds per talk minute per case length.
"""

import argparse
import json
import shutil
import signal
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evals.golden import CASES, cases, run_case, talk_folder, truth_of  # noqa: E402
from evals.metrics import talk_metrics  # noqa: E402
from pipeline.schema import Ledger  # noqa: E402

# The figures this benchmark reports, by their names in evals.metrics.
FIGURES = {
    "facts_covered": "facts_covered",
    "missed_facts": "missed_facts",
    "invented_numbers": "invented_numbers",
    "unsupported_sentences": "unsupported_sentences",
    "copied_8gram_share": "copied_share",
    "copied_share_zh": "copied_share_zh",
    "speaker_voice_sentences": "speaker_voice_sentences",
    "latin_words_in_zh": "latin_words_in_zh",
    "prompt_echoes": "prompt_echoes",
    "wrong_language_sentences": "wrong_language_sentences",
    "duplicate_paragraphs": "duplicate_paragraphs",
    "duplicate_sentences": "duplicate_sentences",
    "misbound_numbers": "misbound_numbers",
    "slide_dumps": "slide_dumps",
    "recognition_leaks": "recognition_leaks",
    "stub_chapters": "stub_chapters",
    "fragment_headings": "fragment_headings",
    "zh_term_violations": "zh_term_violations",
    "unfaithful_translations": "unfaithful_translations",
    "terms_right_en": "terms_right_en",
    "terms_right_zh": "terms_right_zh",
    "sections_cited": "sections_cited",
    "qa_questions": "qa_questions",
    "qa_unsupported": "qa_unsupported",
    "qa_invented_numbers": "qa_invented_numbers",
    "qa_s": "qa_seconds",
    "llm_calls": "llm_calls",
    "llm_s": "llm_seconds",
}


def measure(out: Path, truth) -> dict:
    figures = talk_metrics(out, truth)
    transcript = json.loads((out / "transcript.json").read_text())
    minutes = transcript["duration"] / 60
    result = {"minutes": round(minutes, 1)}
    result |= {name: figures[key] for name, key in FIGURES.items()}
    result["llm_s_per_talk_minute"] = round(figures["llm_seconds"] / minutes, 1)
    ledger = Ledger.model_validate_json((out / "ledger.json").read_text())
    written = [w for s in ledger.sentences for w in (s.zh, s.en) if w is not None]
    result["sentences"] = len(ledger.sentences)
    result["verified"] = round(sum(w.verified for w in written) / max(len(written), 1), 3)
    result["left_out"] = len(ledger.left_out())
    result["verdict"] = json.loads((out / "review.json").read_text())["card"]["verdict"]
    return result


WORST = {
    "facts_covered": min,
    "invented_numbers": max,
    "unsupported_sentences": max,
    "copied_8gram_share": max,
    "copied_share_zh": max,
    "speaker_voice_sentences": max,
    "latin_words_in_zh": max,
    "prompt_echoes": max,
    "wrong_language_sentences": max,
    "duplicate_paragraphs": max,
    "duplicate_sentences": max,
    "misbound_numbers": max,
    "slide_dumps": max,
    "recognition_leaks": max,
    "stub_chapters": max,
    "fragment_headings": max,
    "zh_term_violations": max,
    "unfaithful_translations": max,
    "terms_right_en": min,
    "terms_right_zh": min,
    "sections_cited": min,
    "qa_questions": min,
    "qa_unsupported": max,
    "qa_invented_numbers": max,
}


def length_bucket(minutes: float) -> int:
    return min((3, 20, 60), key=lambda m: abs(m - minutes))


def run_all(runs, inputs: Path, outputs: Path, args) -> dict[str, dict]:
    """Each (case, long) run cold unless --keep, measured; the figures by talk."""
    results = {}
    for case, long in runs:
        raw, truth = truth_of(case)
        folder = talk_folder(case, raw, inputs, long)
        if not args.measure_only:
            if not args.keep:
                shutil.rmtree(outputs / folder.name, ignore_errors=True)
            env = {"TALK2ARTICLE_LLAMA_MODEL": args.model, "COLUMNS": "200"}
            record = run_case(folder, inputs, outputs, env)
            if record["status"] == "failed":
                print(f"{folder.name}: failed: {record['errors']}", flush=True)
                continue
        result = measure(outputs / folder.name, truth)
        results[folder.name] = result
        print(f"{folder.name}: {json.dumps(result, ensure_ascii=False)}", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="1.5b", choices=["1.5b", "0.5b"])
    parser.add_argument("--long", action="store_true", help="also the 60-minute talk")
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--measure-only", action="store_true", help="do not run, only measure")
    parser.add_argument("--keep", action="store_true", help="reuse fresh stages (not cold)")
    args = parser.parse_args()
    outputs = ROOT / "outputs" / ".benchmarks" / args.model
    # Talk folders are assembled in a temporary folder: material read from ../shared
    # (licence not stated) is not kept, not even by a run that is killed (SIGTERM would
    # otherwise skip the `finally` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    inputs = Path(tempfile.mkdtemp(prefix="talk2article-bench-inputs-"))
    wanted = args.cases.split(",") if args.cases else None
    runs = [(c, False) for c in cases() if not wanted or c.name in wanted]
    if args.long:
        runs.append((CASES / "zh-inference-frameworks", True))
    try:
        results = run_all(runs, inputs, outputs, args)
    finally:
        shutil.rmtree(inputs, ignore_errors=True)
    summary = {"model": args.model, "cases": len(results)}
    for key, worst in WORST.items():
        known = [r[key] for r in results.values() if r[key] is not None]
        summary[key] = worst(known) if known else None
    summary["verdicts"] = sum(r["verdict"] == "推荐收录" for r in results.values())
    for r in results.values():
        summary[f"llm_s_per_talk_minute_{length_bucket(r['minutes'])}"] = r["llm_s_per_talk_minute"]
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
