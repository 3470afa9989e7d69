"""Names marked as code for the translator, and glossary terms given in their Chinese
form too, against plain text, side by side in one run:
every English paragraph of the dev cases' articles (outputs/.benchmarks/<model>/, written
by benchmarks/article_quality.py) translated into Chinese once each way, first reply only,
with the bundled LLM. Counts the paragraphs whose reply fails the draft's translation
checks (a name or term form lost, a number missing, English left), which is what makes the
draft ask again or keep a translation with findings.

    python benchmarks/translation.py [--model 1.5b|0.5b] [--cases a,b]

Prints one line per paragraph whose reply fails either way, and last one JSON line.
"""

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.core import terminology  # noqa: E402
from pipeline.core.settings import Settings  # noqa: E402
from pipeline.draft import DraftPrompts, Writer  # noqa: E402
from pipeline.llm.client import OpenAILLM  # noqa: E402
from pipeline.llm.server import llm_endpoint  # noqa: E402
from pipeline.schema import Draft, Evidence  # noqa: E402


def asked(writer: Writer, text: str, way: str) -> str:
    """`text` as the translator gets it: plain, names marked, or names marked and the
    glossary's Chinese forms put in."""
    if way == "plain":
        return text
    if way == "marked":
        return terminology.protected(text, writer.kept_in_latin(text))
    return writer.marked(text, "zh")


def first_reply(writer: Writer, text: str, way: str) -> list[str]:
    """The findings of the model's first translation of `text`, as the draft checks it."""
    given = asked(writer, text, way)
    plain = terminology.unprotected if given != text else (lambda t: t)
    prompt = writer.translation_prompt(text, given, "paragraph", "zh", "")
    _, findings = writer.reply(
        prompt, lambda t: writer.translation_findings(text, plain(t), "zh"), "zh", 0
    )
    return findings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="1.5b", choices=["1.5b", "0.5b"])
    parser.add_argument("--cases", default="constrained-decoding,kv-cache-serving,sglang-2025")
    args = parser.parse_args()
    outputs = ROOT / "outputs" / ".benchmarks" / args.model
    settings = Settings()
    settings.llama.model = args.model
    failed = {"plain": 0, "marked": 0, "glossed": 0}
    paragraphs = 0
    with llm_endpoint(settings) as (endpoint, _):
        llm = OpenAILLM(endpoint, settings.llm)
        prompts = DraftPrompts.load()
        for case in args.cases.split(","):
            out = outputs / case
            if not (out / "draft.json").is_file():
                sys.exit(f"{out}: no draft; run benchmarks/article_quality.py first")
            evidence = Evidence.model_validate_json((out / "evidence.json").read_text())
            terms = json.loads((out / "transcript.json").read_text())["vocabulary"]
            draft = Draft.model_validate_json((out / "draft.json").read_text())
            writer = Writer(llm, prompts, evidence, terms, "en")
            for paragraph in (p for s in draft.en.sections for p in s.paragraphs):
                paragraphs += 1
                found = {way: first_reply(writer, paragraph.text, way) for way in failed}
                for way, findings in found.items():
                    failed[way] += bool(findings)
                if any(found.values()):
                    print(json.dumps({"case": case, **found}, ensure_ascii=False), flush=True)
    print(json.dumps({"paragraphs": paragraphs, **{f"failed_{w}": n for w, n in failed.items()}}))


if __name__ == "__main__":
    main()
