"""The Markdown pages of the site: index cards, articles with their slides, review cards,
questions and answers, proofreading pages and the about page. Text from talks and models
goes through the house typesetting, which escapes markup; the HTML here is the site's
own."""

import posixpath
import re

from pipeline.article import render_citation
from pipeline.article.typeset import typeset_plain, typeset_text
from pipeline.core.links import markdown_link, quoted_path
from pipeline.core.text import has_cjk, term_pattern
from pipeline.library import Holdings
from pipeline.library.glossary import forms_of
from pipeline.library.talks import PublishedTalk
from pipeline.library.topics import Shelves
from pipeline.review.card import LABELS, UNRESOLVED, place_of
from pipeline.schema import EvidenceUnit, Place
from pipeline.schema.library import GlossaryTerm, Hub

PROMISE = {
    "zh": "把每一场技术演讲变成可检索的系统知识：从视频和幻灯片出发，沿模型架构、显存管理、"
    "调度与算子优化的因果链，为 AI 系统工程师写成中英双语的深度文章。",
    "en": "Every technical talk turned into searchable systems knowledge: from the video and "
    "the slides, along the causal chain of model architecture, memory management, scheduling "
    "and kernel optimisation, bilingual deep articles for AI systems engineers.",
}
LATEST = 12  # cards of the index page: a screen or two of the newest; the rest are listed
HEADINGS = {
    "zh": {"latest": "最新文章", "all": "全部文章",
           "card": "审稿卡", "speaker": "讲者", "date": "日期",
           "video": "视频", "deck": "幻灯片", "proof": "中英对照校对", "none": "还没有文章。",
           "topics": "主题", "path": "阅读路径", "hubs": "活动", "glossary": "术语表",
           "terms": "：多篇文章共用的 {n} 个术语", "qa": "问答",
           "shelf": "- [{name}]({link})（{n} 篇）：{scope}",
           "qa_title": "问答：{title}",
           "qa_intro": "用问答说清《{title}》的要点，想先知道结论的读者可以从这里读起。"
           "每个回答只根据文章引用的证据写成，链接指向视频的时间或幻灯片。"},
    "en": {"latest": "Latest articles", "all": "All articles",
           "card": "Review card", "speaker": "Speaker",
           "date": "Date", "video": "Video", "deck": "Slides", "proof": "zh/en proofreading",
           "none": "No articles yet.", "topics": "Topics", "path": "Reading path",
           "hubs": "Meetups", "glossary": "Glossary", "terms": ": {n} terms several articles share",
           "shelf": "- [{name}]({link}) ({n}): {scope}", "qa": "Q&A",
           "qa_title": "Q&A: {title}",
           "qa_intro": "The points of “{title}” in questions and answers, for readers who want "
           "the point before the depth. Each answer is written only from the evidence the "
           "article cites, with links to the video time or the slide."},
}  # fmt: skip


def page_path(kind: str, slug: str, lang: str) -> str:
    """Where a page of a talk lives under docs/ (the English one with the .en suffix)."""
    return f"{kind}/{slug}{'.en' if lang == 'en' else ''}.md"


def list_path(kind: str, lang: str) -> str:
    """Where the list of every talk's page of a kind lives under docs/."""
    return f"{kind}{'.en' if lang == 'en' else ''}.md"


def relative(target: str, page: str) -> str:
    """A link target from one docs/ path to another, quoted (a talk folder's name may hold
    any character)."""
    return quoted_path(posixpath.relpath(target, posixpath.dirname(page)))


def card_lines(talk: PublishedTalk, lang: str, page: str, note: str | None = None) -> list[str]:
    """A card of the index: tags, title (a link), one-sentence summary (on a reading path,
    the article's path note instead)."""
    text = talk.draft.text(lang)
    tags = " · ".join(typeset_plain(t, "en") for t in talk.draft.tags)
    link = relative(page_path("articles", talk.slug, "zh"), page)
    lines = [f"-   {typeset_text(tags, 'en')}" if tags else "-   &nbsp;", "", "    ---", ""]
    lines += [f"    [{typeset_text(text.title, lang)}]({link})", ""]
    if note or text.summary:
        lines += [f"    {note or typeset_text(text.summary, lang)}", ""]
    if talk.questions:
        qa = relative(page_path("qa", talk.slug, "zh"), page)
        lines += [f"    [{HEADINGS[lang]['qa']}]({qa})", ""]
    return lines


def cards(
    talks: list[PublishedTalk], lang: str, page: str, notes: dict[str, str] | None = None
) -> list[str]:
    """Cards of articles; `notes` (slug -> Markdown) replace their summaries."""
    lines = ['<div class="grid cards" markdown>', ""]
    for talk in talks:
        lines += card_lines(talk, lang, page, (notes or {}).get(talk.slug))
    return [*lines, "</div>", ""]


def topic_lines(shelves: Shelves, lang: str) -> list[str]:
    """The topics that have articles, each a link, its count and its one-line scope."""
    words = HEADINGS[lang]
    lines = [f"## {words['topics']}", ""]
    for topic, talks in shelves:
        name, scope = (typeset_text(t, lang) for t in (topic.name(lang), topic.scope(lang)))
        link = page_path("topics", topic.id, "zh")
        lines.append(words["shelf"].format(name=name, link=link, n=len(talks), scope=scope))
    return [*lines, ""]


def hub_lines(hubs: list[Hub], lang: str) -> list[str]:
    """The meetups, each a link with its date and number of talks."""
    lines = [f"## {HEADINGS[lang]['hubs']}", ""]
    for hub in hubs:
        when = f" · {hub.date.isoformat()}" if hub.date else ""
        count = f"（{len(hub.talks)} 场）" if lang == "zh" else f" ({len(hub.talks)} talks)"
        name = typeset_text(hub.name, lang)
        lines.append(f"- [{name}]({page_path('hubs', hub.id, 'zh')}){when}{count}")
    return [*lines, ""]


def index_page(h: Holdings, lang: str) -> str:
    """The promise, the topics, the meetups, the glossary and the latest articles."""
    words = HEADINGS[lang]
    lines = ["# talk2article", "", PROMISE[lang], ""]
    if h.shelves:
        lines += topic_lines(h.shelves, lang)
    if h.library.hubs:
        lines += hub_lines(h.library.hubs, lang)
    if glossary := h.library.glossary:
        link = page_path("glossary", "index", "zh")
        lines += [f"[{words['glossary']}]({link}){words['terms'].format(n=len(glossary))}", ""]
    lines += [f"## {words['latest']}", ""]
    if not h.talks:
        return "\n".join([*lines, words["none"], ""])
    every = f"[{words['all']} →]({list_path('articles', 'zh')})"
    return "\n".join(lines + cards(h.talks[:LATEST], lang, "index.md") + [every, ""])


def review_card(talk: PublishedTalk, lang: str, page: str) -> list[str]:
    """The card in the page's language (a review made before cards were bilingual has only
    the Chinese one)."""
    card = talk.review.card
    kind = {"推荐收录": "success", "需修改": "warning"}.get(card.verdict, "danger")
    said, card_lang = (card.en, "en") if lang == "en" and card.en else (card, "zh")
    heading = f"{HEADINGS[lang]['card']} · {said.verdict}"
    body = [typeset_text(said.summary, card_lang), "", typeset_text(said.assessment, card_lang)]
    if links := finding_links(talk, lang, page):
        body += ["", links]
    return [f'!!! {kind} "{heading}"', "", *(f"    {line}" if line else "" for line in body), ""]


MAX_LINKS = 8


def anchor_of(place: Place) -> str | None:
    """The proofreading page's anchor of a place: p-3-4 for chapter 3's paragraph 4, c-3
    for its heading; none elsewhere."""
    if place.chapter is None:
        return None
    return f"p-{place.chapter}-{place.paragraph}" if place.paragraph else f"c-{place.chapter}"


def finding_links(talk: PublishedTalk, lang: str, page: str) -> str | None:
    """Where the failed checks and the texts kept with findings are, each a link to its
    paragraph on the proofreading page."""
    review = talk.review
    places = [f.place for c in review.checks if not c.passed for f in c.findings]
    places += [r.place for r in review.revisions if r.action in UNRESOLVED]
    proof = relative(page_path("proof", talk.slug, "zh"), page)
    links = [
        f"[{place_of(place, lang)}]({proof}#{anchor})"
        for place in places
        if (anchor := anchor_of(place))
    ]
    links = list(dict.fromkeys(links))[:MAX_LINKS]
    if not links:
        return None
    return ("问题所在：" + "、".join(links)) if lang == "zh" else ("Where: " + "; ".join(links))


# A person's review, as the page says it: (heading, sentence) per state, zh and en.
DECISION_WORDS = {
    "zh": {
        "approved": ("人工审阅 · 已批准", "{reviewer} 于 {date} 审阅并批准发布。"),
        "held": ("人工审阅 · 暂缓", "{reviewer} 于 {date} 决定暂缓发布。"),
        "stale": (
            "人工审阅 · 待重新审阅",
            "{reviewer} 于 {date} 的决定针对的是改动前的文章，本文尚待重新审阅。",
        ),
        "awaiting": ("人工审阅 · 待审阅", "本文尚未经人工审阅；自动审稿结论为「{verdict}」。"),
    },
    "en": {
        "approved": ("Human review · Approved", "Reviewed and approved by {reviewer} on {date}."),
        "held": ("Human review · Held", "Held back by {reviewer} on {date}."),
        "stale": (
            "Human review · To review again",
            "{reviewer}'s decision of {date} was made on an earlier text; this one awaits "
            "a review.",
        ),
        "awaiting": (
            "Human review · Awaiting review",
            "No person has reviewed this article yet; the automatic verdict is {verdict}.",
        ),
    },
}

# The sentences reviewers corrected (pipeline.edits), said in the review box.
EDITED = {"zh": "人工校对 {n} 处。", "en": " Reviewers corrected {n} of its sentences."}


def decision_lines(talk: PublishedTalk, lang: str) -> list[str]:
    """Whether a person has reviewed the article, and their decision (their note is for
    the team: `talk2article review` shows it, the page does not)."""
    standing = talk.standing
    decision = standing.decision
    state = "stale" if decision and standing.stale else standing.state
    verdict = standing.verdict if lang == "zh" else LABELS[standing.verdict]
    heading, sentence = DECISION_WORDS[lang][state]
    said = sentence.format(
        reviewer=decision.reviewer if decision else "",
        date=decision.at.date().isoformat() if decision else "",
        verdict=verdict,
    )
    if talk.edited:
        said += EDITED[lang].format(n=talk.edited)
    kind = "success" if state == "approved" else "info"
    return [f'!!! {kind} "{heading}"', "", f"    {typeset_text(said, lang)}", ""]


def facts_line(talk: PublishedTalk, lang: str, page: str) -> list[str]:
    words, meta = HEADINGS[lang], talk.talk.meta
    colon = "：" if lang == "zh" else ": "
    facts = []
    if meta.speaker:
        facts.append(f"{words['speaker']}{colon}{typeset_text(meta.speaker, lang)}")
    if meta.date:
        facts.append(f"{words['date']}{colon}{meta.date.isoformat()}")
    if meta.video_url:
        facts.append(markdown_link(words["video"], meta.video_url))
    if decks := [p.name for p in talk.talk.decks]:
        facts.append(f"{words['deck']}{colon}{typeset_text(', '.join(decks), 'en')}")
    if talk.questions:
        facts.append(f"[{words['qa']}]({relative(page_path('qa', talk.slug, 'zh'), page)})")
    proof = relative(page_path("proof", talk.slug, "zh"), page)
    facts.append(f"[{words['proof']}]({proof})")
    return [" · ".join(facts), ""]


def citation(unit: EvidenceUnit, talk: PublishedTalk, page: str) -> str:
    """[mm:ss] to the video second; slide N to the slide's picture."""
    if unit.kind != "transcript" and (picture := talk.picture(unit.slide)):
        suffix = " notes" if unit.kind == "notes" else ""
        return f"[slide {unit.slide}{suffix}]({relative(picture, page)})"
    return render_citation(unit, talk.talk.meta.video_url)


def paragraph_lines(
    text: str,
    citations: list[str],
    talk: PublishedTalk,
    lang: str,
    page: str,
    shown: set[int],
    links: tuple[dict[str, str], set[str]] | None = None,
) -> list[str]:
    """A paragraph, after the picture of the first slide it cites that is not shown yet;
    `links` are the glossary terms' pages and the terms the article has linked so far."""
    units = [talk.units[c] for c in citations if c in talk.units]
    lines = []
    for slide in dict.fromkeys(u.slide for u in units if u.slide is not None):
        if slide not in shown and (picture := talk.picture(slide)):
            shown.add(slide)
            image = relative(picture, page)
            lines += [f'![slide {slide}]({image}){{ align=right width="320" loading=lazy }}', ""]
            break
    return [*lines, cited(text, units, talk, lang, page, links), ""]


def cited(
    text: str,
    units: list[EvidenceUnit],
    talk: PublishedTalk,
    lang: str,
    page: str,
    links: tuple[dict[str, str], set[str]] | None = None,
) -> str:
    """Typeset text, its first mentions of glossary terms linked, followed by its
    citations."""
    refs = [citation(u, talk, page) for u in units]
    body = with_term_links(typeset_text(text, lang), *(links or ({}, set())))
    if refs:
        body += f"（{'、'.join(refs)}）" if lang == "zh" else f" ({', '.join(refs)})"
    return body


def article_page(
    talk: PublishedTalk,
    lang: str,
    glossary: list[GlossaryTerm] = (),
    path_note: str | None = None,
) -> str:
    """The article: title, summary, facts, reviews, its reading-path note, its chapters;
    its first mention of each glossary term it uses links to the term's page."""
    page = page_path("articles", talk.slug, lang)
    text = talk.draft.text(lang)
    lines = [f"# {typeset_text(text.title, lang)}", ""]
    if text.summary:
        lines += [f"*{typeset_text(text.summary, lang)}*", ""]
    lines += facts_line(talk, lang, page) + decision_lines(talk, lang)
    lines += review_card(talk, lang, page)
    if path_note:
        lines += [f'!!! abstract "{HEADINGS[lang]["path"]}"', "", f"    {path_note}", ""]
    shown: set[int] = set()
    links = {
        g.term: relative(page_path("glossary", g.id, "zh"), page)
        for g in glossary
        if talk.slug in g.used_by
    }
    linked: set[str] = set()
    for section in text.sections:
        if section.title:  # the lead stands without a heading
            lines += [f"## {typeset_text(section.title, lang)}", ""]
        for p in section.paragraphs:
            lines += paragraph_lines(p.text, p.citations, talk, lang, page, shown, (links, linked))
    return "\n".join(lines)


def qa_page(talk: PublishedTalk, lang: str) -> str:
    """The article's companion: each question a heading, its answer (composed from the
    edited ledger) cited like a paragraph."""
    page, words = page_path("qa", talk.slug, lang), HEADINGS[lang]
    title = typeset_text(talk.draft.text(lang).title, lang)
    article = relative(page_path("articles", talk.slug, "zh"), page)
    lines = [f"# {words['qa_title'].format(title=title)}", "", f"[← {title}]({article})", ""]
    lines += [words["qa_intro"].format(title=title), ""]
    for question, answer in talk.questions.answered(talk.ledger, lang) if talk.questions else []:
        units = [talk.units[c] for c in answer.citations if c in talk.units]
        lines += [f"## {typeset_text(question, lang)}", ""]
        lines += [cited(answer.text, units, talk, lang, page), ""]
    return "\n".join(lines)


# Code spans and links already in typeset text: a term inside them is not linked again.
NOT_LINKABLE = re.compile(r"`[^`]*`|\[[^\]]*\]\([^)]*\)")


def form_pattern(form: str) -> re.Pattern:
    """A form as typeset text has it: Chinese with or without spaces beside Latin letters,
    Latin as whole words."""
    if has_cjk(form):
        return re.compile(r"\s?".join(re.escape(c) for c in form.replace(" ", "")))
    return term_pattern(form, plural=True)


def with_term_links(body: str, links: dict[str, str], linked: set[str]) -> str:
    """Typeset text whose first mention of each glossary term not yet `linked` in the
    article links to the term's page (term -> relative link)."""
    for term, link in links.items():
        if term in linked:
            continue
        blocked = [m.span() for m in NOT_LINKABLE.finditer(body)]
        for form in forms_of(term):
            found = next(
                (
                    m
                    for m in form_pattern(form).finditer(body)
                    if not any(a < m.end() and m.start() < b for a, b in blocked)
                ),
                None,
            )
            if found:
                body = f"{body[: found.start()]}[{found.group()}]({link}){body[found.end() :]}"
                linked.add(term)
                break
    return body
