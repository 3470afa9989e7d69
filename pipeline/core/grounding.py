"""Checks that keep written text tied to what the talk said. Used while writing (notes and
drafts are revised or dropped on a finding) and again by the review, so both judge alike.

Support is lexical on purpose: a sentence's content words (English words, Chinese
character pairs, and for Chinese also words) found in the units it cites. It cannot see
paraphrase by synonym, but it does see a sentence about something the cited units never
mention, which is what small models produce when they drift.
"""

import re
from functools import lru_cache

from rapidfuzz import fuzz

from pipeline.core.prompts import PLACEHOLDER, RETRY_NOTE, REVISE_NOTE, Prompt
from pipeline.core.text import (
    CHINESE_PROSE_SHARE,
    CJK_CHARS,
    CJK_RUN,
    NAME_ZIPF,
    NUMBER,
    STOPWORDS,
    TECHNICAL,
    chinese_words,
    cjk_share,
    has_cjk,
    near_duplicate,
    numbers,
    rarity,
    term_pattern,
    without_commands,
    word_parts,
    zipf,
)

CHINESE_NUMERALS = [
    set(c) for c in ("零", "一", "二两", "三", "四", "五", "六", "七", "八", "九", "十")
]
SHORT_YEAR = re.compile(r"(?<![\d.])(\d{2})\s*年")
FULL_YEAR = re.compile(r"(?:19|20)\d\d")
MONTHS = "January February March April May June July August September October November December"
# A month by its name where it is a date ("May" is also a verb): before a day or a year, or
# after "in"; a translation writes it as a number (2025年5月).
_SHORT = [m[:3] for m in MONTHS.split()] + ["Sept"]
_MONTH = rf"((?:{'|'.join(MONTHS.split())})(?![a-z])|(?:{'|'.join(_SHORT)})(?![a-z])\.?)"
MONTH_NAMES = (
    re.compile(rf"\b{_MONTH}(?=,? (?:\d{{1,2}}(?:st|nd|rd|th)?\b|(?:19|20)\d\d))"),
    re.compile(rf"\b(?:in|since|until|by|from|of|early|late) {_MONTH}"),
)
MONTH_NUMBERS = {name[:3]: str(i) for i, name in enumerate(MONTHS.split(), start=1)}
COPY_RUN = {"en": 8, "zh": 15}  # words for English, characters for Chinese
COPY_PUNCTUATION = set("，。、；：？！,.;:?!")
# A sentence whose content words are less than this share in its cited units is unsupported.
MIN_SUPPORT = 0.5
# A claim or a fact needs this many content words (Chinese: character pairs): "Technique2:"
# or a bare link copied off a slide states nothing.
MIN_CONTENT_TOKENS = 3
STEM = 5  # words sharing their first five letters match: "batches", "batching"
# Chinese written in other words than it was said breaks the character pairs across its new
# word order (19 of 30 faithful rephrasings in tests/data/zh_support.yaml fall under
# MIN_SUPPORT by pairs alone), but keeps most of the words. Words weigh by their rarity, so
# 需要 or 通常 count little and 磁盘 or 梯度 much; a short sentence's word share rests on its
# subject, so it counts WORD_DISCOUNT less (no invented sentence of that file passes).
WORD_DISCOUNT = 0.1
ECHO_MIN_CHARS = 20  # shorter fixed lines ("Article:") are too generic to flag
# The same for Chinese, 3-4 times denser than English letters (the 14-character line of the
# translation prompt fell under ECHO_MIN_CHARS): on the 1,008 printed sentences of
# benchmarks/readings (2026-12-06), 6 to 12 characters flag only the one echo readers found.
ECHO_MIN_CJK = 10
ECHO_SIMILARITY = 90
# A sentence or clause of at least these many words (Chinese characters) repeats an
# earlier one at this rapidfuzz ratio, or when all of it sits inside one at CONTAINED.
REPEAT_MIN_WORDS = 6
REPEAT_MIN_CJK = 10
NEAR_DUPLICATE_SENTENCE = 90
CONTAINED = 92
# A title is a slide fragment when it sits inside a longer line of a slide or of speech.
FRAGMENT_MIN_WORDS = 3
FRAGMENT_MIN_CJK = 6
# A full stop that ends an abbreviation ends no sentence: "vs. static batching", and a
# month or "No." before a number ("Performance at (May. 2025) — 22.3k output token/s").
NOT_AN_END = "".join(rf"(?<!\b{re.escape(a)})" for a in ("vs.", "e.g.", "i.e.", "cf.", "Fig."))
NOT_AN_END_BEFORE_NUMBER = "".join(rf"(?<!\b{m}\.)" for m in (*_SHORT, "No"))
SENTENCE_END = re.compile(
    rf"(?<=[.!?]){NOT_AN_END}\s+(?=[A-Z\"'({CJK_CHARS}])"
    rf"|(?<=[.!?]){NOT_AN_END}{NOT_AN_END_BEFORE_NUMBER}\s+(?=[0-9])"
    r"|(?<=[。！？；])"
)
CLAUSE_END = re.compile(r"(?<=[.;:!?。；：！？])\s*")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9+#.-]*[A-Za-z0-9+#]|[A-Za-z]")
# Chinese function characters: pairs made only of these carry no content.
CJK_FUNCTION = set("的了是在和与及或也都就而这那个一些我们你他她它其中以为于对把被将会能要可有没不")


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(text.strip()) if s.strip()]


def latin_tokens(text: str) -> list[str]:
    """Content words in Latin letters, lowercased, without function words."""
    words = [w.lower() for w in WORD.findall(text)]
    return [w for w in words if w not in STOPWORDS and len(w) > 1]


def content_tokens(text: str) -> list[str]:
    """English content words (lowercased, no function words) and Chinese character pairs."""
    tokens = latin_tokens(text)
    for run in CJK_RUN.findall(text):
        pairs = [run[i : i + 2] for i in range(len(run) - 1)] or [run]
        tokens += [p for p in pairs if not set(p) <= CJK_FUNCTION]
    return tokens


@lru_cache(maxsize=4096)
def _source_index(source: str) -> tuple[frozenset[str], frozenset[str]]:
    tokens = content_tokens(source)
    return frozenset(tokens), frozenset(t[:STEM] for t in tokens if t.isascii())


def support(sentence: str, source: str) -> float:
    """Share of the sentence's content tokens that its source contains (1.0 when it has
    none: "It works." claims nothing); for Chinese, the better of that and the share of its
    words (word_support, WORD_DISCOUNT less)."""
    share = pair_support(sentence, source)
    if has_cjk(sentence):
        share = max(share, word_support(sentence, source) - WORD_DISCOUNT)
    return share


def restates(text: str, other: str, bound: float) -> bool:
    """Whether `text` says what `other` says: at least `bound` of its content words
    (support) and no number `other` lacks."""
    return numbers(text) <= numbers(other) and support(text, other) >= bound


def pair_support(sentence: str, source: str) -> float:
    tokens = content_tokens(sentence)
    if not tokens:
        return 1.0
    found = sum(_in_source(t, source) for t in tokens)
    return found / len(tokens)


def _in_source(token: str, source: str) -> bool:
    exact, stems = _source_index(source)
    return token in exact or (token.isascii() and len(token) >= STEM and token[:STEM] in stems)


def word_support(sentence: str, source: str) -> float:
    """Share of the sentence's words that its source has, each weighted by its rarity:
    Chinese words (found as written, or as all their parts: 前缀缓存 as 前缀 and 缓存) and
    Latin content words (terms: most are too rare for jieba's table, so weigh as much as
    any word it does not know)."""
    text = _squeezed(source)
    weighted = [
        (rarity(w), w in text or all(p in text for p in word_parts(w) or [w]))
        for w in chinese_words(sentence)
        if len(w) > 1 and not set(w) <= CJK_FUNCTION
    ]
    weighted += [(rarity(t), _in_source(t, source)) for t in latin_tokens(sentence)]
    total = sum(weight for weight, _ in weighted)
    return sum(weight for weight, found in weighted if found) / total if total else 1.0


@lru_cache(maxsize=4096)
def _squeezed(source: str) -> str:
    return "".join(source.split())


def number_forms(text: str) -> set[str]:
    """The numbers of `text` and the other ways to write its years and months: Chinese
    speech says "24年" for 2024, which a translation rightly writes out, and the reverse;
    "May 2025" is 2025年5月."""
    found = numbers(text) | set(measures(text).values())
    found |= {MONTH_NUMBERS[m[1][:3]] for pattern in MONTH_NAMES for m in pattern.finditer(text)}
    for short in SHORT_YEAR.findall(text):
        found |= {"19" + short, "20" + short}
    found |= {n[2:] for n in found if FULL_YEAR.fullmatch(n)}
    return found


def copy_tokens(text: str, lang: str) -> list[str]:
    if lang == "zh":
        return [c for c in text if not c.isspace() and c not in COPY_PUNCTUATION]
    return re.findall(r"[a-z0-9]+", text.lower())


def copied_share(text: str, source: str, lang: str) -> float:
    """Share of `text` inside runs of COPY_RUN words (characters for Chinese) that `source`
    also has: how much of it is copied rather than written."""
    n = COPY_RUN[lang]
    article, origin = copy_tokens(text, lang), copy_tokens(source, lang)
    grams = {tuple(origin[i : i + n]) for i in range(len(origin) - n + 1)}
    covered = [False] * len(article)
    for i in range(len(article) - n + 1):
        if tuple(article[i : i + n]) in grams:
            covered[i : i + n] = [True] * n
    return sum(covered) / len(article) if article else 0.0


# What a number is multiplied by where it stands ("52.3k", "13B", "600 thousand", "5.23万"):
# a translation may write the same value in other digits, and the same digits with another
# magnitude, or none, are another number.
MAGNITUDES = {"千万": 1e7, "百万": 1e6, "千": 1e3, "万": 1e4, "亿": 1e8, "k": 1e3, "m": 1e6}
MAGNITUDES |= {"b": 1e9, "t": 1e12, "thousand": 1e3, "million": 1e6, "billion": 1e9}
MAGNITUDES |= {"trillion": 1e12}
SCALED = re.compile(
    r"(?<![A-Za-z\d.,])(\d+(?:[.,]\d+)*)\s?(thousand|million|billion|trillion|千万|百万|[千万亿]"
    r"|[kKMBT](?![A-Za-z]))"
)

THOUSANDS = re.compile(r",(?=\d{3}(?!\d))")


def _plain(number: str) -> str:
    """A number as one key: its thousands separators and trailing zeros dropped."""
    digits = THOUSANDS.sub("", number)
    return digits.rstrip("0").rstrip(".") if "." in digits else digits


def measures(text: str) -> dict[str, str]:
    """Each number of `text` as written ("52.3k", "16") and the key of its value ("52300",
    "16"): a number with a magnitude is its value, any other number its digits."""
    found = {}
    for match in SCALED.finditer(text):
        value = float(THOUSANDS.sub("", match[1])) * MAGNITUDES[match[2].lower()]
        found[match.group()] = _plain(f"{value:.6f}")
    scaled = {m.span(1) for m in SCALED.finditer(text)}
    for match in NUMBER.finditer(text):
        if match.span() not in scaled:
            found.setdefault(match.group(), _plain(match.group()))
    return found


def missing_numbers(source: str, text: str) -> list[str]:
    """The numbers of `source` that `text` lacks, each by its value ("52.3k" is there as
    "5.23万", not as "52.3 个"); a small number written out in Chinese ("不到一秒" for 1,
    "两个" for 2) is there, and so is a year written in full or short."""
    have = number_forms(text)
    return sorted(
        written
        for written, key in measures(source).items()
        if key not in have
        and not (key.isdigit() and int(key) <= 10 and CHINESE_NUMERALS[int(key)] & set(text))
    )


def invented_numbers(text: str, source: str) -> list[str]:
    """Numbers in `text` that `source` does not have, each by its value (a rounded 3.1 for
    3.14 counts, and so does "52.3k" for "52.3"; a year written out from "24年" does not)."""
    have = number_forms(source)
    return sorted(written for written, key in measures(text).items() if key not in have)


def prompt_lines(prompts: list[Prompt], extra: tuple[str, ...] = ()) -> list[str]:
    """The prompts' own wording, as lines and as clauses (a clause wraps across lines in
    the prompt files): text that repeats one is an echo, not prose. The notes the code adds
    on a retry count too."""
    notes = (RETRY_NOTE, REVISE_NOTE)
    pieces = [part for note in notes for part in re.split(r"\{\w+\}", note)]
    for prompt in prompts:
        text = PLACEHOLDER.sub(" ", prompt.system + "\n" + prompt.user)
        pieces += text.splitlines()
        pieces += CLAUSE_END.split(" ".join(text.split()))
    pieces = [p.strip(" -") for p in [*pieces, *extra]]
    return list(dict.fromkeys(p for p in pieces if echo_sized(p)))


def echo_sized(text: str) -> bool:
    """Long enough that matching a prompt line is no chance: in letters or in Chinese."""
    cjk = sum(len(run) for run in CJK_RUN.findall(text))
    return len(text.strip()) >= ECHO_MIN_CHARS or cjk >= ECHO_MIN_CJK


def mentions(text: str, term: str) -> bool:
    """The term in the text as a word, in any case ("KV-cache" for "KV cache" too); a
    Chinese term anywhere (Chinese has no spaces to bound a word, "UC" has "produce")."""
    if CJK_RUN.search(term):
        return term in text
    return bool(term_pattern(term).search(text))


def is_name(word: str) -> bool:
    """A word in Latin letters that is technical in spelling or no English word; a Chinese
    term ("预填充") is translated, never a name to keep."""
    latin = word.isascii() and word.isalpha()
    return bool(TECHNICAL.search(word)) or (latin and zipf(word) < NAME_ZIPF)


def name_parts(term: str) -> list[str]:
    """The words of a term that are names: "KV" of "KV cache", all of "PagedAttention"."""
    return [w for w in term.split() if is_name(w)]


# The reply format our prompts ask for, said back inside a reply ("Slime, 输出 JSON：{，一个
# RL 训练框架"): never the talk's. Plain "输出 JSON" is: a talk on constrained decoding says it.
REPLY_FORMAT = re.compile(
    r"输出\s*JSON\s*[：:]\s*\{|\bReply (?:as|with) JSON\b|\{\s*\"(?:text|title|claims)\"\s*:"
)


def is_echo(text: str, lines: list[str]) -> bool:
    """Text that says a prompt line back, or our reply format; short text ("How it works")
    matches some part of a prompt line by chance."""
    if REPLY_FORMAT.search(text):
        return True
    if not echo_sized(text):
        return False
    lowered = text.lower()
    return any(fuzz.partial_ratio(line.lower(), lowered) >= ECHO_SIMILARITY for line in lines)


def strip_terms(text: str, terms: list[str]) -> str:
    for term in sorted(terms, key=len, reverse=True):
        text = re.sub(re.escape(term), " ", text, flags=re.IGNORECASE)
    return text


def wrong_language_sentences(text: str, lang: str, terms: list[str] = ()) -> list[str]:
    """English sentences in Chinese text or Chinese in English text; the glossary's terms,
    short Latin names, code and command lines inside Chinese sentences are fine."""
    wrong = []
    for sentence in split_sentences(text):
        if lang == "en" and has_cjk(sentence):
            wrong.append(sentence)
        elif lang == "zh":
            rest = strip_terms(without_commands(sentence), list(terms))
            latin_words = len(WORD.findall(rest))
            if latin_words >= 4 and cjk_share(rest) < CHINESE_PROSE_SHARE:
                wrong.append(sentence)
    return wrong


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def is_fragment(title: str, lines: list[str]) -> bool:
    """A title copied out of the middle of a longer line ("... for every B32"). What some
    line has whole (a slide title, or a part of one: "DeepSeek V3 Optimization" of "2025
    Highlight: DeepSeek V3 Optimization") is none, wherever else it stands."""
    norm = _normal(title)
    long_enough = len(norm.split()) >= FRAGMENT_MIN_WORDS or (
        len(CJK_RUN.findall(norm)) and sum(map(len, CJK_RUN.findall(norm))) >= FRAGMENT_MIN_CJK
    )
    if not long_enough:
        return False
    whole = any(norm == _normal(line) or norm in whole_parts(line) for line in lines)
    return not whole and any(norm in _normal(line) for line in lines)


def whole_parts(line: str) -> set[str]:
    """The parts of a line around a colon, a dash or an aside ("Technique2: Faster
    Constrained Decoding", "Benchmark Result (Lower is Better)"): each is a whole phrase,
    not a cut."""
    parts = re.split(r"[:：()（）]|\s[-–—]\s", line)
    return {_normal(part) for part in parts if part.strip()}


def duplicate_of(text: str, earlier: list[str]) -> int | None:
    """The index of an earlier paragraph that says the same thing."""
    return next((i for i, other in enumerate(earlier) if near_duplicate(text, other)), None)


def substantial(text: str) -> bool:
    """Long enough that saying it twice is a repeat, not an echo of a short phrase."""
    cjk = sum(map(len, CJK_RUN.findall(text)))
    return cjk >= REPEAT_MIN_CJK or len(WORD.findall(text)) >= REPEAT_MIN_WORDS


def repeats(piece: str, earlier: list[str]) -> bool:
    """Whether `piece` (a sentence or a clause) says again what one of `earlier` said:
    nearly the same words, or all of its words inside an earlier sentence, with no number
    of its own ("0.8 seconds" and "0.7 seconds" are two facts)."""
    norm = _normal(piece)
    if not substantial(norm):
        return False
    for other in earlier:
        if numbers(piece) - numbers(other):
            continue
        plain = _normal(other)
        if fuzz.ratio(norm, plain) >= NEAR_DUPLICATE_SENTENCE or (
            len(norm) <= len(plain) and fuzz.partial_ratio(norm, plain) >= CONTAINED
        ):
            return True
    return False


def repeated_sentences(texts: list[str]) -> list[tuple[int, str]]:
    """(index of the text, sentence) for each sentence of `texts` (an article's paragraphs,
    in order) that says again what an earlier one said."""
    said: list[str] = []
    found = []
    for i, text in enumerate(texts):
        for sentence in split_sentences(text):
            if repeats(sentence, said):
                found.append((i, sentence))
            said.append(sentence)
    return found
