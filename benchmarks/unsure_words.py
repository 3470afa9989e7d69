"""Which recognised words are misheard: the rule the evidence stage applies
(pipeline.evidence.uncertain.misheard_words: a doubted word the LLM does not expect after
the speech before it) against recognition's probability alone, its rule where the endpoint
gives no next tokens.

    .venv/bin/python benchmarks/unsure_words.py constrained-decoding xgrammar sglang-2025 \
        mlcengine deepseek-mla

On the narrated dev cases (their narration is the reference): a recognised word is
misheard when aligning the transcript to the narration (jiwer) makes it a substitution or
an insertion. Candidates are the words the rules may flag: any the deck, the vocabulary
and the house terminology do not know (known_words). Printed per rule over all cases: the
words flagged, their precision and recall against the misheard candidates, and the LLM's
seconds per talk minute; the last line is one JSON object.
"""

import json
import re
import sys
import tempfile
import time
from pathlib import Path

import jiwer
from slide_hotwords import narrated_case  # beside this file

from pipeline.core.models import bundled_whisper_tiny_en
from pipeline.deck.vocabulary import collect_terms
from pipeline.evidence.uncertain import bare, known_words, misheard_words
from pipeline.llm.session import LLMSession
from pipeline.settings import Settings
from pipeline.transcript import transcribe
from pipeline.transcript.options import TranscriptOptions


def spoken_words(text: str) -> list[str]:
    return re.sub(r"[^\w\s'-]", " ", text.lower()).split()


def misheard(words, reference: str) -> set[int]:
    """The indexes of `words` that aligning them to `reference` substitutes or inserts."""
    tokens, owner = [], []
    for k, word in enumerate(words):
        for token in spoken_words(word.text):
            tokens.append(token)
            owner.append(k)
    alignment = jiwer.process_words(" ".join(spoken_words(reference)), " ".join(tokens))
    return {
        owner[i]
        for chunk in alignment.alignments[0]
        if chunk.type in ("substitute", "insert")
        for i in range(chunk.hyp_start_idx, chunk.hyp_end_idx)
    }


def case_figures(case: str, llm) -> dict:
    talk, deck, reference = narrated_case(case, Path(tempfile.mkdtemp()))
    vocabulary = collect_terms(deck, [])
    known = known_words(deck, vocabulary)
    transcript = transcribe(talk, bundled_whisper_tiny_en(), TranscriptOptions(), vocabulary)
    words = [word for segment in transcript.segments for word in segment.words]
    wrong = misheard(words, reference)
    candidates = {k for k, w in enumerate(words) if bare(w) and bare(w) not in known}
    ids = {id(w): k for k, w in enumerate(words)}
    started = time.monotonic()
    judged = {ids[id(w)] for w in misheard_words(words, known, llm)[0]}
    seconds = time.monotonic() - started
    alone = {ids[id(w)] for w in misheard_words(words, known, None)[0]}
    return {
        "candidates": len(candidates),
        "misheard": len(candidates & wrong),
        "judged": (len(judged), len(judged & wrong)),
        "alone": (len(alone), len(alone & wrong)),
        "seconds": seconds,
        "minutes": transcript.duration / 60,
    }


def rule(rows: list[dict], name: str) -> dict:
    flagged = sum(r[name][0] for r in rows)
    right = sum(r[name][1] for r in rows)
    return {
        "flagged": flagged,
        "precision": round(right / max(flagged, 1), 2),
        "recall": round(right / max(sum(r["misheard"] for r in rows), 1), 2),
    }


def main() -> None:
    rows = []
    with LLMSession(Settings().llm_setup) as session:
        llm = session.get()
        for case in sys.argv[1:]:
            rows.append(case_figures(case, llm))
            print(case, rows[-1], flush=True)
    seconds = sum(r["seconds"] for r in rows) / sum(r["minutes"] for r in rows)
    figures = {
        "candidates": sum(r["candidates"] for r in rows),
        "misheard": sum(r["misheard"] for r in rows),
        "llm_judged": rule(rows, "judged"),
        "probability_alone": rule(rows, "alone"),
        "llm_seconds_per_talk_minute": round(seconds, 1),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
