"""The pages of the library layer (pipeline.library): a topic's reading path (its cards in
reading order, each with its path note), the glossary across talks, meetup hubs, and the
links from an article's first mention of a glossary term. Every sentence here is rendered
from a relation the library checked; titles, dates and names are the talks' own."""

from pipeline.article.typeset import typeset_text
from pipeline.core import terminology
from pipeline.core.text import has_cjk, markdown_text
from pipeline.library import Holdings
from pipeline.library.talks import PublishedTalk
from pipeline.library.topics import Topic
from pipeline.schema.library import Contrast, GlossaryTerm, Hub, PathNote, ReadingPath, Thread
from pipeline.site.pages import HEADINGS, cards, cited, list_path, page_path, relative

WORDS = {
    "zh": {
        "place": {"intro": "入门篇", "advanced": "进阶篇", "closing": "收官篇"},
        "where": "本文是『{path}』路径中的{place}（第 {k} 篇，共 {n} 篇）。",
        "before": "应先读{articles}，再读本文。",
        "explains": "{title}（{what}）",
        "what": "讲解了{terms}",
        "alone": "本路径前面的文章讲解的术语，它要么没有用到，要么自己也有讲解，可以直接读。",
        "after": "读完可接着读{title}。",
        "beside": "可与{title}对照着读：{what}。",
        "both": "两文都讲解了{terms}",
        "own": "；本文还讲解了{terms}",
        "theirs": "，后者则讲解了{terms}",
        "theirs_also": "；后者还讲解了{terms}",
        "and": "、",
        "glossary_intro": "多篇文章都用到的术语：每条给出一篇文章讲解它的原句（附引用），"
        "以及用到它的文章。",
        "used": "{n} 篇文章用到",
        "explained": "{title}这样讲解它：",
        "users": "用到它的文章",
        "hub_order": "按建议的阅读顺序：",
        "all_deal": "这 {n} 场报告都讲到{terms}",
        "both_deal": "这两场报告都讲到{terms}",
        "some_deal": "{n} 场报告中有 {k} 场讲到{terms}",
        "thread": "{deal}：{title}讲解了{it}，{others}也用到{it}。",
        "it": ("它", "它们"),
        "thread_plain": "{titles}{deal}。",
        "plain_deal": "都讲到{terms}",
    },
    "en": {
        "place": {"intro": "introduction", "advanced": "next step", "closing": "closing piece"},
        "where": "This is the {place} of the “{path}” path ({k} of {n}).",
        "before": "Read {articles} first, then this one.",
        "explains": "{title} ({what})",
        "what": "it explains {terms}",
        "alone": "What it uses of the terms the earlier articles of this path explain, it "
        "explains itself: it can be read on its own.",
        "after": "Next: {title}.",
        "beside": "Read it beside {title}: {what}.",
        "both": "both explain {terms}",
        "own": "; this one also explains {terms}",
        "theirs": ", that one {terms}",
        "theirs_also": "; that one also explains {terms}",
        "and": ", ",
        "glossary_intro": "Terms several articles use: for each, the sentence of an article "
        "that explains it (cited) and the articles that use it.",
        "used": "used by {n} articles",
        "explained": "As {title} explains it:",
        "users": "Articles that use it",
        "hub_order": "In a suggested reading order:",
        "all_deal": "All {n} talks deal with {terms}",
        "both_deal": "Both talks deal with {terms}",
        "some_deal": "{k} of the {n} talks deal with {terms}",
        "thread": "{deal}: {title} explains {it}, and {others} {use} {it} too.",
        "it": ("it", "them"),
        "thread_plain": "{titles} {deal}.",
        "plain_deal": "all deal with {terms}",
    },
}


def shown_term(term: str, lang: str) -> str:
    """The term as the page's language writes it: its house Chinese form in Chinese (the
    term itself where the house keeps it in Latin letters)."""
    entry = terminology.entry_of(term)
    return entry.zh if lang == "zh" and entry and has_cjk(entry.zh) else term


def listed(items: list[str], lang: str) -> str:
    """ "A、B、C" in Chinese, "A, B and C" in English."""
    if lang == "zh" or len(items) < 2:
        return "、".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def phrase(template: str, terms: list[str], lang: str, **values) -> str:
    """A fragment naming terms, typeset (the spaces between Chinese and Latin letters): it
    holds no link, so typesetting cannot break one."""
    shown = listed([shown_term(t, lang) for t in terms], lang)
    return typeset_text(template.format(terms=shown, **values), lang)


def title_link(talk: PublishedTalk, lang: str, page: str) -> str:
    title = typeset_text(talk.draft.text(lang).title, lang)
    link = relative(page_path("articles", talk.slug, "zh"), page)
    return f"《[{title}]({link})》" if lang == "zh" else f"“[{title}]({link})”"


def note_text(note: PathNote, path: ReadingPath, h: Holdings, lang: str, page: str) -> str:
    """The path note of an article, from its checked relations."""
    words = WORDS[lang]
    place = words["place"][note.place]
    name = markdown_text(path.name(lang))
    lines = [words["where"].format(path=name, place=place, k=note.position, n=note.of)]
    if note.before:
        named = [
            words["explains"].format(
                title=title_link(h.by_slug[r.slug], lang, page),
                what=phrase(words["what"], r.terms, lang),
            )
            for r in note.before
        ]
        lines.append(words["before"].format(articles=words["and"].join(named)))
    elif note.position > 1:
        lines.append(words["alone"])
    if note.contrast:
        lines.append(contrast_text(note.contrast, h, lang, page))
    if note.after:
        lines.append(words["after"].format(title=title_link(h.by_slug[note.after], lang, page)))
    return (" " if lang == "en" else "").join(lines)


def contrast_text(contrast: Contrast, h: Holdings, lang: str, page: str) -> str:
    """ "Read it beside B: both explain X; this one also explains P, that one Q"."""
    words = WORDS[lang]
    what = [phrase(words["both"], contrast.shared, lang)]
    if contrast.own:
        what.append(phrase(words["own"], contrast.own, lang))
    if contrast.theirs:
        theirs = words["theirs"] if contrast.own else words["theirs_also"]
        what.append(phrase(theirs, contrast.theirs, lang))
    title = title_link(h.by_slug[contrast.slug], lang, page)
    return words["beside"].format(title=title, what="".join(what))


def path_cards(path: ReadingPath, h: Holdings, lang: str, page: str) -> list[str]:
    """The path's articles as cards in reading order, each with its path note."""
    notes = {n.slug: n for n in path.notes}
    talks = [h.by_slug[s] for s in path.talks if s in h.by_slug]
    texts = {
        t.slug: note_text(notes[t.slug], path, h, lang, page) for t in talks if t.slug in notes
    }
    return cards(talks, lang, page, texts)


def topic_page(topic: Topic, h: Holdings, lang: str) -> str:
    """A topic: its name, its scope, and its reading path (or its cards, latest first)."""
    page = page_path("topics", topic.id, lang)
    lines = [f"# {typeset_text(topic.name(lang), lang)}", "", typeset_text(topic.scope(lang), lang)]
    lines.append("")
    path = next((p for p in h.library.paths if p.id == topic.id), None)
    if path and path.notes:
        lines += [
            f"## {HEADINGS[lang]['path']}{'：' if lang == 'zh' else ': '}"
            f"{markdown_text(path.name(lang))}",
            "",
        ]
        return "\n".join(lines + path_cards(path, h, lang, page))
    shelved = next((talks for t, talks in h.shelves if t.id == topic.id), [])
    return "\n".join(lines + cards(shelved, lang, page))


def glossary_index(h: Holdings, lang: str) -> str:
    words, page = WORDS[lang], page_path("glossary", "index", lang)
    lines = [f"# {HEADINGS[lang]['glossary']}", "", words["glossary_intro"], ""]
    for entry in h.library.glossary:
        link = relative(page_path("glossary", entry.id, "zh"), page)
        name = typeset_text(shown_term(entry.term, lang), lang)
        term = markdown_text(entry.term)
        also = f" · {term}" if name != term else ""
        used = words["used"].format(n=len(entry.used_by))
        lines.append(
            f"- [{name}]({link}){also}：{used}" if lang == "zh" else f"- [{name}]({link}): {used}"
        )
    return "\n".join([*lines, ""])


def glossary_page(entry: GlossaryTerm, h: Holdings, lang: str) -> str:
    """A term: the sentence that explains it, cited, and the articles that use it."""
    words, page = WORDS[lang], page_path("glossary", entry.id, lang)
    talk = h.by_slug[entry.explained.slug]
    name = typeset_text(shown_term(entry.term, lang), lang)
    lines = [f"# {name}", ""]
    if name != (term := markdown_text(entry.term)):
        lines += [f"*{term}*", ""]
    sentence = entry.explained.zh if lang == "zh" else entry.explained.en
    units = [talk.units[c] for c in entry.explained.citations if c in talk.units]
    lines += [words["explained"].format(title=title_link(talk, lang, page)), ""]
    lines += [f"> {cited(sentence, units, talk, lang, page)}", "", f"## {words['users']}", ""]
    lines += [f"- {title_link(h.by_slug[s], lang, page)}" for s in entry.used_by if s in h.by_slug]
    back = relative(page_path("glossary", "index", "zh"), page)
    return "\n".join([*lines, "", f"[← {HEADINGS[lang]['glossary']}]({back})", ""])


def thread_text(
    terms: list[str], thread: Thread, hub: Hub, h: Holdings, lang: str, page: str
) -> str:
    """What runs through a meetup's talks: the terms several of them use, who explains them."""
    words, k, n = WORDS[lang], len(thread.used_by), len(hub.talks)
    links = {s: title_link(h.by_slug[s], lang, page) for s in thread.used_by}
    if not thread.explained_by:
        deal = phrase(words["plain_deal"], terms, lang)
        return words["thread_plain"].format(titles=listed([*links.values()], lang), deal=deal)
    which = "some_deal" if k < n else "both_deal" if n == 2 else "all_deal"
    deal = phrase(words[which], terms, lang, n=n, k=k)
    others = [link for s, link in links.items() if s != thread.explained_by]
    return words["thread"].format(
        deal=deal,
        title=title_link(h.by_slug[thread.explained_by], lang, page),
        it=words["it"][len(terms) > 1],
        others=listed(others, lang),
        use="uses" if len(others) == 1 else "use",
    )


def grouped(threads: list[Thread]) -> list[tuple[list[str], Thread]]:
    """Threads with the same explainer and users, said in one sentence."""
    groups: dict[tuple, list[Thread]] = {}
    for thread in threads:
        groups.setdefault((thread.explained_by, tuple(thread.used_by)), []).append(thread)
    return [([t.term for t in same], same[0]) for same in groups.values()]


def hub_page(hub: Hub, h: Holdings, lang: str) -> str:
    """A meetup: the event, what runs through its talks, its talks in reading order."""
    page = page_path("hubs", hub.id, lang)
    lines = [f"# {typeset_text(hub.name, lang)}", ""]
    if facts := [x for x in (hub.date and hub.date.isoformat(), hub.place) if x]:
        lines += [" · ".join(typeset_text(f, lang) for f in facts), ""]
    for terms, thread in grouped(hub.threads):
        lines += [thread_text(terms, thread, hub, h, lang, page), ""]
    lines += [WORDS[lang]["hub_order"], ""]
    return "\n".join(lines + cards([h.by_slug[s] for s in hub.talks], lang, page))


LISTED = {"articles": "all", "qa": "qa", "proof": "proof"}  # a list's heading (HEADINGS)


def list_page(kind: str, talks: list[PublishedTalk], lang: str) -> str:
    """Every talk's page of a kind (articles, qa, proof), latest first: date and title.
    The navigation links these lists, not each page, so it stays the same size as the
    library grows and a new talk changes only the pages that list it."""
    page = list_path(kind, lang)
    lines = [f"# {HEADINGS[lang][LISTED[kind]]}", ""]
    for talk in talks:
        title = typeset_text(talk.draft.text(lang).title, lang)
        date = talk.talk.meta.date
        link = relative(page_path(kind, talk.slug, "zh"), page)
        lines.append(f"- {date.isoformat() + ' · ' if date else ''}[{title}]({link})")
    return "\n".join([*lines, ""])
