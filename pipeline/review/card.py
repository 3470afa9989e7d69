"""The review card a reviewer reads first (../shared/style.md): what the talk says, and a
verdict with its reasons, in Chinese.

The verdict follows written rules over the automatic checks, never the model's opinion;
the prose is assembled from the reviewed Chinese article (its own sentences, so it is as
grounded as the article) and from what the checks found.
"""

import re

from pipeline.grounding import split_sentences
from pipeline.schema import Check, Draft, DraftSection, ReviewCard, Revision
from pipeline.text import numbers

# A failure of these means the article may state what the talk did not: never publish.
TRUST_CHECKS = (
    "citations",
    "numbers_grounded",
    "numbers_bound",
    "sentences_supported",
    "no_prompt_echo",
)
# Drafting actions that leave text a person should read before publishing.
UNRESOLVED = ("kept with findings",)
MIN_PARAGRAPHS = 2  # fewer is no article
# Words with which a speaker says a result is their own measurement.
SELF_MEASURED = re.compile(
    r"\bown (?:benchmarks?|measurements?|tests?)|we measured|in our (?:benchmark|test|experiment)"
    r"|自测|自己的(?:基准|测试|测量)|我们的(?:测试|测量|基准)",
    re.IGNORECASE,
)
MEASUREMENT = re.compile(
    r"\d+(?:\.\d+)?\s*(?:%|x\b|×|倍|times|percent|ms\b|s\b|秒|毫秒|[KMGT]i?B\b|tokens?\b|QPS|TPS)",
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


# What a failed check means, in the words a reviewer reads.
CHECK_PROBLEMS = {
    "citations": "段落缺少引用或引用了不存在的证据",
    "same_structure": "中英文的章节或引用不一致",
    "numbers_grounded": "有数字不在所引证据中，或中英文数字不一致",
    "numbers_bound": "有数字被安到了别的对象上",
    "sentences_supported": "有句子得不到所引证据的支持",
    "no_prompt_echo": "文中复述了写作提示",
    "languages": "有句子不是该篇的语言",
    "no_duplicate_paragraphs": "有重复的段落",
    "no_repeated_sentences": "有重复的句子",
    "translations_faithful": "有译文与原文意思不符",
    "terminology": "有术语没有按统一译法书写",
    "titles_not_fragments": "有标题是截断的幻灯片文字",
}
LANGUAGE_WORDS = {"en": "英文", "zh": "中文"}
PLACE = re.compile(r"^(en|zh) (?:§(\d+)(?:¶(\d+)| (title))|(title|summary))$")
MAX_PLACES = 3


def place_of(where: str) -> str:
    """A finding's place in a reviewer's words: en §3¶4 is 英文第 3 章第 4 段 (and 英文第 3
    章标题, 中文摘要, 标签)."""
    if not (match := PLACE.match(where)):
        return "标签" if where == "tags" else where
    lang, chapter, paragraph, heading, whole = match.groups()
    said = LANGUAGE_WORDS[lang]
    if whole:
        return said + {"title": "标题", "summary": "摘要"}[whole]
    return f"{said}第 {chapter} 章" + (f"第 {paragraph} 段" if paragraph else "标题")


def problem_of(check: Check) -> str:
    """The failure and where it is: 有数字不在所引证据中…（英文第 3 章第 4 段）."""
    places = list(dict.fromkeys(place_of(f.split(": ", 1)[0]) for f in check.findings))
    where = "、".join(places[:MAX_PLACES]) + (" 等" if len(places) > MAX_PLACES else "")
    problem = CHECK_PROBLEMS.get(check.name, check.name)
    return f"{problem}（{where}）" if where else problem


def verdict_of(
    checks: list[Check], revisions: list[Revision], paragraphs: int
) -> tuple[str, list[str]]:
    """The verdict and the rules that decided it, in a reviewer's words."""
    failed = [c for c in checks if not c.passed]
    if untrusted := [c for c in failed if c.name in TRUST_CHECKS]:
        return "不推荐收录", [f"未通过可信度检查：{'；'.join(map(problem_of, untrusted))}"]
    if paragraphs < MIN_PARAGRAPHS:
        return "不推荐收录", [f"正文只有 {paragraphs} 段，不成文章"]
    reasons = [f"未通过检查：{'；'.join(map(problem_of, failed))}"] if failed else []
    if unresolved := [place_of(r.where) for r in revisions if r.action in UNRESOLVED]:
        listed = "、".join(unresolved[:MAX_PLACES])
        reasons.append(f"{len(unresolved)} 处文字带着检查意见保留（{listed}）")
    return ("需修改", reasons) if reasons else ("推荐收录", ["全部自动检查通过"])


def first_sentence(sections: list[DraftSection], measured: bool = False) -> str | None:
    """The first sentence of these chapters; with `measured`, the first with a quantity
    (a number with a unit or a ratio: a year or a version is no measurement) that is no
    plan or forecast."""
    for section in sections:
        for paragraph in section.paragraphs:
            for sentence in split_sentences(paragraph.text):
                if not measured or (MEASUREMENT.search(sentence) and not FORECAST.search(sentence)):
                    return sentence.rstrip("。.")
    return None


def summary_of(draft: Draft) -> str:
    """ "文章讲……：重点包括……；实测……；作者同时指出……。", from the Chinese article."""
    zh = draft.zh
    by_role = {role: [s for s in zh.sections if s.role == role] for role in ("results", "limits")}
    core = [s.title for s in zh.sections if s.role not in ("results", "limits")] or [
        s.title for s in zh.sections
    ]
    parts = [f"文章讲{zh.title}：重点包括{'、'.join(core[:4])}"]
    if measured := first_sentence(by_role["results"], measured=True):
        parts.append(f"实测{measured}")
    if limit := first_sentence(by_role["limits"]):
        parts.append(f"作者同时指出{limit}")
    return "；".join(parts) + "。"


def risks_of(draft: Draft) -> list[str]:
    results = " ".join(
        p.text for s in (*draft.zh.sections, *draft.en.sections) for p in s.paragraphs
    )
    risks = []
    if SELF_MEASURED.search(results):
        risks.append("数据为演讲者自测")
    if hardware := sorted(set(HARDWARE.findall(results))):
        risks.append(f"结果依赖特定硬件（{'、'.join(hardware[:3])}）")
    risks.append("数字只来自这一场演讲，未经独立复现")
    return risks


def strengths_of(draft: Draft, checks: list[Check]) -> list[str]:
    """What the article does well, each only where the checks behind it passed."""
    zh = draft.zh.sections
    passed = {c.name for c in checks if c.passed}
    found = []
    count = sum(len(numbers(p.text)) for s in zh for p in s.paragraphs)
    if count and {"numbers_grounded", "numbers_bound"} <= passed:
        found.append(f"文中 {count} 处数字均可追溯到演讲原文")
    if "sentences_supported" not in passed:
        return found
    if mechanisms := [s.title for s in zh if s.role == "mechanism"]:
        found.append(f"讲清了机制（{'、'.join(mechanisms[:3])}）")
    if any(s.role == "limits" for s in zh):
        found.append("交代了适用边界")
    return found


def fallback_line(fallbacks: list[str]) -> str | None:
    """Where the model answered badly and a fallback stands in: a reviewer reads those."""
    if not fallbacks:
        return None
    where = "、".join(f.split(": ", 1)[0] for f in fallbacks[:3])
    more = " 等" if len(fallbacks) > 3 else ""
    count = len(fallbacks)
    return f"其中 {count} 处模型回答未通过检查，由后备文字代替（{where}{more}），请重点复核。"


def review_card(draft: Draft, checks: list[Check], fallbacks: list[str]) -> ReviewCard:
    """`fallbacks`: the draft's and those of the stages before it (notes)."""
    paragraphs = sum(len(s.paragraphs) for s in draft.zh.sections)
    verdict, reasons = verdict_of(checks, draft.revisions, paragraphs)
    readers = " · ".join(draft.tags) or "AI 基础设施"
    strengths = strengths_of(draft, checks)
    lines = [f"{verdict}：{'；'.join(reasons)}。"]
    if line := fallback_line(fallbacks):
        lines.append(line)
    if strengths:
        lines.append(f"{'，'.join(strengths)}。")
    lines.append(f"适合关注 {readers} 的 AI 基础设施工程师阅读。")
    lines.append(f"风险：{'；'.join(risks_of(draft))}。")
    return ReviewCard(
        verdict=verdict, summary=summary_of(draft), assessment="".join(lines), reasons=reasons
    )
