"""One Chinese terminology (terminology.yaml): for each English AI-systems term, the one
form Chinese text uses, and the word-by-word translations it never uses ("令牌" for
token, "垂直开销" for overhead). Translation is told the forms; drafting, the review and the
benchmark check them.
"""

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from pipeline.core.text import CJK_CHARS, has_cjk, term_pattern, within

SOURCE = Path(__file__).with_name("terminology.yaml")
KEEP = "keep"
CJK_PUNCTUATION = "，。、；：！？（）《》「」"
# A web address is written as it is, in every language: its words are no terms
# (".../high-throughput-low-latency-llm-inference" keeps its "throughput").
URL = re.compile(r"\b(?:https?://|www\.)[!-~]*[A-Za-z0-9/#=_-]")  # not its full stop


@dataclass(frozen=True)
class Term:
    en: str
    zh: str  # the Chinese form, or the English term itself when the house keeps it
    also: tuple[str, ...] = ()
    never: tuple[str, ...] = ()

    def forms(self) -> tuple[str, ...]:
        return (self.zh, *self.also)


@functools.cache
def terms() -> tuple[Term, ...]:
    entries = yaml.safe_load(SOURCE.read_text(encoding="utf-8"))
    found = []
    for en, policy in entries.items():
        policy = policy if isinstance(policy, dict) else {"zh": policy}
        zh = en if policy["zh"] == KEEP else policy["zh"]
        found.append(Term(en, zh, tuple(policy.get("also", ())), tuple(policy.get("never", ()))))
    return tuple(found)


def has_form(text: str, form: str) -> bool:
    """A Chinese form is found with or without the spaces typesetting puts beside Latin
    letters ("KV 缓存", "KV缓存"); an English one as whole words."""
    if has_cjk(form):
        return form.replace(" ", "") in text.replace(" ", "")
    return bool(term_pattern(form, plural=True).search(text))


def entry_of(term: str) -> Term | None:
    """The house's entry for an English term, in any case."""
    return next((t for t in terms() if t.en.lower() == term.lower()), None)


def in_house_form(term: str, chinese: str) -> bool:
    """Whether Chinese text writes `term` in one of the house's forms ("GPU memory" as
    显存): a name the glossary gives a Chinese form needs no Latin letters."""
    entry = entry_of(term)
    return entry is not None and any(has_form(chinese, form) for form in entry.forms())


def terms_in(text: str) -> list[Term]:
    """The terms an English text uses (not inside a web address)."""
    text = URL.sub(" ", text)
    return [term for term in terms() if term_pattern(term.en, plural=True).search(text)]


def chinese_terms_in(text: str) -> list[Term]:
    """The terms a Chinese text writes in one of their Chinese forms."""
    return [t for t in terms() if any(has_cjk(f) and f in text for f in t.forms())]


def guide(text: str, target: str) -> str:
    """How the terms of `text` are written in the `target` language, for the translator:
    "throughput → 吞吐量" into Chinese, "吞吐量 → throughput" into English."""
    if target == "zh":
        pairs = [(t.en, t.zh) for t in terms_in(text)]
    else:
        pairs = [(next(f for f in t.forms() if f in text), t.en) for t in chinese_terms_in(text)]
    return "; ".join(f"{a} → {b}" for a, b in pairs)


def wrong_forms(chinese: str) -> list[str]:
    """Word-by-word translations the house never writes, with the form it writes."""
    return [
        f"{bad!r} is not how {term.en!r} is written: write {term.zh!r}"
        for term in terms()
        for bad in term.never
        if bad.replace(" ", "") in chinese.replace(" ", "")
    ]


def missing_forms(chinese: str, source: str) -> list[str]:
    """Terms of the English `source` that its Chinese translation writes in none of
    their forms."""
    used = terms_in(source)
    return [
        f"{term.en!r} is written {term.zh!r}"
        for term in used
        if not any(has_form(chinese, form) for form in term.forms())
        and not only_inside(term, [t for t in used if t is not term], source)
    ]


def only_inside(term: Term, others: list[Term], source: str) -> bool:
    """Every use of the term in `source` is part of a longer term's ("GPU" in "GPU
    memory", which Chinese writes 显存): it is written by writing that one."""
    spans = [m.span() for t in others for m in term_pattern(t.en, plural=True).finditer(source)]
    return all(
        any(a <= m.start() and m.end() <= b and (a, b) != m.span() for a, b in spans)
        for m in term_pattern(term.en, plural=True).finditer(source)
    )


# An English plural of letters in Chinese text ("服务 LLMs", "4 个 GPUs"): Chinese does not
# inflect, so the house writes the letters alone. Readers marked edit 18 of the 24 Chinese
# sentences with one (benchmarks/readings, 2026-12-06), most for the plural itself.
ACRONYM_PLURAL = re.compile(r"([A-Z][A-Z0-9]+)s")  # LLMs, GPUs, H100s
PLURAL_LETTERS = re.compile(rf"(?<![\w./-]){ACRONYM_PLURAL.pattern}(?![\w./-])", re.ASCII)


def with_house_forms(chinese: str) -> tuple[str, list[str]]:
    """The text with each word-by-word form replaced by the house form (令牌 -> token) and
    each English plural of capitals written singular (LLMs -> LLM), and the replacements
    made: a small model keeps writing 令牌 however often it is told."""
    if not has_cjk(chinese):
        return chinese, []
    addresses = [m.span() for m in URL.finditer(chinese)]  # a web address is as written
    plurals = [m for m in PLURAL_LETTERS.finditer(chinese) if not within(m.span(), addresses)]
    made = [f"{m.group()} -> {m.group(1)}" for m in plurals]
    for m in reversed(plurals):
        chinese = chinese[: m.start()] + m.group(1) + chinese[m.end() :]
    for term in sorted(terms(), key=lambda t: -max((len(b) for b in t.never), default=0)):
        for bad in sorted(term.never, key=len, reverse=True):
            if bad in chinese:
                chinese = chinese.replace(bad, term.zh)
                made.append(f"{bad} -> {term.zh}")
    return chinese, made


def chinese_only(term: Term) -> bool:
    """The house writes the term in Chinese and never in Latin letters (paging: 分页)."""
    return all(has_cjk(form) for form in term.forms())


def with_chinese_forms(chinese: str, names: list[str] = ()) -> tuple[str, list[str]]:
    """Chinese text with each English word left for a term the house writes only in
    Chinese put in its Chinese form ("KV cache paging" -> "KV cache 分页"), and the
    replacements made. A word inside a term kept in Latin letters ("request" in "pull
    request"), inside one of `names` (the talk's own: "Smart Prefetching") or inside a web
    address stays."""
    if not has_cjk(chinese):
        return chinese, []
    latin = [t.en for t in terms() if not chinese_only(t)] + list(names)
    kept = [m.span() for name in latin for m in term_pattern(name, plural=True).finditer(chinese)]
    kept += [m.span() for m in URL.finditer(chinese)]
    found = sorted(  # in text order, the longest first where two start together
        (
            (m.start(), m.end(), term)
            for term in terms()
            if chinese_only(term)
            for m in term_pattern(term.en, plural=True).finditer(chinese)
            if not within(m.span(), kept)
        ),
        key=lambda found: (found[0], -found[1]),
    )
    made, out, done = [], [], 0
    for start, end, term in found:
        if start < done:  # inside a longer term replaced already
            continue
        out += [chinese[done:start], term.zh]
        made.append(f"{chinese[start:end]} -> {term.zh}")
        done = end
    text = "".join(out) + chinese[done:]
    for form in {term.zh for _, _, term in found}:  # no space between Chinese characters
        text = re.sub(rf"(?<=[{CJK_CHARS}，。、；：])\s+(?={re.escape(form)})", "", text)
        text = re.sub(rf"(?<={re.escape(form)})\s+(?=[{CJK_CHARS}，。、；：])", "", text)
    return text, made


def violations(chinese: str, source: str | None = None) -> list[str]:
    """Where Chinese text breaks the terminology: a form it never uses, or (translated
    from English `source`) a term of the source not written in one of its forms."""
    return wrong_forms(chinese) + (missing_forms(chinese, source) if source else [])
