"""Domain vocabulary from the deck and talk.yaml, to steer speech recognition.

Whisper spells "PagedAttention" as "Page detention" unless it has seen the word; an
initial prompt listing the deck's terms fixes most such names (measured on the example
talk: see the closing note of issue 2).
"""

import re

from pipeline.schema import Deck

TOKEN = re.compile(r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*")
# CamelCase or inner capitals (PagedAttention, vLLM), acronyms (GPU, KV), letter+digit (A100).
TECHNICAL = re.compile(r"[a-z][A-Z]|[A-Z]{2,}|[A-Za-z]\d|\d[A-Za-z]")
MAX_TERMS = 40  # Whisper keeps only the last ~224 prompt tokens


def deck_terms(deck: Deck) -> list[str]:
    terms = []
    for slide in deck.slides:
        for text in slide.texts():
            terms += [t for t in TOKEN.findall(text) if TECHNICAL.search(t)]
    return terms


def collect_terms(deck: Deck | None, glossary: list[str]) -> list[str]:
    """The talk's vocabulary, computed once per run: it steers and corrects transcription
    and seeds the evidence glossary. Glossary first (the maintainer's word wins), then deck
    terms in order of appearance."""
    found = [t.strip() for t in [*glossary, *(deck_terms(deck) if deck else [])] if t.strip()]
    unique: dict[str, str] = {}
    for term in found:  # "KV-cache" and "kv cache" are one term; the first spelling wins
        unique.setdefault(term.lower().replace("-", " "), term)
    return list(unique.values())[:MAX_TERMS]
