"""A talk's reading folder for blind readers (../shared/reader.md): its two articles as
published, each as the list of its printed sentences with a position id (en-01, zh-01, ...),
and its sources: the transcript with times and the deck's text slide by slide.

    python benchmarks/reader_pack.py OUTPUTS_FOLDER CASE [--into benchmarks/readings]

Writes benchmarks/readings/<case>/<date>-<commit>/ and prints its path. Readers see the
articles, sentences.*.txt and sources/ only; key.json (position -> the ledger sentences it
prints and what they are, the sentences left out, and the sentences the run flags for a
reviewer, with why) is for reader_tally.py; key.sources.json (ledger id -> the source words
and context each fact sentence was made from) is labelled data for the next check.
sources/ and key.sources.json are never committed (.gitignore): some cases' talks may not
be copied.
"""

import argparse
import datetime as dt
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.core.checks import additions_check  # noqa: E402
from pipeline.core.text import clock  # noqa: E402
from pipeline.review.flags import beside_left_out, flags  # noqa: E402
from pipeline.schema import Deck, EditedLedger, Transcript  # noqa: E402
from pipeline.schema.ledger import Ledger  # noqa: E402

LANGS = ("en", "zh")


def printed(ledger: Ledger, lang: str) -> list[tuple[str, list[str]]]:
    """The article's sentences as a reader sees them, in order: (text, ledger ids)."""
    by_id = ledger.by_id()

    def one(sentence_id: str) -> list[tuple[str, list[str]]]:
        written = by_id[sentence_id].text(lang)
        return [(written.text, [sentence_id])] if written and written.text else []

    found = one(ledger.title) + one(ledger.summary)
    for chapter in ledger.chapters:
        found += one(chapter.heading)
        for paragraph in chapter.paragraphs:
            found += [said for i in paragraph.sentences for said in one(i)]
    return found


def sentence_kinds(ledger: Ledger) -> dict[str, str]:
    """ledger id -> what the sentence is: its kind, and for a fact or item what its source
    is ("fact/speech", "item/slide", "heading")."""
    sources = {source.id: source.kind for source in ledger.sources}
    return {
        s.id: f"{s.kind}/{sources[s.source]}" if s.source in sources else s.kind
        for s in ledger.sentences
    }


def signals(ledger: Ledger) -> dict[str, dict]:
    """ledger id -> what pipeline.review.flags reads of it, for setting its thresholds."""
    beside = beside_left_out(ledger)
    return {
        s.id: {
            "calls": {lang: w.calls for lang in LANGS if (w := s.text(lang))},
            "meaning": [
                float(c.detail)
                for w in (s.zh, s.en)
                if w
                for c in w.checks
                if c.check == "meaning" and c.passed and c.detail.replace(".", "", 1).isdigit()
            ],
            "beside_left_out": s.id in beside,
        }
        for s in ledger.sentences
    }


def fact_sources(ledger: Ledger) -> dict[str, dict]:
    """ledger id -> the source a fact sentence was made from (its words and context) and,
    in an English talk, the content words its English sentence adds to them."""
    by_id, found = {source.id: source for source in ledger.sources}, {}
    for sentence in (s for s in ledger.sentences if s.source in by_id):
        source, written = by_id[sentence.source], sentence.text("en")
        found[sentence.id] = {"text": source.text, "context": source.context}
        if ledger.language == "en" and written and written.text:
            found[sentence.id]["added"] = additions_check(written.text, source).added
    return found


def transcript_text(transcript: Transcript) -> str:
    return "\n".join(f"[{clock(s.start)}] {s.text}" for s in transcript.segments) + "\n"


def deck_text(deck: Deck | None) -> str:
    if deck is None:
        return "(no deck)\n"
    parts = []
    for slide in deck.slides:
        body = "\n".join(slide.texts(notes=True))
        parts.append(f"## Slide {slide.index}\n{body}\n")
    return "\n".join(parts)


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


def pack(out: Path, target: Path) -> Path:
    """Write the reading folder `target` from the talk's outputs folder `out`."""
    ledger = EditedLedger.model_validate_json((out / "edited.json").read_text()).ledger
    sources = target / "sources"
    sources.mkdir(parents=True, exist_ok=True)
    key: dict = {"sentences": {}, "kinds": {}}
    key["flags"] = {flag.sentence: flag.why for flag in flags(ledger)}
    key["left_out"] = [left.sentence for left in ledger.left_out()]
    key["signals"] = signals(ledger)
    kinds = sentence_kinds(ledger)
    for lang in LANGS:
        shutil.copy(out / f"article.{lang}.md", target / f"article.{lang}.md")
        lines = []
        for n, (text, ids) in enumerate(printed(ledger, lang), start=1):
            position = f"{lang}-{n:02d}"
            key["sentences"][position] = ids
            key["kinds"][position] = kinds[ids[0]]
            lines.append(f"{position} | {' '.join(text.split())}")
        (target / f"sentences.{lang}.txt").write_text("\n".join(lines) + "\n")
    transcript = Transcript.model_validate_json((out / "transcript.json").read_text())
    (sources / "transcript.txt").write_text(transcript_text(transcript))
    deck_file = out / "deck.json"
    deck = Deck.model_validate_json(deck_file.read_text()) if deck_file.is_file() else None
    (sources / "deck.txt").write_text(deck_text(deck))
    (target / "key.json").write_text(json.dumps(key, ensure_ascii=False, indent=1) + "\n")
    made_from = json.dumps(fact_sources(ledger), ensure_ascii=False, indent=1)
    (target / "key.sources.json").write_text(made_from + "\n")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outputs", type=Path, help="the talk's outputs folder")
    parser.add_argument("case", help="the case's name (evals/cases/<case>)")
    parser.add_argument("--into", type=Path, default=ROOT / "benchmarks" / "readings")
    parser.add_argument("--commit", help="the commit that wrote the articles (default: HEAD)")
    args = parser.parse_args()
    target = args.into / args.case / f"{dt.date.today().isoformat()}-{args.commit or commit()}"
    print(pack(args.outputs, target))


if __name__ == "__main__":
    main()
