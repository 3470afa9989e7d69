"""The article stage (article.zh.md, article.en.md): typeset Markdown with front matter;
citations rendered as [mm:ss] and slide N."""

from urllib.parse import urlencode, urlparse, urlsplit, urlunsplit

import yaml

from pipeline.article.typeset import typeset_plain, typeset_text
from pipeline.core.links import markdown_link
from pipeline.core.text import clock
from pipeline.schema import Article, Draft, DraftText, Evidence, EvidenceUnit, Review, Talk

YOUTUBE_HOSTS = ("youtube.com", "www.youtube.com", "m.youtube.com", "youtu.be")


def video_link(url: str, seconds: float) -> str:
    """A link to the moment: YouTube takes a `t` query parameter, other players `#t=`."""
    second = int(seconds)
    if urlparse(url).hostname in YOUTUBE_HOSTS:
        parts = urlsplit(url)
        query = f"{parts.query}&{urlencode({'t': second})}" if parts.query else f"t={second}"
        return urlunsplit(parts._replace(query=query))
    return f"{url.split('#')[0]}#t={second}"


def render_citation(unit: EvidenceUnit, video_url: str | None) -> str:
    if unit.kind == "transcript":
        stamp = f"[{clock(unit.start or 0.0)}]"
        return (
            markdown_link(stamp, video_link(video_url, unit.start or 0.0)) if video_url else stamp
        )
    suffix = " notes" if unit.kind == "notes" else ""
    return f"slide {unit.slide}{suffix}"


def render_paragraph(
    text: str,
    citations: list[str],
    evidence: dict[str, EvidenceUnit],
    lang: str,
    video_url: str | None,
) -> str:
    text = typeset_text(text, lang)
    refs = [render_citation(evidence[c], video_url) for c in citations if c in evidence]
    if not refs:
        return text
    return f"{text}（{'、'.join(refs)}）" if lang == "zh" else f"{text} ({', '.join(refs)})"


def front_matter(draft: DraftText, tags: list[str], talk: Talk, review: Review, key: str) -> str:
    meta, lang = talk.meta, draft.lang
    data = {
        "title": typeset_plain(draft.title, lang),
        "summary": typeset_plain(draft.summary, lang) or None,
        "lang": lang,
        "talk": talk.slug,
        "speaker": typeset_plain(meta.speaker, lang) if meta.speaker else None,
        "date": meta.date.isoformat() if meta.date else None,
        "tags": tags or None,
        "video": meta.video_url,
        "deck": [p.name for p in talk.decks] or None,
        "verdict": review.card.verdict,
        "review": review.verdict,
        "generated_from": key[:16],
    }
    data = {k: v for k, v in data.items() if v is not None}
    return "---\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False) + "---\n"


def typeset_one(
    draft: DraftText, tags: list[str], evidence: Evidence, talk: Talk, review: Review, key: str
) -> Article:
    """One article as Markdown with YAML front matter, typeset in the house style."""
    units, lang = evidence.by_id(), draft.lang
    blocks = [f"# {typeset_text(draft.title, lang)}"]
    for section in draft.sections:
        if section.title:  # the lead stands without a heading
            blocks.append(f"## {typeset_text(section.title, lang)}")
        blocks += [
            render_paragraph(p.text, p.citations, units, lang, talk.meta.video_url)
            for p in section.paragraphs
        ]
    body = "\n\n".join(blocks) + "\n"
    markdown = front_matter(draft, tags, talk, review, key) + "\n" + body
    return Article(lang=lang, markdown=markdown)


def typeset(draft: Draft, evidence: Evidence, talk: Talk, review: Review) -> list[Article]:
    """The Chinese and the English article; `generated_from` names the draft they come from."""
    key = draft.provenance.key if draft.provenance else ""
    return [typeset_one(text, draft.tags, evidence, talk, review, key) for text in draft.texts()]
