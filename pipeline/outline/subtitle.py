"""The title's subtitle, composed in code from the terms the talk's mechanism chapters
explain (the house style: "main claim: subtitle")."""

import re

from pipeline.core.text import has_cjk, term_pattern
from pipeline.schema import Chapter, Evidence, Notes, TalkMeta

SUBTITLE_TERMS = 3
SUBTITLE_MIN_MENTIONS = 2  # a term the facts only name in passing is no subtitle
TITLE_SEPARATORS = re.compile(r"[:：]")
# A slide's numbering glued to a word ("Technique2", "Prompt1"): a label, not a name.
NUMBERED_WORD = re.compile(r"[A-Z]?[a-z]+\d+")


def explained_terms(
    chapters: list[Chapter], notes: Notes, evidence: Evidence
) -> tuple[list[list[str]], list[str]]:
    """The talk's terms its mechanism chapters (every chapter when none is one) are about:
    per chapter, those its heading and slide titles name, in their order; and those the
    chapters' facts mention most."""
    mechanism = [c for c in chapters if c.role == "mechanism"] or chapters
    by_id = {s.id: s for s in notes.sections}
    terms = [g.term for g in evidence.glossary]
    headed, facts = [], []
    for chapter in mechanism:
        sections = [by_id[i] for i in chapter.sections if i in by_id]
        heading = "\n".join([chapter.title] + [s.title or "" for s in sections])
        found = {t: m.start() for t in terms if (m := term_pattern(t, plural=True).search(heading))}
        headed.append(sorted(found, key=found.get))
        facts += [f.text for s in sections for f in s.facts]
    said = "\n".join(facts)
    counts = {t: len(term_pattern(t, plural=True).findall(said)) for t in terms}
    mentioned = [t for t in terms if counts[t] >= SUBTITLE_MIN_MENTIONS]
    return headed, sorted(mentioned, key=lambda t: -counts[t])


def subtitle_terms(
    title: str, chapters: list[Chapter], notes: Notes, evidence: Evidence, meta: TalkMeta
) -> list[str]:
    """Two or three terms the mechanism chapters explain (one a chapter first), never one
    the title already names, a part of another, or the speaker's name; none when fewer
    than two fit (one term is no summary of a talk: "…: DeepSeek")."""
    named = title.lower() + " " + (meta.speaker or "").lower()
    chosen: list[str] = []

    def fits(term: str) -> bool:
        return (
            not NUMBERED_WORD.fullmatch(term)
            and not term_pattern(term, plural=True).search(named)
            and not any(
                term_pattern(term).search(c) or term_pattern(c).search(term) for c in chosen
            )
        )

    headed, mentioned = explained_terms(chapters, notes, evidence)
    for candidates in headed:  # the first term of each chapter, then the most mentioned
        chosen += next(([t] for t in candidates if fits(t)), [])
    for term in mentioned:
        chosen += [term] if fits(term) else []
    chosen = chosen[:SUBTITLE_TERMS]
    return chosen if len(chosen) >= 2 else []


def listed(terms: list[str], chinese: bool) -> str:
    if chinese:
        return f"{'、'.join(terms[:-1])} 与 {terms[-1]}"
    return f"{', '.join(terms[:-1])} and {terms[-1]}"


def with_subtitle(title: str, terms: list[str]) -> str:
    """The title, then the terms its mechanism chapters explain, in the house style
    ("main claim: subtitle"): "Serving LLMs without wasting GPU memory: PagedAttention,
    prefix caching and continuous batching"; a title with a subtitle stays as it is."""
    if TITLE_SEPARATORS.search(title) or not terms:
        return title
    if has_cjk(title):
        return f"{title}：{listed(terms, chinese=True)}"
    return f"{title}: {listed(terms, chinese=False)}"
