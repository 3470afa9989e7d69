"""Fact rewriting of the sentence ledger (pipeline/ledger/) on the dev cases, with the real
bundled model: how many rewrites pass every check against their own source, which checks
fail, what falls back to the source as said, and the LLM seconds per source. For the
checks' thresholds it also scores every verified rewrite against its own source and
against its neighbour's (another source's sentence must fail the meaning check).

    python benchmarks/ledger_facts.py [--cases sglang-2025,zh-inference-frameworks]
                                      [--max-sources 48] [--runs 1]

The talk stages up to the evidence run as in a talk run (into outputs/.benchmarks/ledger/,
the talk folders assembled in a temporary folder);
the first --max-sources selected sources (pipeline.notes.select) in talk order are
rewritten and translated. Prints a line per case and
run, and last one JSON object.
"""

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evals.golden import CASES, talk_folder, truth_of  # noqa: E402
from flows import tasks  # noqa: E402
from pipeline.core.checks import length_check  # noqa: E402
from pipeline.core.fidelity import similarity  # noqa: E402
from pipeline.core.prompts import load_prompt  # noqa: E402
from pipeline.core.store import TalkStore  # noqa: E402
from pipeline.core.text import writing_language  # noqa: E402
from pipeline.deck.vocabulary import collect_terms  # noqa: E402
from pipeline.ledger.facts import rewrite_facts  # noqa: E402
from pipeline.ledger.translate import translate_sentences  # noqa: E402
from pipeline.llm.session import LLMSession  # noqa: E402
from pipeline.notes.select import select_facts  # noqa: E402
from pipeline.notes.sources import fact_sources  # noqa: E402
from pipeline.runner import TalkRun  # noqa: E402
from pipeline.settings import Settings  # noqa: E402

OUT = ROOT / "outputs" / ".benchmarks" / "ledger"


def evidence_of(folder: Path, settings: Settings, session: LLMSession):
    slug = folder.name
    run = TalkRun(TalkStore(settings.outputs_dir / slug), slug)
    talk = tasks.talk(run, folder, slug, settings)
    deck = tasks.deck(run, talk, settings)
    vocabulary = collect_terms(deck, talk.meta.glossary)
    transcript = tasks.transcript(run, talk, vocabulary, settings, session)
    timeline = tasks.timeline(run, talk, transcript, deck, settings)
    evidence = tasks.evidence(run, talk, transcript, deck, timeline, vocabulary, settings, session)
    return run, evidence, vocabulary


def quantiles(values: list[float]) -> list[float]:
    if len(values) < 2:
        return [round(v, 3) for v in values]
    cut = statistics.quantiles(values, n=10)
    return [round(min(values), 3), round(cut[0], 3), round(cut[4], 3), round(max(values), 3)]


def measure(
    case: str, max_sources: int, session: LLMSession, settings: Settings, inputs: Path
) -> dict:
    raw, _ = truth_of(CASES / case)
    folder = talk_folder(CASES / case, raw, inputs)
    run, evidence, vocabulary = evidence_of(folder, settings, session)
    lang = writing_language(evidence.language)
    everything = fact_sources(evidence)
    sources = select_facts(everything, vocabulary)[:max_sources]
    llm = session.get()  # no call cache: every run asks the model afresh
    calls = []
    llm = llm.with_sink(calls.append)
    started = time.monotonic()
    ledger = rewrite_facts(sources, lang, llm, load_prompt(f"rewrite_facts_{lang}"), vocabulary)
    seconds = time.monotonic() - started
    other = "en" if lang == "zh" else "zh"
    calls_before, started = len(calls), time.monotonic()
    prompt = load_prompt(f"translate_sentences_{other}")
    translated = translate_sentences(ledger, lang, other, llm, prompt, vocabulary)
    translation_s = time.monotonic() - started
    into = [s.text(other) for s in translated]
    by_id = {s.id: s for s in sources}
    written = [s.text(lang) for s in ledger]
    own, neighbour, lengths = [], [], []
    for k, (sentence, text) in enumerate(zip(ledger, written, strict=True)):
        if not text.verified:
            continue
        own.append(similarity(text.text, by_id[sentence.source].text))
        neighbour.append(similarity(text.text, sources[(k + 1) % len(sources)].text))
        lengths.append(float(length_check(text.text, by_id[sentence.source].text).detail or 0))
    failed = Counter(c.check for t in written if t.left_out for c in t.rejected)
    return {
        "case": case,
        "sources": len(sources),
        "selected_of": [len(select_facts(everything, vocabulary)), len(everything)],
        "verified_share": round(sum(t.verified for t in written) / max(len(written), 1), 3),
        "left_out_share": round(sum(t.left_out for t in written) / max(len(written), 1), 3),
        "left_out_failed_checks": dict(failed),
        "failed_checks": dict(Counter(c.check for t in written for c in t.failed())),
        "calls": len(calls),
        "llm_s": round(seconds, 1),
        "llm_s_per_source": round(seconds / max(len(sources), 1), 2),
        "meaning_own": quantiles(own),
        "meaning_neighbour": quantiles(neighbour),
        "length_ratio": quantiles([x for x in lengths if x]),
        "translation_verified_share": round(sum(t.verified for t in into) / max(len(into), 1), 3),
        "translation_failed_checks": dict(Counter(c.check for t in into for c in t.failed())),
        "translation_calls": len(calls) - calls_before,
        "translation_s_per_sentence": round(translation_s / max(len(into), 1), 2),
        "examples": [
            {
                "source": by_id[s.source].text,
                "written": s.text(lang).text,
                "translated": s.text(other).text,
                "left_out": [s.text(lang).left_out, bool(s.text(other) and s.text(other).left_out)],
            }
            for s in translated[:: max(len(translated) // 6, 1)]
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", default="sglang-2025,zh-inference-frameworks")
    parser.add_argument("--max-sources", type=int, default=48)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    settings = Settings()
    settings.outputs_dir = OUT / "outputs"
    results = []
    # Talk folders are assembled in a temporary folder: material read from ../shared
    # (licence not stated) is not kept.
    with LLMSession(settings.llm_setup) as session, tempfile.TemporaryDirectory() as inputs:
        for case in args.cases.split(","):
            for run in range(args.runs):
                result = measure(case, args.max_sources, session, settings, Path(inputs))
                results.append(result)
                print(
                    json.dumps({**result, "run": run}, ensure_ascii=False),
                    flush=True,
                )
    print(
        json.dumps(
            {
                "worst_verified_share": min(r["verified_share"] for r in results),
                "worst_left_out_share": max(r["left_out_share"] for r in results),
                "llm_s_per_source": max(r["llm_s_per_source"] for r in results),
            }
        )
    )


if __name__ == "__main__":
    main()
