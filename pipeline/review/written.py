"""The review card in the house voice (../shared/style.md), written by the LLM and checked in
code like a paragraph.

The model writes the card's two paragraphs in Chinese from the reviewed article and what
the checks found: what the article says (problem, method by the mechanisms' own names,
measured results with their conditions, limits), and, after the verdict sentence the rules
decided, why, who should read it, what transfers to their work and the risks. Each is
checked: every number and name is in the article, no claim contradicts a check ("可追溯"
where numbers failed), no other verdict, "实测" only before a measurement, Chinese, no
prompt echo. Both are translated into English by the drafting translator and its checks.
A paragraph failing twice (a first reply, then the configured candidates told the
findings) gives way to the plain, true card built in code, in both languages so they still
say the same things, and the fallback is recorded.
"""

import re
from dataclasses import dataclass

from pipeline.core.grounding import (
    WORD,
    copied_share,
    invented_numbers,
    is_echo,
    is_name,
    mentions,
    prompt_lines,
    split_sentences,
)
from pipeline.core.prompts import Prompt
from pipeline.draft import Writer
from pipeline.outline import ROLE_TITLES
from pipeline.review.card import FORECAST, MEASUREMENT
from pipeline.schema import Check, Draft, DraftText

MAX_LISTING_CHARS = 1500  # the article as the prompt shows it: a small model's context
MAX_POINT_CHARS = 160
MAX_CARD_CHARS = {"summary": 320, "assessment": 420}
MAX_COPIED_FACTS = 0.5  # share of the assessment copied from the check results it was given
# Reader roles a card may name though the article does not.
ROLE_WORDS = {"AI", "LLM", "SRE", "GPU", "CPU", "ML", "MLOps", "infra", "Infra"}
# How a summary opens: with what the article (the talk) says.
SAYS_WHAT = re.compile(r"(?:这篇|本篇|该)?(?:文章|本文|演讲|讲座|报告)")
VERDICT_WORDS = re.compile(r"不推荐收录|推荐收录|需修改")
# What a card may claim only where none of these checks failed (None: no check at all).
CLAIMS = [
    (
        re.compile(r"可追溯|有据可查|均有出处|有据可依|可以验证|可验证|数据可靠"),
        ("citations", "numbers_grounded", "numbers_bound"),
    ),
    (re.compile(r"全部.{0,8}通过|均已?通过|都已?通过|没有发现问题"), None),  # None: every check
    (re.compile(r"(?:译文|翻译)(?:准确|忠实)"), ("translations_faithful",)),
]
# Which paragraph a call writes (the prompt's {{ task }}).
TASKS = {
    "summary": "写第一段 summary（文章讲什么）：以“文章讲”开头，写出它要解决的问题、它的方法"
    "（用机制自己的名字）、实测结果及其条件，以及作者承认的边界。"
    "只有文章里测量得到的结果才能写“实测”。",
    "assessment": "写第二段 assessment（审稿意见）：用两三句话说明这篇文章为什么得到上面的结论"
    "（它给出了哪些可以核对的数据、哪些具体机制、是否交代了边界），按文章的主题说适合哪一两类"
    "工程师阅读、他们能把文中哪些做法用到自己的工作中，以及需要注意的风险。不要重复结论本身。",
}


@dataclass(frozen=True)
class CardFacts:
    """What the card may say beyond the article: the rules' verdict and the code's lines."""

    verdict: str
    reasons: list[str]
    strengths: list[str]
    risks: list[str]

    def said(self) -> str:
        """As the prompt gives them to the paragraph that assesses."""
        return (
            f"\n自动审稿结论：{self.verdict}（{'；'.join(self.reasons)}）\n"
            f"通过检查得到的长处：{'；'.join(self.strengths) or '无'}\n"
            f"风险：{'；'.join(self.risks)}\n"
        )


def chapters_listing(text: DraftText) -> str:
    """Each chapter's role, title and first sentences, within MAX_LISTING_CHARS."""
    lines, size = [], 0
    for section in text.sections:
        role = ROLE_TITLES["zh"].get(section.role, "") if section.role else ""
        points = "".join(
            split_sentences(p.text)[0] for p in section.paragraphs if split_sentences(p.text)
        )
        line = f"- {role}｜{section.title}：{points[:MAX_POINT_CHARS]}"
        if size + len(line) > MAX_LISTING_CHARS:
            break
        lines.append(line)
        size += len(line)
    return "\n".join(lines)


def article_text(draft: Draft) -> str:
    return "\n".join([*(line for t in draft.texts() for line in t.lines()), *draft.tags])


def card_findings(
    text: str, part: str, article: str, facts: CardFacts, checks: list[Check], echo: list[str]
) -> list[str]:
    """What makes a card paragraph untrue or no card: numbers and names the article lacks
    (a number of the check results, "文中 10 处数字", is true too), claims a failed check
    denies, another verdict, 实测 before no measurement."""
    known = article + facts.said()
    found = [f"the number {n} is not in the article" for n in invented_numbers(text, known)]
    found += [
        f"the name {w!r} is not in the article"
        for w in dict.fromkeys(WORD.findall(text))
        if is_name(w) and w not in ROLE_WORDS and not mentions(article, w)
    ]
    failed = {c.name for c in checks if not c.passed}
    for pattern, denied_by in CLAIMS:
        if (said := pattern.search(text)) and (failed & set(denied_by) if denied_by else failed):
            found.append(f"{said.group()!r} is not what the checks found")
    found += [
        f"it gives the verdict {v} (the rules' verdict is {facts.verdict})"
        for v in dict.fromkeys(VERDICT_WORDS.findall(text))
        if part == "summary" or v != facts.verdict
    ]
    found += [
        f"'实测' before no measurement: {s!r}"
        for s in split_sentences(text)
        if "实测" in s and (not MEASUREMENT.search(s) or FORECAST.search(s))
    ]
    if part == "summary" and not SAYS_WHAT.match(text):
        found.append("the summary does not open with what the article says (文章讲……)")
    if "\n" in text.strip():
        found.append("it is not one paragraph")
    if len(text) > MAX_CARD_CHARS[part]:
        found.append(f"longer than {MAX_CARD_CHARS[part]} characters")
    if is_echo(text, echo):
        found.append("repeats the instructions")
    return found


def written_card(
    draft: Draft, checks: list[Check], facts: CardFacts, writer: Writer, prompt: Prompt
) -> tuple[dict[str, tuple[str, str]] | None, list[str]]:
    """{lang: (summary, the assessment after the verdict sentence)} written by the model,
    or None and the findings that made it fall back."""
    article, echo = article_text(draft), prompt_lines([prompt], tuple(TASKS.values()))
    listing = {"title": draft.zh.title, "chapters": chapters_listing(draft.zh)}
    zh = {}
    for part in ("summary", "assessment"):
        said = facts.said() if part == "assessment" else ""

        def render(revise: str, part=part, said=said):
            return prompt.render(task=TASKS[part], review=said, revise=revise, **listing)

        def check(text: str, part=part, said=said) -> list[str]:
            found = card_findings(text, part, article, facts, checks, echo)
            if said and copied_share(text, said, "zh") > MAX_COPIED_FACTS:
                found.append("it copies the check results instead of assessing the article")
            return found + writer.common_findings(text, "zh")

        text, findings, passed = writer.attempt(render, check, "zh")
        if not passed:
            return None, [f"zh {part}: {f}" for f in findings]
        zh[part] = text
    en = {}
    for part, text in zh.items():
        result, findings, passed = writer.translated(text, "paragraph", "en")
        if not passed:
            return None, [f"en {part}: {f}" for f in findings]
        en[part] = result
    return {"zh": (zh["summary"], zh["assessment"]), "en": (en["summary"], en["assessment"])}, []
