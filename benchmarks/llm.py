"""Speed of the embedded LLM, measured side by side in one run on this machine: the model's
raw token rates (llama-bench) with the portable and a native build, aggregate generation
with 4 concurrent requests against 1, the pipeline's LLM time on the example talk against
the same tokens at the raw rates, and LLM seconds per talk minute on the dev cases.

    python benchmarks/llm.py [--model 1.5b|0.5b] [--no-native] [--no-cases] [--long]

The native build (for this machine alone, never used by the pipeline) is made once into
the cache folder, about 5 minutes. The dev cases run cold into outputs/.benchmarks/<model>/
as benchmarks/article_quality.py runs them, so `article_quality.py --keep` afterwards
measures the same articles without running them again.
Prints what it measures as it goes and, last, one JSON line.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from article_quality import length_bucket, run_all  # noqa: E402

from evals.golden import CASES, cases, run_case  # noqa: E402
from evals.metrics import cost  # noqa: E402
from pipeline.core.models import bundled_gguf  # noqa: E402
from pipeline.llm.options import EmbeddedLLMOptions, LLMOptions, LLMSetup  # noqa: E402
from pipeline.llm.runtime import NATIVE, PORTABLE, build_runtime  # noqa: E402
from pipeline.llm.server import EmbeddedServer, cpu_variant  # noqa: E402
from pipeline.schema import RunRecord  # noqa: E402
from pipeline.settings import Settings  # noqa: E402

EXAMPLE = ROOT / "inputs" / "examples" / "kv-cache-serving"
PROMPT_TOKENS, GENERATED_TOKENS = 512, 64
CONCURRENT = 4
TOPICS = ("paged memory", "request batching", "prefix caching", "speculative decoding")


def raw_rates(bin_dir: Path, model: Path, repetitions: int = 3) -> tuple[float, float]:
    """Prompt and generated tokens per second, llama-bench on every core."""
    command = [str(bin_dir / "llama-bench"), "-m", str(model), "-o", "json"]
    command += ["-p", str(PROMPT_TOKENS), "-n", str(GENERATED_TOKENS)]
    command += ["-t", str(os.cpu_count()), "-r", str(repetitions)]
    rows = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    prompt = next(r["avg_ts"] for r in rows if r["n_gen"] == 0)
    generated = next(r["avg_ts"] for r in rows if r["n_prompt"] == 0)
    return prompt, generated


def generate(base_url: str, model: str, topic: str) -> int:
    request = {
        "model": model,
        "messages": [{"role": "user", "content": f"Explain {topic} in LLM serving."}],
        "max_tokens": GENERATED_TOKENS * 2,
        "temperature": 0.2,
        "ignore_eos": True,  # llama-server: always the same number of tokens
    }
    reply = httpx.post(f"{base_url}/chat/completions", json=request, timeout=600)
    reply.raise_for_status()
    return reply.json()["usage"]["completion_tokens"]


def generated_per_second(base_url: str, model: str, topics: tuple[str, ...]) -> float:
    """Aggregate generated tokens per second with one request per topic at once."""
    counts = [0] * len(topics)

    def one(k: int) -> None:
        counts[k] = generate(base_url, model, topics[k])

    started = time.monotonic()
    threads = [threading.Thread(target=one, args=(k,)) for k in range(len(topics))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.monotonic() - started)


def parallel_speedup(setup: LLMSetup) -> tuple[float, str | None]:
    """Aggregate generation with 4 concurrent requests over 1 (alternated, twice)."""
    server = EmbeddedServer(setup)
    server.start()
    try:
        url, model = server.endpoint.base_url, server.endpoint.model
        ratios = []
        for _ in range(2):
            one = generated_per_second(url, model, TOPICS[:1])
            four = generated_per_second(url, model, TOPICS[:CONCURRENT])
            print(f"generated tokens/s: 1 request {one:.1f}, {CONCURRENT} at once {four:.1f}")
            ratios.append(four / one)
        return statistics.mean(ratios), cpu_variant(server.process.pid)
    finally:
        server.stop()


def example_run(model: str, rates: tuple[float, float]) -> dict:
    """The example talk cold, then again unchanged, through the CLI: its LLM time against
    the same tokens at the raw rates."""
    outputs = Path(tempfile.mkdtemp(prefix="talk2article-bench-llm-"))
    env = {"TALK2ARTICLE_LLAMA_MODEL": model}
    try:
        started = time.monotonic()
        record = RunRecord.model_validate(run_case(EXAMPLE, EXAMPLE.parent, outputs, env))
        cold = time.monotonic() - started
        started = time.monotonic()
        run_case(EXAMPLE, EXAMPLE.parent, outputs, env)
        warm = time.monotonic() - started
        spent = cost(outputs / EXAMPLE.name, record)
    finally:
        shutil.rmtree(outputs, ignore_errors=True)
    raw_s = spent["llm_prompt_tokens"] / rates[0] + spent["llm_generated_tokens"] / rates[1]
    print(
        f"example: {record.status}, {spent['llm_calls']} calls, {spent['llm_prompt_tokens']} "
        f"prompt + {spent['llm_generated_tokens']} generated tokens in {spent['llm_seconds']} s "
        f"of LLM stages ({raw_s:.1f} s at the raw rates); run {cold:.0f} s cold, {warm:.1f} s warm"
    )
    return {
        "overhead_ratio": round(spent["llm_seconds"] / raw_s, 2),
        "example_llm_s": spent["llm_seconds"],
        "example_cold_s": round(cold, 1),
        "example_warm_s": round(warm, 1),
        "example_status": record.status,
    }


def dev_cases(model: str, long: bool) -> dict:
    """LLM seconds per talk minute on the dev cases, cold, as article_quality runs them."""
    outputs = ROOT / "outputs" / ".benchmarks" / model
    inputs = Path(tempfile.mkdtemp(prefix="talk2article-bench-inputs-"))
    runs = [(c, False) for c in cases() if c.name != EXAMPLE.name]
    if long:
        runs.append((CASES / "zh-inference-frameworks", True))
    args = argparse.Namespace(model=model, keep=False, measure_only=False)
    try:
        results = run_all(runs, inputs, outputs, args)
    finally:
        shutil.rmtree(inputs, ignore_errors=True)
    return {
        f"llm_s_per_talk_minute_{length_bucket(r['minutes'])}": r["llm_s_per_talk_minute"]
        for r in results.values()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="1.5b", choices=["1.5b", "0.5b"])
    parser.add_argument("--no-native", action="store_true", help="skip the native build")
    parser.add_argument("--no-cases", action="store_true", help="skip the dev cases")
    parser.add_argument("--long", action="store_true", help="also the 60-minute talk")
    args = parser.parse_args()
    settings = Settings(llm=LLMOptions(base_url=None), llama=EmbeddedLLMOptions(model=args.model))
    gguf = bundled_gguf(args.model, settings.cache_dir)
    portable = build_runtime(settings.cache_dir, recipe=PORTABLE)
    result: dict = {"model": args.model, "cores": os.cpu_count()}
    rates = raw_rates(portable, gguf)
    print(f"portable raw rates: {rates[0]:.1f} prompt, {rates[1]:.1f} generated tokens/s")
    result |= {"raw_prompt_tps": round(rates[0], 1), "raw_generated_tps": round(rates[1], 1)}
    if not args.no_native:
        native = raw_rates(build_runtime(settings.cache_dir, recipe=NATIVE), gguf)
        again = raw_rates(portable, gguf)  # alternated: the machine is shared and noisy
        print(f"native raw rates: {native[0]:.1f} prompt, {native[1]:.1f} generated tokens/s")
        result["portable_vs_native"] = round((rates[1] + again[1]) / 2 / native[1], 2)
        result["portable_vs_native_prompt"] = round((rates[0] + again[0]) / 2 / native[0], 2)
    speedup, variant = parallel_speedup(settings.llm_setup)
    result |= {"parallel_speedup_4": round(speedup, 2), "cpu_variant": variant}
    result |= example_run(args.model, rates)
    if not args.no_cases:
        result |= dev_cases(args.model, args.long)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
