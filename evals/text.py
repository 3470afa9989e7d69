"""Text measures only the benchmark uses (evals/metrics.py): the text a paragraph cites,
slide text strung into prose, and names kept in Latin letters in Chinese."""

import re

from pipeline.core.grounding import CJK_RUN, copied_share, name_parts
from pipeline.core.terminology import ACRONYM_PLURAL
from pipeline.core.text import has_cjk
from pipeline.schema import EvidenceUnit

PLURAL_MIN_CHARS = 4  # "Logits" / "logit"; shorter words change meaning with an s
# A sentence over DUMP_MIN_WORDS words (DUMP_MIN_CJK Chinese characters) with this share
# copied from one slide is the slide's text dumped into prose.
DUMP_SHARE = 0.8
DUMP_MIN_WORDS = 20
DUMP_MIN_CJK = 40


def cited_text(ids: list[str], units: dict[str, EvidenceUnit]) -> str:
    """The text of the cited units, each once and on lines of its own, in citation order;
    unknown ids are skipped."""
    return "\n".join(units[i].text for i in dict.fromkeys(ids) if i in units)


def keeps_name(text: str, term: str) -> bool:
    """Whether Chinese text keeps a term's names in Latin letters as spelled: "KV 缓存"
    keeps "KV cache"'s name, "GPU 内存" that of "GPU memory"; "分页注意力" loses
    "PagedAttention"; Chinese has no plural, so "LLM" keeps "LLMs"."""

    def written(word: str) -> bool:
        return bool(re.search(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", text))

    return all(
        written(w)
        or (ACRONYM_PLURAL.fullmatch(w) and has_cjk(text) and written(w[:-1]))
        or any(written(form) for form in typographic_forms(w))
        for w in name_parts(term)
    )


def typographic_forms(word: str) -> list[str]:
    """A word whose only capital is its first ("Logits" of a slide's "Logits Mask") is
    capitalised by the slide's typography: lower case is the same word, and so is its
    singular or plural ("logit mask"). Names spelled otherwise (SGLang, A100) are exact."""
    if not (word[:1].isupper() and word[1:].islower() and word.isalpha()):
        return []
    lower = word.lower()
    if len(lower) < PLURAL_MIN_CHARS:
        return [lower]
    other = lower[:-1] if lower.endswith("s") else lower + "s"
    return [lower, other, other.capitalize()]


def kept_terms(terms: list[str]) -> list[str]:
    """Terms that stay in Latin letters in Chinese text: names and identifiers (KV cache,
    PagedAttention, vLLM, A100, xgrammar), as the house style writes them: terms with a
    word of technical spelling, or a word that is no English word at all. Their names are
    kept; the ordinary words around them may be translated ("KV 缓存"). Ordinary-word terms
    ("prefix caching", "batching", "pushdown automaton") are translated like any other
    words."""
    return [t for t in terms if name_parts(t)]


def is_dump(sentence: str, slide: str, lang: str) -> bool:
    """A long sentence that is mostly the slide's text word for word: bullets strung into
    prose, not written."""
    if lang == "zh":
        long = sum(map(len, CJK_RUN.findall(sentence))) >= DUMP_MIN_CJK
    else:
        long = len(sentence.split()) > DUMP_MIN_WORDS
    return long and copied_share(sentence, slide, lang) >= DUMP_SHARE
