"""The review stage (review.json): checks a reviewer would otherwise do by hand, each with
findings, and a verdict."""

from rapidfuzz import fuzz

from pipeline.schema import Check, Draft, DraftText, Evidence, Review
from pipeline.text import CHINESE_PROSE_SHARE, cjk_share, has_cjk, near_duplicate, numbers

MIN_PARAGRAPH_WORDS = 15


def _paragraphs(draft: DraftText):
    for s, section in enumerate(draft.sections, start=1):
        for p, paragraph in enumerate(section.paragraphs, start=1):
            yield f"{draft.lang} §{s}¶{p}", paragraph


def check_citations_resolve(drafts: list[DraftText], evidence: Evidence) -> Check:
    known = evidence.by_id()
    findings = [
        f"{where}: unknown evidence id {cid}"
        for d in drafts
        for where, par in _paragraphs(d)
        for cid in par.citations
        if cid not in known
    ]
    return Check(name="citations_resolve", passed=not findings, findings=findings)


def check_every_paragraph_cited(drafts: list[DraftText]) -> Check:
    findings = [
        f"{where}: no citation"
        for d in drafts
        for where, par in _paragraphs(d)
        if not par.citations
    ]
    return Check(name="every_paragraph_cited", passed=not findings, findings=findings)


def check_same_structure(english: DraftText, chinese: DraftText) -> Check:
    shape_en = [(s.role, [p.citations for p in s.paragraphs]) for s in english.sections]
    shape_zh = [(s.role, [p.citations for p in s.paragraphs]) for s in chinese.sections]
    findings = (
        []
        if shape_en == shape_zh
        else ["the zh and en drafts differ in chapters, paragraphs or citations"]
    )
    return Check(name="same_structure", passed=not findings, findings=findings)


def check_languages(english: DraftText, chinese: DraftText) -> Check:
    findings = [
        f"{where}: not Chinese prose"
        for where, par in _paragraphs(chinese)
        if cjk_share(par.text) < CHINESE_PROSE_SHARE
    ]
    findings += [
        f"{where}: contains Chinese characters"
        for where, par in _paragraphs(english)
        if has_cjk(par.text)
    ]
    return Check(name="languages", passed=not findings, findings=findings)


def check_numbers_grounded(english: DraftText, chinese: DraftText, evidence: Evidence) -> Check:
    """Numbers must come from the cited evidence and survive translation unchanged."""
    units, findings = evidence.by_id(), []
    zh_paragraphs = dict(_paragraphs(chinese))
    for where, par in _paragraphs(english):
        cited = numbers(" ".join(units[c].text for c in par.citations if c in units))
        for number in sorted(numbers(par.text) - cited):
            findings.append(f"{where}: {number} is not in the cited evidence")
        zh = zh_paragraphs.get(where.replace("en ", "zh ", 1))
        if zh is not None:
            for number in sorted(numbers(par.text) - numbers(zh.text)):
                findings.append(f"{where}: {number} is missing from the Chinese version")
    return Check(name="numbers_grounded", passed=not findings, findings=findings)


def check_no_repeated_paragraphs(english: DraftText) -> Check:
    """Small models restate the same paragraph in several chapters; a reader notices."""
    items, findings = list(_paragraphs(english)), []
    for i, (where_a, a) in enumerate(items):
        for where_b, b in items[i + 1 :]:
            if near_duplicate(a.text, b.text):
                findings.append(f"{where_b} repeats {where_a}")
    return Check(name="no_repeated_paragraphs", passed=not findings, findings=findings)


def check_substantive_paragraphs(english: DraftText) -> Check:
    """A paragraph that only restates its heading, or is a fragment, says nothing checkable."""
    findings = []
    for section_no, section in enumerate(english.sections, start=1):
        for paragraph_no, paragraph in enumerate(section.paragraphs, start=1):
            where = f"en §{section_no}¶{paragraph_no}"
            if len(paragraph.text.split()) < MIN_PARAGRAPH_WORDS:
                findings.append(f"{where}: fewer than {MIN_PARAGRAPH_WORDS} words")
            elif fuzz.partial_ratio(section.title.lower(), paragraph.text.lower()) >= 95 and len(
                paragraph.text
            ) < 1.5 * len(section.title):
                findings.append(f"{where}: restates the chapter title")
    return Check(name="substantive_paragraphs", passed=not findings, findings=findings)


def review(draft: Draft, evidence: Evidence) -> Review:
    english, chinese = draft.en, draft.zh
    checks = [
        check_citations_resolve([english, chinese], evidence),
        check_every_paragraph_cited([english, chinese]),
        check_same_structure(english, chinese),
        check_languages(english, chinese),
        check_numbers_grounded(english, chinese, evidence),
        check_no_repeated_paragraphs(english),
        check_substantive_paragraphs(english),
    ]
    verdict = "pass" if all(c.passed for c in checks) else "fail"
    return Review(checks=checks, verdict=verdict)
