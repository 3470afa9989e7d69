"""The glossary across talks: a page for every deck term that two published articles or
more use, with the sentence of an article that explains it (a verified ledger sentence,
cited, in both languages) and the articles that use it.

A term is a deck term of a talk when its evidence glossary has it (the talk's vocabulary:
deck and talk.yaml terms). An article explains a term where one of its sentences defines
it: the term as the subject of a defining verb ("PagedAttention splits the KV cache into
blocks", "前缀缓存是……"), or named ("a scheduler called continuous batching"). Found in
code, never written by a model, so every sentence shown is the article's own, and a term
no article explains gets no page: better no entry than an invented one.
"""

import functools
import re
import unicodedata

from pipeline.core import terminology
from pipeline.core.text import has_cjk, term_pattern
from pipeline.library.talks import PublishedTalk
from pipeline.schema.library import Explanation, GlossaryTerm

MIN_USERS = 2  # a term one article uses is that article's business, not the library's
# A verb that says what the term is or does, right after it (an aside in brackets or an
# apposition may come between): "X is", "X stores", "X, a cache of keys, consumes", "X 是".
# Not a passive with its agent: "X is produced by Y" says what Y does.
EN_DEFINING = re.compile(
    r"^\s*(?:\([^)]*\)\s*)?(?:,\s*(?:a|an|the)\s[^,.]{1,80},)?,?\s*(?:which\s+|that\s+)?"
    r"(?:(?:is|are)(?!\s+(?:used(?!\s+to\b)|also|not|shown|supported|integrated|available|"
    r"released|built|being|designed|enabled|[a-z]+(?:ed|en)\s+by)\b)|means|refers to|"
    r"stands for|consumes|requires|"
    r"needs|reduces|fixes|solves|employs|uses|applies|converts|transforms|combines|predicts|"
    r"stores|keeps|holds|splits|lets|allows|makes|turns|reuses|shares|schedules|batches|"
    r"caches|avoids|removes|moves|manages|allocates|works|computes|runs|packs|compiles|"
    r"generates|constrains|routes|sends|replaces|hands out|breaks|fills|joins|overlaps|"
    r"prepares|returns|serves|decides|matches|tracks|evicts|reads|writes|loads|involves|"
    r"identifies|provides|enables|represents|describes|maps|divides|detects|selects|assigns|"
    r"reserves|builds|limits|restricts|masks|guarantees|ensures|compresses|skips)\b",
    re.IGNORECASE,
)
EN_NAMING = re.compile(r"\b(?:called|named|known as)\s+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)
ZH_DEFINING = re.compile(
    r"^\s*(?:（[^）]*）|\([^)]*\))?\s*[，,]?\s*(?:是|指|即|就是|意味着|负责|用于|用来|把|将|"
    r"存储|保存|缓存|复用|共享|调度|分配|管理|避免|解决|编译|生成)"
)
ZH_NAMING = re.compile(r"(?:称为|叫做|叫作|名为|即)\s*$")
# What may come before a term that is its sentence's subject: a determiner at most ("The
# KV cache holds…"), never another word ("MLC LLM is…" does not explain "LLM").
EN_SUBJECT = re.compile(r"^(?:the|a|an|this|that|our|its|their|each|every)?$", re.I)
ZH_SUBJECT = re.compile(r"^(?:所谓|而|其中|这里的|这种)?$")


def term_id(term: str) -> str:
    """The term's page name: lower-case ASCII words joined by hyphens (a Chinese term by its
    code points, which stay stable)."""
    ascii_ = unicodedata.normalize("NFKD", term).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_.lower())
    return "-".join(words) if words else "-".join(f"u{ord(c):x}" for c in term if c.strip())


def forms_of(term: str) -> tuple[str, ...]:
    """The term and the Chinese forms the house gives it ("prefix caching", 前缀缓存)."""
    entry = terminology.entry_of(term)
    return (term, *(entry.forms() if entry else ()))


def term_key(term: str) -> str:
    """The term with the plural ending of each word taken off, lower-case: "Logits Mask"
    and "logit mask" are one term of the glossary, though decks spell them apart."""
    words = re.split(r"[-\s]+", term.strip().lower())
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and w[-2] != "s" else w for w in words)


@functools.cache
def latin_pattern(form: str) -> re.Pattern:
    """A Latin form as whole words in any case, spacing and number of each of its words
    (built once: the glossary, paths and hubs ask of every sentence for every term)."""
    words = [term_pattern(w, plural=True).pattern for w in term_key(form).split()]
    return re.compile(r"[-\s]?".join(words), re.IGNORECASE)


def matches(sentence: str, form: str) -> list[re.Match]:
    """Where the sentence has the form: a Chinese one as written, a Latin one by
    latin_pattern()."""
    if has_cjk(form):
        return list(re.finditer(re.escape(form), sentence))
    return list(latin_pattern(form).finditer(sentence))


def defines(sentence: str, form: str) -> bool:
    """Whether the sentence says what `form` is or does: it is the subject of a defining
    verb (only a determiner before it), or the sentence names it."""
    chinese = has_cjk(sentence)
    defining, naming = (ZH_DEFINING, ZH_NAMING) if chinese else (EN_DEFINING, EN_NAMING)
    subject = ZH_SUBJECT if chinese else EN_SUBJECT
    for match in matches(sentence, form):
        before, after = sentence[: match.start()], sentence[match.end() :]
        if naming.search(before):
            return True
        if subject.match(before.strip()) and defining.match(after):
            return True
    return False


def uses(en: str, zh: str, term: str) -> bool:
    """Whether either article of a talk (its English and Chinese text) mentions the term in
    one of its forms."""
    return bool(matches(en, term)) or any(terminology.has_form(zh, f) for f in forms_of(term))


def explanation(talk: PublishedTalk, term: str) -> Explanation | None:
    """The article's first fact sentence, verified in both languages, that defines the term
    in the language written first, with its translation (the ledger's same sentence) and
    the evidence it cites."""
    ledger = talk.ledger
    sentences = ledger.by_id()
    for sentence_id in ledger.places(ledger.language):
        sentence = sentences[sentence_id]
        zh, en = sentence.zh, sentence.en
        if sentence.kind != "fact" or not (zh and en and zh.verified and en.verified):
            continue
        first = sentence.text(ledger.language)
        if any(defines(first.text, form) for form in forms_of(term)):
            return Explanation(slug=talk.slug, zh=zh.text, en=en.text, citations=sentence.units)
    return None


def candidate_terms(talks: list[PublishedTalk]) -> list[str]:
    """Every deck term of the published talks, once (first spelling wins), but the names
    of their speakers."""
    speakers = {t.talk.meta.speaker.lower() for t in talks if t.talk.meta.speaker}
    found: dict[str, str] = {}
    for talk in talks:
        for entry in talk.evidence.glossary:
            key = term_key(entry.term)
            if key and entry.term.strip().lower() not in speakers and not key.isdigit():
                found.setdefault(key, entry.term.strip())
    return list(found.values())


class Articles:
    """The published talks by slug, with what each explains and uses, looked up once (the
    glossary, the paths, the hubs and their checks ask the same questions)."""

    def __init__(self, talks: list[PublishedTalk]) -> None:
        self.talks = talks
        self.by_slug = {t.slug: t for t in talks}
        self._explanations: dict[tuple[str, str], Explanation | None] = {}
        self._uses: dict[tuple[str, str], bool] = {}
        self._texts = {
            t.slug: tuple("\n".join(t.draft.text(lang).lines()) for lang in ("en", "zh"))
            for t in talks
        }

    def explanation(self, slug: str, term: str) -> Explanation | None:
        if (slug, term) not in self._explanations:
            talk = self.by_slug.get(slug)
            self._explanations[slug, term] = explanation(talk, term) if talk else None
        return self._explanations[slug, term]

    def explains(self, slug: str, term: str) -> bool:
        return self.explanation(slug, term) is not None

    def uses(self, slug: str, term: str) -> bool:
        if (slug, term) not in self._uses:
            self._uses[slug, term] = slug in self._texts and uses(*self._texts[slug], term)
        return self._uses[slug, term]

    def missing(self, slug: str | None) -> list[str]:
        """Why `slug` cannot be named: no published article has it."""
        if slug and slug not in self.by_slug:
            return [f"names {slug!r}, which is no published article"]
        return []


def glossary_of(articles: Articles) -> list[GlossaryTerm]:
    """The terms at least MIN_USERS articles use and one of them explains, alphabetically;
    the explanation comes from the earliest talk (by date) that gives one, and its article
    leads the list of users."""
    oldest_first = sorted(articles.talks, key=lambda t: (t.newest_first()[0], t.slug))
    entries = {}
    for term in candidate_terms(articles.talks):
        users = [t.slug for t in oldest_first if articles.uses(t.slug, term)]
        if len(users) < MIN_USERS:
            continue
        found = next((e for slug in users if (e := articles.explanation(slug, term))), None)
        if found is None or (id_ := term_id(term)) in entries:
            continue
        order = [found.slug, *(slug for slug in users if slug != found.slug)]
        entries[id_] = GlossaryTerm(term=term, id=id_, explained=found, used_by=order)
    return sorted(entries.values(), key=lambda g: g.term.lower())
