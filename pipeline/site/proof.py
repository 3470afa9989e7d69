"""The proofreading page (校对) of a talk, for reviewers: the article sentence by sentence,
each with its ledger id, what it is made from (what was said, with its time; what a slide
shows, with its number), words recognition may have misheard marked, its Chinese and
English, who corrected it, a `talk2article edit` command to copy, and an edit no longer
applied beside it; then the facts left out because the model's sentences failed their
checks, each with a command that puts it back in a reviewer's words, and the speech left
out because a word of it may have been misheard."""

import re
import shlex

from pipeline.article.typeset import typeset_text
from pipeline.core.text import clock
from pipeline.library.talks import PublishedTalk, failure_line
from pipeline.notes.sources import fact_sources
from pipeline.review.flags import flags
from pipeline.schema import Ledger, LedgerSentence, SentenceCheck, StaleEdit
from pipeline.schema.checks import SENTENCE_CHECKS
from pipeline.site.pages import (
    HEADINGS,
    anchor_of,
    decision_lines,
    page_path,
    relative,
    review_card,
)

WORDS = {
    "source": "出处",
    "composed": "模型概括的（无单一出处，检查过不含其事实没有的数字和名称）",
    "slide": "幻灯片 {n}",
    "edited": "已由 {by} 校对",
    "stale": "未应用的校对（{why}）",
    "gone": "未应用的校对",
    "gone_intro": "以下校对针对的句子已不在文章中，没有应用：",
    "intro": "每句前是句子编号和出处；要改一句，复制其下的命令，改好引号里的文字再运行"
    "（只给一种语言时，模型会译出另一种）。校对写进讲座文件夹的 edits.yaml，之后每次运行都会保留。",
}
LEAD = "（导语：无标题）"  # the first chapter, which stands without a heading

TROUBLE = {
    "failed": ("上次运行失败", "{line}。网站上仍是之前那次运行的文章，修好后再运行。"),
    "decisions": ("decisions.yaml 读不了", "{line}。修好之前，网站按上次读到的决定发布。"),
}
LEFT_OUT = {
    "heading": "没有写进文章的事实",
    "intro": "模型为以下事实写的句子两次未通过检查，所以没有写进文章"
    "（下列未通过的检查和模型最后的回答，回答不会发布）。要补上一条，复制其下的命令，把引号里的原话改写成一句话再运行。",
    "failed": "未通过：{checks}",
    "untranslated": "未通过：没有译成另一种语言",
    "answer": "模型的回答：{text}",
}
READ_FIRST = {
    "heading": "先读这些句子",
    "intro": "按运行记录，以下句子最可能需要修改（原因附后）；在正文中标有 ⚑。",
    "mark": "⚑ 先读：{why}",
    "why": {
        "second try": "模型第二次回答才通过检查",
        "beside a left-out fact": "同段有事实没写进文章",
    },
}
UNCERTAIN = {
    "heading": "可能听错的词",
    "intro": "以下讲话含有可能听错的词（已标出：词典、幻灯片和术语表都不认识、只出现一次的词，"
    "或语音识别自己也没把握、幻灯片上没有的词），这些句子没有写进文章。",
}


def proof_page(talk: PublishedTalk) -> str:
    """For reviewers: each chapter's sentences with their sources and edit commands."""
    page = page_path("proof", talk.slug, "zh")
    zh = talk.draft.zh
    article = relative(page_path("articles", talk.slug, "zh"), page)
    lines = [f"# {HEADINGS['zh']['proof']}：{typeset_text(zh.title, 'zh')}", ""]
    lines += [f"[← {typeset_text(zh.title, 'zh')}]({article})", ""]
    lines += trouble_lines(talk) + decision_lines(talk, "zh")
    lines += review_card(talk, "zh", page) + [WORDS["intro"], ""]
    ledger = talk.ledger
    flagged = {flag.sentence: flag.why for flag in flags(ledger)}
    lines += read_first_lines(ledger, flagged)
    by_id, places = ledger.by_id(), ledger.places("zh")
    lines += sentence_lines(talk, by_id[ledger.title])
    lines += sentence_lines(talk, by_id[ledger.summary])
    for chapter in ledger.chapters:
        heading = by_id[chapter.heading]
        named = typeset_text(heading.zh.text, "zh") if heading.zh else ""
        lines += [f"## {named or LEAD} {{ #{anchor_of(places[chapter.heading])} }}", ""]
        lines += sentence_lines(talk, heading)
        for paragraph in chapter.paragraphs:
            place = places[paragraph.sentences[0]]
            lines += [f'<a id="{anchor_of(place)}"></a>**¶{place.paragraph}**', ""]
            for sentence_id in paragraph.sentences:
                lines += sentence_lines(talk, by_id[sentence_id], flagged)
    return "\n".join(lines + gone_lines(talk) + left_out_lines(talk) + uncertain_lines(talk))


def trouble_lines(talk: PublishedTalk) -> list[str]:
    """Warnings first: the last run failed, or decisions.yaml cannot be read."""
    found = [("failed", failure_line(talk.failure))] if talk.failure else []
    found += [("decisions", talk.decisions_problem)] if talk.decisions_problem else []
    lines = []
    for kind, line in found:
        heading, said = TROUBLE[kind]
        lines += [
            f'!!! failure "{heading}"',
            "",
            f"    {typeset_text(said.format(line=line), 'zh')}",
            "",
        ]
    return lines


def times_of(ids: list[str], talk: PublishedTalk) -> str:
    """When the cited units were said or shown, for a reviewer to find them."""
    return " ".join(clock(talk.units[i].start or 0.0) for i in ids if i in talk.units)


def source_of(talk: PublishedTalk, sentence: LedgerSentence) -> str:
    """Where the sentence comes from and what it says there, misheard words marked."""
    source = next((s for s in talk.ledger.sources if s.id == sentence.source), None)
    if source is None:
        return WORDS["composed"]
    shown = source.shown and source.slide is not None
    where = WORDS["slide"].format(n=source.slide) if shown else times_of([source.unit], talk)
    text = highlighted(typeset_text(source.text, talk.ledger.language), source.uncertain)
    return f"{where} · {text}"


def edit_command(talk: PublishedTalk, sentence: LedgerSentence, lang: str, said: str) -> str:
    folder = talk.run.origin or f"inputs/{talk.slug}"
    command = ["talk2article", "edit", folder, sentence.id, f"--{lang}", said, "--by", "NAME"]
    return shlex.join(command)


def said_why(why: list[str]) -> str:
    return "；".join(READ_FIRST["why"][reason] for reason in why)


def read_first_lines(ledger: Ledger, flagged: dict[str, list[str]]) -> list[str]:
    """The flagged sentences, each with why and a link to its paragraph."""
    if not flagged:
        return []
    items = []
    for c, chapter in enumerate(ledger.chapters, start=1):
        for p, paragraph in enumerate(chapter.paragraphs, start=1):
            items += [
                f"- [`{i}`](#p-{c}-{p})：{said_why(flagged[i])}"
                for i in paragraph.sentences
                if i in flagged
            ]
    return [
        f"## {READ_FIRST['heading']} {{ #read-first }}",
        "",
        READ_FIRST["intro"],
        "",
        *items,
        "",
    ]


def sentence_lines(
    talk: PublishedTalk, sentence: LedgerSentence, flagged: dict[str, list[str]] | None = None
) -> list[str]:
    """A sentence for the reviewer: its id and source, both languages, why to read it first
    if it is flagged, an edit command."""
    head = f"`{sentence.id}` · {WORDS['source']}：{source_of(talk, sentence)}"
    lines = [head + "  "]
    if why := (flagged or {}).get(sentence.id):
        lines.append(READ_FIRST["mark"].format(why=said_why(why)) + "  ")
    for lang, label in (("zh", "中"), ("en", "EN")):
        if written := sentence.text(lang):
            lines.append(f"{label}：{typeset_text(written.text, lang)}  ")
    if sentence.zh and sentence.zh.edited_by:
        lines.append(WORDS["edited"].format(by=typeset_text(sentence.zh.edited_by, "zh")) + "  ")
    for stale in (s for s in talk.stale if s.edit.sentence == sentence.id):
        lines.append(f"{WORDS['stale'].format(why=stale.why)}：{edit_text(stale)}  ")
    command = edit_command(talk, sentence, "zh", sentence.zh.text if sentence.zh else "")
    return [*lines, "", f"    {command}", ""]


def edit_text(stale: StaleEdit) -> str:
    edit = stale.edit
    if edit.drop:
        return f"{edit.by}：删去"
    return f"{edit.by}：{typeset_text(edit.zh or '', 'zh')} / {typeset_text(edit.en or '', 'en')}"


def gone_lines(talk: PublishedTalk) -> list[str]:
    """The stale edits whose sentence left the article."""
    present = {s.id for s in talk.ledger.sentences}
    gone = [s for s in talk.stale if s.edit.sentence not in present]
    if not gone:
        return []
    items = [f"- `{s.edit.sentence}` {edit_text(s)}" for s in gone]
    return [f"## {WORDS['gone']} {{ #stale }}", "", WORDS["gone_intro"], "", *items, ""]


def failure_words(check: SentenceCheck) -> str:
    """A failed sentence check in a reviewer's words, with what it found."""
    problem = SENTENCE_CHECKS[check.check].zh
    return f"{problem}（{check.detail}）" if check.detail else problem


def left_out_lines(talk: PublishedTalk) -> list[str]:
    """Each fact left out, with its source, what failed, the model's last answer and a
    command that puts it back: the source's words to rewrite in the talk's language."""
    ledger = talk.ledger
    by_id, sources = ledger.by_id(), {s.id: s for s in ledger.sources}
    lines = []
    for left in ledger.left_out():
        sentence = by_id[left.sentence]
        failed = "；".join(failure_words(c) for c in left.failed)
        said = LEFT_OUT["failed"].format(checks=failed) if failed else LEFT_OUT["untranslated"]
        lines += [f"`{left.sentence}` · {WORDS['source']}：{source_of(talk, sentence)}  ", said]
        if left.answer:
            answer = typeset_text(left.answer, left.lang)
            lines[-1] += "  "
            lines.append(LEFT_OUT["answer"].format(text=answer))
        source = sources[sentence.source].text if sentence.source in sources else ""
        command = edit_command(talk, sentence, ledger.language, source)
        lines += ["", f"    {command}", ""]
    if not lines:
        return []
    return [f"## {LEFT_OUT['heading']} {{ #left-out }}", "", LEFT_OUT["intro"], "", *lines]


def highlighted(text: str, words: list[str]) -> str:
    """Typeset text with each of `words` (Latin letters) marked where it stands whole."""
    for word in words:
        pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])")
        text = pattern.sub(lambda m: f"<mark>{m.group()}</mark>", text)
    return text


def uncertain_lines(talk: PublishedTalk) -> list[str]:
    """Each sentence said with a word recognition may have misheard, that word highlighted,
    that the article left out."""
    lang = talk.ledger.language
    used = {s.source for s in talk.ledger.sentences}
    lines = [
        f"- {times_of([s.unit], talk)} {highlighted(typeset_text(s.text, lang), s.uncertain)}"
        for s in fact_sources(talk.evidence)
        if s.uncertain and s.id not in used
    ]
    if not lines:
        return []
    return [f"## {UNCERTAIN['heading']} {{ #uncertain }}", "", UNCERTAIN["intro"], "", *lines, ""]
