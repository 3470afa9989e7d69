"""Small text helpers shared by stages."""

import logging
import re
import unicodedata
from functools import cache

import jieba
from rapidfuzz import fuzz
from wordfreq import zipf_frequency

CJK_CHARS = "\u4e00-\u9fff"  # CJK Unified Ideographs: Chinese characters
CJK_MARKS = "。！？，；：、"  # the full-width marks that end a Chinese sentence or clause
CJK = re.compile(f"[{CJK_CHARS}]")
CJK_RUN = re.compile(f"[{CJK_CHARS}]+")
# A command line as slides show one ("python3 -m sglang.launch_server --tp 8"): a program
# of the field, then words with no Chinese in them, one of them a flag.
PROGRAM = re.compile(
    r"(?<![\w`./-])(?:python3?|pip3?|uv|docker|git|curl|wget|torchrun|conda|bash|make"
    r"|mlc_llm|vllm|sglang|llama-server|huggingface-cli)(?=\s)"
)
COMMAND_WORD = re.compile(rf"\s+([^\s`，。；：！？、（）{CJK_CHARS}]+)")
# rapidfuzz ratio at or above which two paragraphs say the same thing.
NEAR_DUPLICATE = 90
LATIN_WORD = re.compile(r"[A-Za-z]+")
# Chinese prose with English terms scores well above this; English with a stray term, below.
CHINESE_PROSE_SHARE = 0.5
NAME_ZIPF = 1.0  # below: not an English word ("Liangsheng", "Lindqvist"): a name
# Spellings that are part of a name: CamelCase or inner capitals (PagedAttention, vLLM),
# acronyms (GPU, KV), letters with digits (A100).
TECHNICAL = re.compile(r"[a-z][A-Z]|[A-Z]{2,}|[A-Za-z]\d|\d[A-Za-z]")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# Units that take a space after their number ("16 GB", "5 ms"). Not "B" (13B is a model
# size, written together), "x"/"×" or "%" (written together).
UNIT = r"(?:[KMGTP]i?B(?:/s)?|[KMGT]bps|[mμun]s|s|min|h|[KMG]Hz|k?W|TFLOPS|PFLOPS|tok(?:ens)?/s)"
# A quantity: a number with its unit, magnitude, multiplier or share ("16 GB", "600K",
# "2.2x", "71%", "3 倍"); a bare number counts, orders or tells the time ("第 2 个", "11 点").
QUANTITY = re.compile(
    rf"(?<![A-Za-z\d.])\d+(?:[.,]\d+)*\s*(?:%|×|倍|万|亿|毫?秒|分钟|小时|(?:x|times|percent|[KMBT]"
    rf"|{UNIT}|tokens?|QPS|TPS|(?:kilo|mega|giga|tera)?bytes?|(?:milli)?seconds?|minutes?"
    rf"|hours?)(?![A-Za-z]))",
    re.IGNORECASE,
)
# English function words: never part of a term, never the edge of a corrected run.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "for",
        "from",
        "has",
        "have",
        "how",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "more",
        "no",
        "not",
        "of",
        "on",
        "or",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "up",
        "very",
        "was",
        "we",
        "what",
        "when",
        "which",
        "will",
        "with",
        "without",
        "you",
        "our",
        "your",
        "all",
        "any",
        "each",
        "both",
        "based",
        "under",
        "over",
        "about",
        "one",
        "two",
        "soon",
        "also",
        "only",
        "just",
        "some",
        "such",
        "like",
        "use",
        "using",
    ]
)


LANGUAGE_NAMES = {"en": "English", "zh": "Simplified Chinese (简体中文)"}
CHINESE_LANGUAGES = ("zh", "yue")  # ISO 639-1 codes of talks written up in Chinese first


def writing_language(language: str) -> str:
    """The language an article is written in first: Chinese for Chinese talks, English for
    every other; the other of the two is translated from it."""
    return "zh" if language in CHINESE_LANGUAGES else "en"


def other_language(lang: str) -> str:
    """The article's other language: English for Chinese, Chinese for English."""
    return "en" if lang == "zh" else "zh"


def has_cjk(text: str) -> bool:
    return bool(CJK.search(text))


def cjk_share(text: str) -> float:
    """CJK characters among CJK characters plus Latin words: a Latin term inside Chinese
    prose ("KV cache") weighs like a word, not like each of its letters."""
    cjk = len(CJK.findall(text))
    latin_words = len(LATIN_WORD.findall(text))
    return cjk / (cjk + latin_words) if cjk + latin_words else 0.0


@cache
def _segmenter() -> jieba.Tokenizer:
    jieba.setLogLevel(logging.WARNING)  # not "Building prefix dict ..." on every first use
    return jieba.dt


@cache
def _rarity() -> tuple[dict[str, float], float]:
    """jieba's inverse document frequencies and their median (for words it lacks)."""
    _segmenter()
    from jieba.analyse import default_tfidf  # loads its 270k-word table: only when asked

    return default_tfidf.idf_freq, default_tfidf.median_idf


def segmented(text: str) -> list[str]:
    """The text's words and punctuation marks in order (jieba, no HMM), spaces dropped."""
    return [w for w in _segmenter().cut(text, HMM=False) if w.strip()]


def chinese_words(text: str) -> list[str]:
    """The words of the Chinese runs in `text` (jieba, its dictionary only, so the same text
    always gives the same words)."""
    return [w for run in CJK_RUN.findall(text) for w in _segmenter().cut(run, HMM=False)]


def word_parts(word: str) -> list[str]:
    """The shorter dictionary words inside a long word (前缀缓存: 前缀, 缓存)."""
    return [p for p in _segmenter().cut_for_search(word, HMM=False) if 2 <= len(p) < len(word)]


def zipf(word: str) -> float:
    """How common an English word is (wordfreq's Zipf scale: "the" 7.7, "cache" 3.6)."""
    return zipf_frequency(word.lower(), "en")


def rarity(word: str) -> float:
    """How rare a Chinese word is in general text (its IDF): 需要 is common, 梯度 is rare."""
    table, median = _rarity()
    return table.get(word, median)


def numbers(text: str) -> set[str]:
    return set(NUMBER.findall(text))


def quantities(text: str) -> set[str]:
    """The numbers a text gives with a unit, magnitude, multiplier or share."""
    return {NUMBER.match(q.group()).group() for q in QUANTITY.finditer(text)}


def shorten(text: str, words: int) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def near_duplicate(a: str, b: str) -> bool:
    """Two paragraphs that say the same thing (the draft drops them, the review flags them)."""
    return fuzz.ratio(a, b) >= NEAR_DUPLICATE


# Where a long spoken sentence may be cut: after a clause's comma, semicolon or colon, and
# (unpunctuated Chinese subtitles) at a space beside a Chinese character, where one cue
# ended and the next began.
AFTER_CLAUSE = re.compile(r"(?<=[,;:，；：])\s*")
CUE_BREAK = re.compile(f"(?<=[{CJK_CHARS}])\\s+|\\s+(?=[{CJK_CHARS}])")

# What Markdown (with the site's attr_list) reads as markup in text: code, emphasis, links
# and images, attribute lists and headings (each escaped with a backslash); a "<" that
# opens a tag, comment or autolink and an "&" that opens a character reference (written as
# entities); a ">" that opens a quote. Every other "<", "&" and ">" is shown as it is, so
# "x < y && y > z => w" stays readable in the Markdown itself.
MARKDOWN_SPECIALS = re.compile(r"[\\`*_{}\[\]#]|<(?=[A-Za-z/!?])|&(?=#?\w+;)|^\s*>", re.MULTILINE)
HTML_SPECIALS = {"<": "&lt;", "&": "&amp;"}


def markdown_text(text: str) -> str:
    """Markdown that shows `text` as it is: no link, tag, entity, attribute or emphasis of
    its own survives (a "[x](javascript:...)" stays text)."""

    def escaped(match: re.Match) -> str:
        found = match.group()
        if found in HTML_SPECIALS:
            return HTML_SPECIALS[found]
        if found.strip() == ">":  # a quote's opening
            return found.replace(">", "\\>")
        return "\\" + found

    return MARKDOWN_SPECIALS.sub(escaped, text)


def markdown_table(rows: list[list[str | None]]) -> str:
    """A GitHub-flavoured Markdown table; the first row is the header.

    Columns and rows empty throughout are left out: double rules in a PDF and merged
    cells both produce them, and they carry nothing.
    """

    def cell(value: str | None) -> str:
        return " ".join((value or "").split()).replace("|", "\\|")

    width = max(len(row) for row in rows)
    grid = [[cell(v) for v in row] + [""] * (width - len(row)) for row in rows]
    keep = [c for c in range(width) if any(row[c] for row in grid)]
    lines = [[row[c] for c in keep] for row in grid if any(row)]
    width = len(keep)
    out = ["| " + " | ".join(lines[0]) + " |", "|" + " --- |" * width]
    out += ["| " + " | ".join(line) + " |" for line in lines[1:]]
    return "\n".join(out)


def estimate_tokens(text: str) -> int:
    """Roughly what an LLM tokenizer makes of `text`: a token per Chinese character and
    about four tokens per three English words. No tokenizer file needed, so it runs offline
    and the same for every model."""
    latin = len(re.findall(r"[A-Za-z0-9]+", text))
    return len(CJK.findall(text)) + round(latin * 4 / 3)


def clock(seconds: float, hours: bool = False, millis: str | None = None) -> str:
    """A time as citations, evidence ids and subtitles show it: mm:ss below an hour and
    h:mm:ss above, HH:MM:SS with `hours`, and milliseconds after `millis` (SRT ',', VTT '.')."""
    total_ms = round(seconds * 1000) if millis else int(seconds) * 1000
    h, rest = divmod(total_ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    if hours:
        text = f"{h:02d}:{m:02d}:{s:02d}"
    else:
        text = f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"
    return f"{text}{millis}{ms:03d}" if millis else text


# Elements of HTML (and the SVG/MathML roots): a tag named one of these in talk text is
# markup, never content. Anything else in angle brackets is kept ("vector<int>",
# "latency < 5 ms"): a sanitizer that strips every tag would eat code off a slide.
HTML_ELEMENTS = frozenset(
    """a abbr address area article aside audio b base bdi bdo blockquote body br button
    canvas caption center cite code col colgroup data datalist dd del details dfn dialog
    div dl dt em embed fieldset figcaption figure font footer form frame frameset h1 h2
    h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li
    link main map mark marquee math menu meta meter nav noscript object ol optgroup
    option output p param picture pre progress q rp rt ruby s samp script section select
    slot small source span strike strong style sub summary sup svg table tbody td
    template textarea tfoot th thead time title tr track tt u ul var video wbr""".split()  # noqa: SIM905
)
HTML_TAG = re.compile(r"<\s*/?\s*([A-Za-z][\w-]*)(?:[\s/][^<>]*)?>")
# Script and style bodies go with their tags: their text is code, not what was said.
RAW_CONTENT = re.compile(r"<\s*(script|style)\b[^>]*>.*?(?:<\s*/\s*\1\s*>|$)", re.I | re.S)


def plain_text(text: str) -> str:
    """A subtitle cue's text without the HTML its format allows (<i>, <font>, <c>) or a
    caption tool left in; `vector<int>` stays. Pages need no such cleaning: everything is
    escaped where it is rendered."""
    text = RAW_CONTENT.sub("", text)
    return HTML_TAG.sub(lambda m: "" if m.group(1).lower() in HTML_ELEMENTS else m.group(0), text)


def command_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` has a command line: its program to its last word (a word that ends
    with a full stop or a comma is the last, without it)."""
    spans = []
    for program in PROGRAM.finditer(text):
        end, words = program.end(), []
        while (word := COMMAND_WORD.match(text, end)) is not None:
            end, words = word.end(), [*words, word[1]]
            if word[1][-1] in ".,;:":
                end -= 1
                break
        if any(w.startswith("-") for w in words):
            spans.append((program.start(), end))
    return spans


CODE_SPAN = re.compile(r"`[^`]+`")  # inline code, as Markdown writes it


def without_commands(text: str) -> str:
    """The text with its command lines and code spans left out."""
    for start, end in reversed(command_spans(text)):
        text = text[:start] + " " + text[end:]
    return CODE_SPAN.sub(" ", text)


LATIN_END = re.compile(r"[A-Za-z0-9]")


def within(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    """The span lies inside one of `spans` (a term kept as written, a web address)."""
    start, end = span
    return any(a <= start and end <= b for a, b in spans)


@cache
def term_pattern(term: str, plural: bool = False) -> re.Pattern:
    """The term as a whole word; "KV-cache", "KV cache" and "kv cache" are one term; with
    `plural`, "KV caches" and "tokens" too. Only a Latin end needs a word boundary: Chinese
    is written without spaces, so "LLM部署" has 部署 in it."""
    words = [re.escape(w) for w in re.split(r"[-\s]+", term.strip())]
    joined = r"[-\s]?".join(words) + (r"(?:e?s)?" if plural else "")
    before = r"(?<![A-Za-z0-9])" if LATIN_END.match(term.strip()) else ""
    after = r"(?![A-Za-z0-9])" if LATIN_END.match(term.strip()[-1:]) else ""
    return re.compile(before + joined + after, re.IGNORECASE)


# Styled letters and digits (Mathematical Alphanumeric Symbols: 𝑰, 𝟖, 𝐆) that a deck's
# text layer may carry for bold or italic type; their plain forms are their NFKC forms.
STYLED = re.compile("[\U0001d400-\U0001d7ff]+")
DOUBLED = re.compile(r"(?:(.)\1)+")  # every glyph twice: a text layer that drew each twice


def plain_letters(text: str) -> str:
    """Styled letters and digits as plain ones. A text whose every styled run (of two or
    more glyphs) is doubled, one of them holding a letter, was drawn with each glyph twice
    (as some PDF exporters write bold: 𝑰𝑰𝑵𝑵𝑻𝑻𝟒𝟒): its runs are halved. A styled number
    alone is never halved ("𝟒𝟒 GB" is 44 GB). Other text is left as it is (NFKC would also
    turn Chinese full-width punctuation into ASCII)."""
    runs = [m.group() for m in STYLED.finditer(text) if len(m.group()) >= 2]
    lettered = any(unicodedata.normalize("NFKC", ch).isalpha() for run in runs for ch in run)
    doubled = lettered and all(DOUBLED.fullmatch(run) for run in runs)

    def plain(match: re.Match) -> str:
        run = match.group()
        return unicodedata.normalize("NFKC", run[::2] if doubled and len(run) >= 2 else run)

    return STYLED.sub(plain, text)
