"""Article quality on the dev cases (evals/cases/*/truth.yaml), end to end with the real
bundled models: facts covered, invented numbers, unsupported sentences, copied share,
echoes, language purity, duplicates, terms in both languages, sections cited, and LLM
seconds per talk minute.

    python benchmarks/article_quality.py [--model 1.5b|0.5b] [--long] [--cases a,b]

Outputs go to outputs/.benchmarks/<model>/ (hidden: never published on the site), cleared
before each case so every figure is a cold run's (`--keep` reuses fresh stages instead, for
a quick look after a change).
Prints one line per case and, last, one JSON object: the worst value over the cases for
each figure, and the LLM seconds per talk minute per case length.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.grounding import (  # noqa: E402
    MIN_SUPPORT,
    cited_text,
    copied_share,
    duplicate_of,
    invented_numbers,
    is_echo,
    keeps_name,
    kept_terms,
    prompt_lines,
    split_sentences,
    support,
    wrong_language_sentences,
)
from pipeline.prompts import load_prompt  # noqa: E402
from pipeline.schema import Draft, DraftText, Evidence, Notes, Transcript  # noqa: E402
from pipeline.text import TECHNICAL, numbers  # noqa: E402
from pipeline.transcript.subtitles import read_subtitles, to_srt  # noqa: E402

CASES = ROOT / "evals" / "cases"
SHARED = ROOT.parent / "shared"
PROMPTS = ("notes", "outline", "write_paragraph", "translate_zh", "translate_en")


def talk_folder(case: Path, truth: dict, work: Path, long: bool) -> Path:
    """The case's talk as a folder the CLI can run: copied, or built from ../shared."""
    folder = work / ("long-" + case.name if long else case.name)
    if folder.exists():
        return folder
    if "shared" in truth:
        folder.mkdir(parents=True)
        srt = SHARED / truth["shared"]
        transcript = read_subtitles(srt, truth["language"])
        if long:  # three times over, back to back: a 60-minute talk with the same facts
            shift = transcript.duration + 2.0
            segments = [
                s.model_copy(update={"start": s.start + k * shift, "end": s.end + k * shift})
                for k in range(3)
                for s in transcript.segments
            ]
            transcript = transcript.model_copy(update={"segments": segments})
            (folder / "talk.srt").write_text(to_srt(transcript), encoding="utf-8")
        else:
            shutil.copyfile(srt, folder / "talk.srt")
        (folder / "talk.yaml").write_text(f"language: {truth['language']}\n")
    else:
        shutil.copytree((case / truth["talk"]).resolve(), folder)
    return folder


def run_talk(folder: Path, inputs: Path, outputs: Path, model: str) -> dict:
    env = {**os.environ, "TALK2ARTICLE_LLAMA_MODEL": model, "COLUMNS": "200"}
    command = [sys.executable, "-m", "flows.cli", "run", str(folder)]
    command += ["--inputs", str(inputs), "--outputs", str(outputs)]
    subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    return json.loads((outputs / folder.name / "run.json").read_text())


def in_text(term: str, text: str) -> bool:
    """Names and identifiers as spelled; ordinary words in any case."""
    if TECHNICAL.search(term):
        return term in text
    return term.lower() in text.lower()


def paragraphs(draft: DraftText):
    return [p for s in draft.sections for p in s.paragraphs]


def measure(out: Path, truth: dict) -> dict:
    draft = Draft.model_validate_json((out / "draft.json").read_text())
    evidence = Evidence.model_validate_json((out / "evidence.json").read_text())
    notes = Notes.model_validate_json((out / "notes.json").read_text())
    transcript = Transcript.model_validate_json((out / "transcript.json").read_text())
    units = evidence.by_id()
    source = draft.zh if notes.language == "zh" else draft.en
    texts = {"en": draft.en, "zh": draft.zh}

    def cited(paragraph) -> str:
        return cited_text(paragraph.citations, units)

    source_pars = paragraphs(source)
    facts = [
        any(
            all(in_text(t, p.text) for t in fact.get("terms", []))
            and all(n in numbers(p.text) for n in fact.get("numbers", []))
            for p in source_pars
        )
        for fact in truth["facts"]
    ]
    sentences = [(s, cited(p)) for p in source_pars for s in split_sentences(p.text)]
    unsupported = [s for s, src in sentences if support(s, src) < MIN_SUPPORT]
    lines = prompt_lines([load_prompt(p) for p in PROMPTS])
    all_text = [" · ".join(draft.tags)]
    wrong, duplicates, invented = 0, 0, 0
    for lang, text in texts.items():
        all_text += [text.title, text.summary, *(s.title for s in text.sections)]
        earlier = []
        for p in paragraphs(text):
            all_text.append(p.text)
            invented += len(invented_numbers(p.text, cited(p)))
            wrong += len(wrong_language_sentences(p.text, lang, truth["terms"]))
            duplicates += duplicate_of(p.text, earlier) is not None
            earlier.append(p.text)
        wrong += sum(
            bool(wrong_language_sentences(h, lang, truth["terms"]))
            for h in [text.title, *(s.title for s in text.sections)]
        )
    body = {lang: " ".join(p.text for p in paragraphs(t)) for lang, t in texts.items()}
    cited_ids = {c for t in texts.values() for p in paragraphs(t) for c in p.citations}
    sections_cited = [any(u in cited_ids for u in s.unit_ids) for s in notes.sections]
    calls = [json.loads(x) for x in (out / "llm_calls.jsonl").read_text().splitlines()]
    llm_s = sum(c["seconds"] for c in calls)
    minutes = transcript.duration / 60
    return {
        "minutes": round(minutes, 1),
        "facts_covered": round(sum(facts) / len(facts), 3),
        "missed_facts": [f for f, ok in zip(truth["facts"], facts, strict=True) if not ok],
        "invented_numbers": invented,
        "unsupported_sentences": round(len(unsupported) / max(len(sentences), 1), 3),
        "copied_8gram_share": round(
            copied_share(
                body[notes.language], " ".join(s.text for s in transcript.segments), notes.language
            ),
            3,
        ),
        "prompt_echoes": sum(is_echo(t, lines) for t in all_text if t),
        "wrong_language_sentences": wrong,
        "duplicate_paragraphs": duplicates,
        "terms_right_en": round(
            sum(in_text(t, body["en"]) for t in truth["terms"]) / len(truth["terms"]), 3
        ),
        "terms_right_zh": round(
            sum(keeps_name(body["zh"], t) for t in kept_terms(truth["terms"]))
            / max(len(kept_terms(truth["terms"])), 1),
            3,
        ),
        "sections_cited": round(sum(sections_cited) / max(len(sections_cited), 1), 3),
        "llm_calls": len(calls),
        "llm_s": round(llm_s, 1),
        "llm_s_per_talk_minute": round(llm_s / minutes, 1),
        "revisions": len(draft.revisions),
    }


WORST = {
    "facts_covered": min,
    "invented_numbers": max,
    "unsupported_sentences": max,
    "copied_8gram_share": max,
    "prompt_echoes": max,
    "wrong_language_sentences": max,
    "duplicate_paragraphs": max,
    "terms_right_en": min,
    "terms_right_zh": min,
    "sections_cited": min,
}


def length_bucket(minutes: float) -> int:
    return min((3, 20, 60), key=lambda m: abs(m - minutes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="1.5b", choices=["1.5b", "0.5b"])
    parser.add_argument("--long", action="store_true", help="also the 60-minute talk")
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--measure-only", action="store_true", help="do not run, only measure")
    parser.add_argument("--keep", action="store_true", help="reuse fresh stages (not cold)")
    args = parser.parse_args()
    outputs = ROOT / "outputs" / ".benchmarks" / args.model
    inputs = Path(tempfile.gettempdir()) / "talk2article-bench-inputs"
    wanted = args.cases.split(",") if args.cases else None
    cases = [c for c in sorted(CASES.iterdir()) if (c / "truth.yaml").is_file()]
    runs = [(c, False) for c in cases if not wanted or c.name in wanted]
    if args.long:
        runs.append((CASES / "zh-inference-frameworks", True))
    results = {}
    for case, long in runs:
        truth = yaml.safe_load((case / "truth.yaml").read_text())
        folder = talk_folder(case, truth, inputs, long)
        if not args.measure_only:
            if not args.keep:
                shutil.rmtree(outputs / folder.name, ignore_errors=True)
            record = run_talk(folder, inputs, outputs, args.model)
            if record["status"] == "failed":
                print(f"{folder.name}: failed: {record['errors']}", flush=True)
                continue
        result = measure(outputs / folder.name, truth)
        results[folder.name] = result
        print(f"{folder.name}: {json.dumps(result, ensure_ascii=False)}", flush=True)
    summary = {"model": args.model, "cases": len(results)}
    for key, worst in WORST.items():
        summary[key] = worst(r[key] for r in results.values()) if results else None
    for r in results.values():
        summary[f"llm_s_per_talk_minute_{length_bucket(r['minutes'])}"] = r["llm_s_per_talk_minute"]
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
