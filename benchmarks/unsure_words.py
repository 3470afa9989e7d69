"""Which recognised words are misheard: Whisper's word probability alone, against it
together with the rank the embedded LLM gives the word after the speech before it.

    .venv/bin/python benchmarks/unsure_words.py constrained-decoding xgrammar sglang-2025 \
        mlcengine deepseek-mla

On the narrated dev cases (their narration is the reference): every recognised word in
Latin letters that the deck, the vocabulary and the house terminology do not know
(pipeline.evidence.uncertain.known_words) is a candidate; it is misheard when aligning the
transcript to the narration (jiwer) makes it a substitution or an insertion. For each
candidate the LLM is given the 40 words said before it and asked for its next token's 100
likeliest (llama.cpp's /completion, `n_probs`); the word's rank is where a token it starts
with stands there (None: not among them). Printed: per rule (probability below P, rank at
least R), the candidates flagged, and their precision and recall against the misheard
ones; the last line is one JSON object.
"""

import json
import re
import sys
import tempfile
from pathlib import Path

import httpx
import jiwer
from slide_hotwords import narrated_case  # beside this file

from pipeline.core.models import bundled_whisper_tiny_en
from pipeline.core.settings import Settings
from pipeline.deck.vocabulary import collect_terms
from pipeline.evidence.uncertain import known_words
from pipeline.llm.server import embedded_server
from pipeline.transcript import transcribe
from pipeline.transcript.options import TranscriptOptions

CONTEXT_WORDS = 40
TOP = 100
PROBABILITIES = (0.4, 0.5, 0.6, 0.7, 0.8)
RANKS = (0, 20, 50)  # 0: the probability alone


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


def rank_after(url: str, context: str, word: str) -> int | None:
    reply = httpx.post(
        f"{url}/completion",
        json={"prompt": context, "n_predict": 1, "n_probs": TOP, "temperature": 0},
        timeout=300,
    ).json()
    top = [t["token"].strip().lower() for t in reply["completion_probabilities"][0]["top_logprobs"]]
    return next((n for n, token in enumerate(top) if token and word.startswith(token)), None)


def candidates(case: str, url: str) -> list[dict]:
    talk, deck, reference = narrated_case(case, Path(tempfile.mkdtemp()))
    vocabulary = collect_terms(deck, [])
    known = known_words(deck, vocabulary)
    transcript = transcribe(talk, bundled_whisper_tiny_en(), TranscriptOptions(), vocabulary)
    words = [word for segment in transcript.segments for word in segment.words]
    wrong = misheard(words, reference)
    found = []
    for k, word in enumerate(words):
        bare = word.text.strip(" ,.?!;:").lower()
        if k < 3 or not bare.isalpha() or bare in known:
            continue
        context = " ".join(w.text for w in words[max(0, k - CONTEXT_WORDS) : k])
        rank = rank_after(url, context, bare)
        found.append({"word": word.text, "p": word.probability, "rank": rank, "wrong": k in wrong})
    return found


def flagged(rows: list[dict], below: float, rank: int) -> dict:
    hits = [r for r in rows if r["p"] < below and (r["rank"] is None or r["rank"] >= rank)]
    right = sum(r["wrong"] for r in hits)
    wrong = sum(r["wrong"] for r in rows)
    return {
        "flagged": len(hits),
        "precision": round(right / max(len(hits), 1), 2),
        "recall": round(right / max(wrong, 1), 2),
    }


def main() -> None:
    rows = []
    with embedded_server(Settings()) as server:
        url = f"http://127.0.0.1:{server.port}"
        for case in sys.argv[1:]:
            rows += candidates(case, url)
            print(case, len(rows), flush=True)
    rules = {
        f"p<{p}" + (f" rank>={r}" if r else ""): flagged(rows, p, r)
        for p in PROBABILITIES
        for r in RANKS
    }
    for rule, figures in rules.items():
        print(rule, figures)
    print(json.dumps({"candidates": len(rows), "misheard": sum(r["wrong"] for r in rows), **rules}))


if __name__ == "__main__":
    main()
