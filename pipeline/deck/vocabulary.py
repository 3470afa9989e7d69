"""The talk's vocabulary from the deck and talk.yaml: the terms a speaker will say that
Whisper does not know, spelled as the deck spells them.

Whisper spells "PagedAttention" as "Page detention" unless it has seen the word; the
deck's terms given as hotwords fix most such names, and the transcript is then corrected
towards them (pipeline/transcript/corrections.py). Four kinds of term:

- names: CamelCase or inner capitals (SGLang, vLLM), acronyms (LRU), letter+digit (H100),
  and words rare in ordinary English (xgrammar, nginx);
- code identifiers: `torch.compile`, `max_worker_retries`, `--enable-overlap`, `/add_worker`;
- phrases of two or three words with a rare or technical word ("radix tree",
  "KV cache", "finite state machine"), met more than once or with a rare plain word;
- short Chinese labels ("推理引擎") met more than once.

Numbers and versions (70B, v0.4, 5x) are left out: they are said as numbers. Terms are
ranked by how characteristic they are of the deck: how often they appear, whether in a
title, how rare their words are in ordinary English (wordfreq).
"""

import re
from collections import Counter
from dataclasses import dataclass, field

from pipeline.core.text import CJK_RUN, NAME_ZIPF, STOPWORDS, TECHNICAL, zipf
from pipeline.schema import Deck

TOKEN = re.compile(r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*")
IDENTIFIER = re.compile(
    r"(?<![\w/.-])(?:--?[a-z][a-z0-9]*(?:-[a-z0-9]+)+"  # --enable-overlap
    r"|/[a-z]+(?:_[a-z0-9]+)+"  # /add_worker
    r"|[A-Za-z_][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+"  # max_num_seqs
    r"|[A-Za-z][A-Za-z0-9]+(?:\.[A-Za-z][A-Za-z0-9_]+)+)"  # torch.compile
    r"(?![\w/-])"
)
NUMBERISH = re.compile(r"^[vVqQ#]?[\d.,]+[A-Za-z]?[\d.]*$")  # 70B, v0.4, 5x, Q4, 1.3B
# A word of a phrase, never begun inside a token: with evidence/screen/words.WORD's start,
# the seven real decks' phrases gain "Llama3 B" and "nd token" (740 -> 759).
WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")
PHRASE_BREAK = re.compile(r"[^\w\s-]")
RARE_WORD = 2.3  # zipf frequency: "radix" 2.25, "nginx" 2.2; "cache" 3.6, "tree" 4.9
RARE_IN_PHRASE = 3.8  # a phrase needs one word at least this rare ("cache", "finite")
CJK_TERM_CHARS = (2, 6)  # longer runs of Chinese are sentences, not terms
MAX_TERMS = 40  # targets of corrections and the glossary; the hotwords take those that fit


def is_number(token: str) -> bool:
    return bool(NUMBERISH.match(token))


def is_name(token: str) -> bool:
    """A word Whisper will not know: technical spelling, or rare in ordinary English."""
    if is_number(token) or len(token) < 2:
        return False
    return bool(TECHNICAL.search(token)) or (len(token) >= 4 and zipf(token) < RARE_WORD)


@dataclass
class Tally:
    """Occurrences of one term (by its folded form) and the spellings seen."""

    count: int = 0
    in_title: bool = False
    first: int = 0
    spellings: Counter = field(default_factory=Counter)


def fold(term: str) -> str:
    """'KV-cache', 'kv cache' and 'KV Cache' are one term."""
    return " ".join(term.lower().replace("-", " ").split())


class Collector:
    """Tallies of every candidate term of one deck, in reading order."""

    def __init__(self) -> None:
        self.tallies: dict[str, Tally] = {}
        self.seen = 0
        self.titles: set[str] = set()
        self.lines: list[str] = []

    def add_title(self, title: str) -> None:
        """A title repeated over animation builds counts once."""
        if title not in self.titles:
            self.titles.add(title)
            self.add_text(title, in_title=True)

    def add_chinese_labels(self) -> None:
        """Short runs of Chinese ("推理引擎", "显存"), counted by the lines they appear in:
        Chinese has no spaces, so "的推理引擎" holds the label too."""
        runs = {r for line in self.lines for r in CJK_RUN.findall(line)}
        for label in sorted(r for r in runs if CJK_TERM_CHARS[0] <= len(r) <= CJK_TERM_CHARS[1]):
            lines = [line for line in self.lines if label in line]
            tally = Tally(count=len(lines), first=self.seen)
            tally.spellings[label] = 1
            self.tallies.setdefault(fold(label), tally)

    def add(self, term: str, in_title: bool) -> None:
        tally = self.tallies.setdefault(fold(term), Tally(first=self.seen))
        tally.count += 1
        tally.in_title |= in_title
        # A title's capitals are typography; the body's spelling is the term's own.
        tally.spellings[term] += 1 if in_title else 3
        self.seen += 1

    def add_text(self, text: str, in_title: bool) -> None:
        for line in text.splitlines():
            for identifier in IDENTIFIER.findall(line):
                self.add(identifier, in_title)
            for token in TOKEN.findall(line):
                if is_name(token) and not IDENTIFIER.fullmatch(token):
                    self.add(token, in_title)
            for phrase in phrases(line):
                self.add(phrase, in_title)
            self.lines.append(line)


def phrases(line: str) -> list[str]:
    """Runs of two or three words without stop words, with one rare or technical word;
    punctuation other than hyphens ends a run ("Data Parallel (SGLang" is not one)."""
    found = []
    for part in PHRASE_BREAK.split(IDENTIFIER.sub(" | ", line)):
        words = WORD.findall(part)
        for size in (2, 3):
            for i in range(len(words) - size + 1):
                run = words[i : i + size]
                if any(w.lower() in STOPWORDS or is_number(w) for w in run):
                    continue
                if any(TECHNICAL.search(w) or zipf(w) < RARE_IN_PHRASE for w in run):
                    found.append(" ".join(run))
    return found


def keeps(tally: Tally, spelling: str) -> bool:
    """A phrase met once is a turn of phrase, unless it is two words, one of them a rare
    plain word ("pushdown automaton")."""
    words = spelling.split()
    if tally.count >= 2:
        return True
    if CJK_RUN.search(spelling):
        return False  # a Chinese label met once is no more a term than a phrase is
    if len(words) == 1:
        return True
    plain = [w for w in words if not TECHNICAL.search(w)]
    return len(words) == 2 and len(plain) == 2 and any(zipf(w) < RARE_WORD for w in plain)


def canonical(tally: Tally) -> str:
    """The deck's spelling, body text over titles; a plain-word phrase in lower case when
    the deck ever writes it so, or when its capitals are Title Case typography."""
    spelling = tally.spellings.most_common(1)[0][0]
    words = spelling.split()
    plain = not any(TECHNICAL.search(w) for w in words)
    lower = [s for s in tally.spellings if s == s.lower()]
    if len(words) > 1 and plain and lower:
        return lower[0]
    # Title Case English words ("Pushdown Automaton") are typography; names are not.
    if len(words) > 1 and plain and all(zipf(w) >= NAME_ZIPF for w in words):
        return spelling.lower()
    return spelling


def characteristic(tally: Tally, term: str) -> float:
    # wordfreq's Chinese needs a segmenter; a Chinese label counts as moderately rare.
    rarity = 1.0 if CJK_RUN.search(term) else max(0.0, 5.0 - min(zipf(w) for w in term.split()))
    return tally.count + 2 * tally.in_title + rarity


def deck_terms(deck: Deck) -> list[str]:
    """The deck's terms, most characteristic first."""
    collector = Collector()
    for slide in deck.slides:
        collector.add_title(slide.title)
        for text in slide.texts()[1 if slide.title else 0 :]:
            collector.add_text(text, in_title=False)
    collector.add_chinese_labels()
    tallies = collector.tallies
    spelled = {k: canonical(t) for k, t in tallies.items()}
    # A phrase inside a longer one seen as often is a fragment, whether or not the longer
    # phrase is kept ("simulated radix" of "simulated radix trees"); a name stays a term.
    kept = {
        k: t
        for k, t in tallies.items()
        if keeps(t, spelled[k]) and not (" " in spelled[k] and _inside_longer(k, t, tallies))
    }
    kept = {k: t for k, t in kept.items() if not _inside_longer(k, t, kept)}
    ranked = sorted(kept, key=lambda k: (-characteristic(kept[k], spelled[k]), kept[k].first))
    return [spelled[k] for k in ranked]


def _inside_longer(key: str, tally: Tally, kept: dict[str, Tally]) -> bool:
    """ "hit rate" inside "cache hit rate", seen as often: only the longer is a term."""
    return any(
        other != key and f" {key} " in f" {other} " and t.count >= tally.count
        for other, t in kept.items()
    )


def collect_terms(deck: Deck | None, glossary: list[str]) -> list[str]:
    """The talk's vocabulary, computed once per run: it steers and corrects transcription
    and seeds the evidence glossary. Glossary first (the maintainer's word wins), then the
    deck's terms, most characteristic first."""
    found = [t.strip() for t in [*glossary, *(deck_terms(deck) if deck else [])] if t.strip()]
    unique: dict[str, str] = {}
    for term in found:  # "KV-cache" and "kv cache" are one term; the first spelling wins
        unique.setdefault(fold(term), term)
    return list(unique.values())[:MAX_TERMS]
