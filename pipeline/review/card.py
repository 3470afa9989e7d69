"""The review card a reviewer reads first (../shared/style.md): what the talk says, and a
verdict with its reasons, in Chinese and in English, saying the same things.

The verdict follows written rules over the automatic checks, never the model's opinion;
the prose is assembled from the reviewed article in each language (its own sentences, so
it is as grounded as the article) and from what the checks found: a strength is stated
only where the check behind it passed.
"""

import re
from dataclasses import dataclass

from pipeline.core.grounding import split_sentences
from pipeline.core.text import QUANTITY, numbers
from pipeline.schema import Check, Draft, DraftSection, DraftText, Place, ReviewCard, Revision
from pipeline.schema.checks import ARTICLE_CHECKS
from pipeline.schema.review import CardText

# Drafting actions that leave text a person should read before publishing.
UNRESOLVED = ("kept with findings",)
MIN_PARAGRAPHS = 2  # fewer is no article
# Words with which a speaker says a result is their own measurement.
SELF_MEASURED = re.compile(
    r"\bown (?:benchmarks?|measurements?|tests?)|we measured|in our (?:benchmark|test|experiment)"
    r"|自测|自己的(?:基准|测试|测量)|我们的(?:测试|测量|基准)",
    re.IGNORECASE,
)
# A plan or a forecast, never quoted as a measurement ("预计在下一个版本中…10 到 20%").
FORECAST = re.compile(
    r"预计|预期|计划|将会|有望|下一(?:个)?版本|未来|目标是|路线图"
    r"|\b(?:expect(?:s|ed)?|will|plan(?:s|ned)?|aim(?:s|ed)? to|next (?:release|version)"
    r"|roadmap|forecast|projected)\b",
    re.IGNORECASE,
)
HARDWARE = re.compile(r"\b(?:[AHBLV]\d{2,3}|MI\d{3}X?|RTX ?\d{4}|TPU ?v\d|昇腾 ?\d*)\b|昇腾")


LABELS = {"推荐收录": "Recommended", "需修改": "Needs revision", "不推荐收录": "Not recommended"}
LANGUAGE_WORDS = {"zh": {"en": "英文", "zh": "中文"}, "en": {"en": "English", "zh": "Chinese"}}
MAX_PLACES = 3
PART_WORDS = {
    "zh": {"title": "标题", "summary": "摘要", "text": "全文"},
    "en": {"title": "title", "summary": "summary", "text": "text"},
}


def place_of(place: Place, lang: str = "zh") -> str:
    """A place in a reviewer's words: 英文第 3 章第 4 段, or "English chapter 3, paragraph
    4" (and 英文第 3 章标题, 中文摘要, 标签, 英文句子 f-12)."""
    zh = lang == "zh"
    if place.lang is None:
        return "标签" if zh else "tags"
    said = LANGUAGE_WORDS[lang][place.lang]
    if place.part == "sentence":
        return f"{said}句子 {place.sentence}" if zh else f"{said} sentence {place.sentence}"
    if place.chapter is None:
        part = PART_WORDS[lang][place.part]
        return said + part if zh else f"{said} {part}"
    if zh:
        return f"{said}第 {place.chapter} 章" + (
            f"第 {place.paragraph} 段" if place.paragraph else "标题"
        )
    return f"{said} chapter {place.chapter}, " + (
        f"paragraph {place.paragraph}" if place.paragraph else "heading"
    )


def listed(items: list[str], lang: str) -> str:
    more = len(items) > MAX_PLACES
    if lang == "zh":
        return "、".join(items[:MAX_PLACES]) + (" 等" if more else "")
    return "; ".join(items[:MAX_PLACES]) + (" and more" if more else "")


def problem_of(check: Check, lang: str = "zh") -> str:
    """The failure and where it is: 有数字不在所引证据中…（英文第 3 章第 4 段）."""
    places = list(dict.fromkeys(place_of(f.place, lang) for f in check.findings))
    problem = ARTICLE_CHECKS[check.name].problem(lang)
    if lang == "zh":
        return f"{problem}（{listed(places, lang)}）" if places else problem
    return f"{problem} ({listed(places, lang)})" if places else problem


@dataclass(frozen=True)
class Reason:
    """One rule that decided the verdict, to be said in either language."""

    kind: str  # untrusted, failed, short, kept, passed
    checks: tuple[Check, ...] = ()
    places: tuple[Place, ...] = ()
    count: int = 0

    def said(self, lang: str) -> str:
        zh = lang == "zh"
        problems = ("；" if zh else "; ").join(problem_of(c, lang) for c in self.checks)
        if self.kind == "untrusted":
            return f"未通过可信度检查：{problems}" if zh else f"failed a trust check: {problems}"
        if self.kind == "failed":
            return f"未通过检查：{problems}" if zh else f"failed a check: {problems}"
        if self.kind == "short":
            return (
                f"正文只有 {self.count} 段，不成文章"
                if zh
                else (f"the body has only {self.count} paragraph(s): no article")
            )
        if self.kind == "kept":
            where = listed([place_of(p, lang) for p in self.places], lang)
            return (
                f"{self.count} 处文字带着检查意见保留（{where}）"
                if zh
                else (f"{self.count} passage(s) kept with findings ({where})")
            )
        return "全部自动检查通过" if zh else "every automatic check passed"


def verdict_of(
    checks: list[Check], revisions: list[Revision], paragraphs: int
) -> tuple[str, list[Reason]]:
    """The verdict and the rules that decided it."""
    failed = tuple(c for c in checks if not c.passed)
    if untrusted := tuple(c for c in failed if ARTICLE_CHECKS[c.name].trust):
        return "不推荐收录", [Reason("untrusted", untrusted)]
    if paragraphs < MIN_PARAGRAPHS:
        return "不推荐收录", [Reason("short", count=paragraphs)]
    reasons = [Reason("failed", failed)] if failed else []
    if unresolved := tuple(r.place for r in revisions if r.action in UNRESOLVED):
        reasons.append(Reason("kept", places=unresolved, count=len(unresolved)))
    return ("需修改", reasons) if reasons else ("推荐收录", [Reason("passed")])


def first_sentence(sections: list[DraftSection], measured: bool = False) -> str | None:
    """The first sentence of these chapters; with `measured`, the first with a quantity
    (a number with a unit or a ratio: a year or a version is no measurement) that is no
    plan or forecast."""
    for section in sections:
        for paragraph in section.paragraphs:
            for sentence in split_sentences(paragraph.text):
                if not measured or (QUANTITY.search(sentence) and not FORECAST.search(sentence)):
                    return sentence.rstrip("。.")
    return None


def focus_of(text: DraftText) -> list[str]:
    """The chapters a summary names: the mechanisms, else every chapter but the problem,
    results and limits; never one that is the article's title again ("介绍" neither)."""
    chosen = [s.title for s in text.sections if s.role == "mechanism"] or [
        s.title for s in text.sections if s.role not in ("problem", "results", "limits")
    ]
    titles = chosen or [s.title for s in text.sections]
    named = [t for t in dict.fromkeys(titles) if t]  # the lead has no heading
    return [t for t in named if t != text.title and t not in GENERIC][:3]


# Headings that say where a chapter is, not what it explains.
GENERIC = {"介绍", "简介", "概述", "引言", "总结", "Introduction", "Overview", "Summary"}


def summary_of(text: DraftText) -> str:
    """ "文章讲……：重点包括……；实测……；作者同时指出……。" from the article in its language."""
    by_role = {role: [s for s in text.sections if s.role == role] for role in ("results", "limits")}
    focus = focus_of(text)
    measured = first_sentence(by_role["results"], measured=True)
    limit = first_sentence(by_role["limits"])
    if text.lang == "zh":
        parts = [f"文章讲{text.title}" + (f"：重点包括{'、'.join(focus)}" if focus else "")]
        parts += [f"实测{measured}"] if measured else []
        parts += [f"作者同时指出{limit}"] if limit else []
        return "；".join(parts) + "。"
    parts = [
        f"The article covers {text.title}" + (f", chiefly {', '.join(focus)}" if focus else "")
    ]
    parts += [f"measured: {measured}"] if measured else []
    parts += [f"the speaker also notes: {limit}"] if limit else []
    return "; ".join(parts) + "."


def risks_of(draft: Draft, lang: str) -> list[str]:
    results = " ".join(
        p.text for s in (*draft.zh.sections, *draft.en.sections) for p in s.paragraphs
    )
    zh = lang == "zh"
    risks = []
    if SELF_MEASURED.search(results):
        risks.append("数据为演讲者自测" if zh else "the data are the speaker's own measurements")
    if hardware := sorted(set(HARDWARE.findall(results))):
        hw = ("、" if zh else ", ").join(hardware[:3])
        risks.append(
            f"结果依赖特定硬件（{hw}）" if zh else f"the results depend on hardware ({hw})"
        )
    risks.append(
        "数字只来自这一场演讲，未经独立复现"
        if zh
        else "the numbers come from this talk alone, not reproduced independently"
    )
    return risks


def strengths_of(draft: Draft, checks: list[Check], lang: str = "zh") -> list[str]:
    """What the article does well, each only where the checks behind it passed."""
    zh = lang == "zh"
    sections = draft.text(lang).sections
    passed = {c.name for c in checks if c.passed}
    found = []
    count = sum(len(numbers(p.text)) for s in sections for p in s.paragraphs)
    if "sentences_grounded" not in passed:
        return []
    if count:
        found.append(
            f"文中 {count} 处数字均可追溯到演讲原文"
            if zh
            else f"all {count} numbers trace back to the talk"
        )
    if mechanisms := [s.title for s in sections if s.role == "mechanism" and s.title]:
        names = ("、" if zh else ", ").join(mechanisms[:3])
        found.append(f"讲清了机制（{names}）" if zh else f"it explains the mechanism ({names})")
    if any(s.role == "limits" for s in sections):
        found.append("交代了适用边界" if zh else "it states where the approach stops helping")
    return found


def model_failure_lines(revisions: list[Revision], lang: str) -> list[str]:
    """Where the model answered badly: a heading, title or summary kept with what its best
    answer failed (places a reviewer reads first), and the facts left out (listed on the
    proofreading page)."""
    kept = [place_of(r.place, lang) for r in revisions if r.action in UNRESOLVED]
    left = sum(r.action == "dropped" for r in revisions)
    zh = lang == "zh"
    lines = []
    if kept:
        where = listed(kept, lang)
        lines.append(
            f"其中 {len(kept)} 处模型回答未通过检查，保留了最好的一次（{where}），请重点复核。"
            if zh
            else f"In {len(kept)} place(s) the model's answer failed the checks and its best "
            f"answer stands ({where}): read those first."
        )
    if left:
        lines.append(
            f"另有 {left} 条事实因模型写的句子两次未通过检查而没有写进文章，"
            "校对页列出了它们的出处。"
            if zh
            else f"{left} fact(s) were left out because the model's sentences failed their "
            "checks twice; the proofreading page lists them with their sources."
        )
    return lines


def draft_verdict(draft: Draft, checks: list[Check]) -> tuple[str, list[Reason]]:
    """verdict_of for this draft: its checks, revisions and paragraph count."""
    paragraphs = sum(len(s.paragraphs) for s in draft.zh.sections)
    return verdict_of(checks, draft.revisions, paragraphs)


def verdict_line(verdict: str, said: list[str], revisions: list[Revision], lang: str) -> str:
    """The verdict and the rules that decided it (`said` in `lang`), and where the model
    answered badly."""
    zh = lang == "zh"
    line = f"{verdict}：{'；'.join(said)}。" if zh else f"{LABELS[verdict]}: {'; '.join(said)}."
    return ("" if zh else " ").join([line, *model_failure_lines(revisions, lang)])


def assessment_of(draft: Draft, checks: list[Check], lang: str) -> str:
    """After the verdict, built in code: strengths, readers, risks."""
    zh = lang == "zh"
    lines = []
    if strengths := strengths_of(draft, checks, lang):
        lines.append(f"{'，'.join(strengths)}。" if zh else f"Strengths: {'; '.join(strengths)}.")
    tags = " · ".join(draft.tags)
    if zh:
        lines.append(f"适合关注 {tags or 'AI 基础设施'} 的 AI 基础设施工程师阅读。")
        lines.append(f"风险：{'；'.join(risks_of(draft, lang))}。")
    else:
        lines.append(f"For AI-infrastructure engineers following {tags or 'AI infrastructure'}.")
        lines.append(f"Risks: {'; '.join(risks_of(draft, lang))}.")
    return ("" if zh else " ").join(lines)


def review_card(draft: Draft, checks: list[Check]) -> ReviewCard:
    """The card in both languages, built in code from the article's sentences, the checks
    and the revisions drafting made."""
    verdict, reasons = draft_verdict(draft, checks)
    texts = {}
    for lang in ("zh", "en"):
        summary, tail = summary_of(draft.text(lang)), assessment_of(draft, checks, lang)
        said = [r.said(lang) for r in reasons]
        line = verdict_line(verdict, said, draft.revisions, lang)
        texts[lang] = CardText(
            verdict=verdict if lang == "zh" else LABELS[verdict],
            summary=summary,
            assessment=line + ("" if lang == "zh" else " ") + tail,
            reasons=said,
        )
    zh = texts["zh"]
    return ReviewCard(
        verdict=verdict,
        summary=zh.summary,
        assessment=zh.assessment,
        reasons=zh.reasons,
        en=texts["en"],
    )
