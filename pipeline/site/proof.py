"""The proofreading page (校对) of a talk, for reviewers: each paragraph in Chinese and then
in English with its citations; each sentence made from speech beside what was said, with
its ledger id; and the speech left out because recognition may have misheard a word of it,
that word highlighted."""

import re

from pipeline.article.typeset import typeset_text
from pipeline.core.text import clock
from pipeline.library.talks import PublishedTalk
from pipeline.notes.sources import fact_sources
from pipeline.site.pages import HEADINGS, decision_lines, page_path, relative, review_card

RESTATED = {
    "heading": "口语改写",
    "intro": "以下句子取自讲话转写，逐句改写成书面语：先是句子编号和原话，箭头后是改写。",
    "kept": "未改写：模型的改写未通过检查，保留原话",
}
UNCERTAIN = {
    "heading": "可能听错的词",
    "intro": "以下讲话含有词典、幻灯片和术语表都不认识、只出现一次的词（已标出），可能是语音识别"
    "听错了，这些句子没有写进文章。",
}


def proof_page(talk: PublishedTalk) -> str:
    """For reviewers: each paragraph in Chinese and then in English, with its citations."""
    page = page_path("proof", talk.slug, "zh")
    zh, en = talk.draft.zh, talk.draft.en
    article = relative(page_path("articles", talk.slug, "zh"), page)
    lines = [f"# {HEADINGS['zh']['proof']}：{typeset_text(zh.title, 'zh')}", ""]
    lines += [f"[← {typeset_text(zh.title, 'zh')}]({article})", ""]
    lines += decision_lines(talk, "zh") + review_card(talk, "zh", page)
    for s, (zh_section, en_section) in enumerate(zip(zh.sections, en.sections, strict=False), 1):
        lines += [f"## {typeset_text(zh_section.title, 'zh')} {{ #c-{s} }}", ""]
        lines += [f"*{typeset_text(en_section.title, 'en')}*", ""]
        for n, (z, e) in enumerate(zip(zh_section.paragraphs, en_section.paragraphs, strict=False)):
            refs = times_of(z.citations, talk)
            lines += [f'<a id="p-{s}-{n + 1}"></a>**¶{n + 1}** {refs}', ""]
            lines += [f"> {typeset_text(z.text, 'zh')}", ">", f"> {typeset_text(e.text, 'en')}", ""]
    return "\n".join(lines + restatement_lines(talk) + uncertain_lines(talk))


def times_of(ids: list[str], talk: PublishedTalk) -> str:
    """When the cited units were said or shown, for a reviewer to find them."""
    return " ".join(clock(talk.units[i].start or 0.0) for i in ids if i in talk.units)


def restatement_lines(talk: PublishedTalk) -> list[str]:
    """Each sentence made from speech beside what was said, with its id, for a reviewer to
    check the editing."""
    ledger, lang = talk.ledger, talk.ledger.language
    sources = {source.id: source for source in ledger.sources if source.kind == "speech"}
    lines = []
    for sentence in ledger.sentences:
        source, written = sources.get(sentence.source or ""), sentence.text(lang)
        if source is None or written is None:
            continue
        refs = times_of([source.unit], talk)
        after = RESTATED["kept"] if written.fallback else typeset_text(written.text, lang)
        lines += [f"- `{sentence.id}` {refs} {typeset_text(source.text, lang)}", f"    → {after}"]
    if not lines:
        return []
    return [f"## {RESTATED['heading']} {{ #restated }}", "", RESTATED["intro"], "", *lines, ""]


def highlighted(text: str, words: list[str]) -> str:
    """Typeset text with each of `words` (Latin letters) marked where it stands whole."""
    for word in words:
        pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])")
        text = pattern.sub(lambda m: f"<mark>{m.group()}</mark>", text)
    return text


def uncertain_lines(talk: PublishedTalk) -> list[str]:
    """Each sentence said with a word recognition may have misheard, that word highlighted."""
    lang = talk.ledger.language
    lines = [
        f"- {times_of([s.unit], talk)} {highlighted(typeset_text(s.text, lang), s.uncertain)}"
        for s in fact_sources(talk.evidence)
        if s.uncertain
    ]
    if not lines:
        return []
    return [f"## {UNCERTAIN['heading']} {{ #uncertain }}", "", UNCERTAIN["intro"], "", *lines, ""]
