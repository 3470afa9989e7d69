"""The review stage (review.json): checks a reviewer would otherwise do by hand, each with
findings, the revisions drafting made, and a verdict.

The grounding checks are the ones drafting revised against (pipeline.core.grounding): here they
run on the final text of both languages, so what drafting could not fix shows up.
"""

from collections.abc import Iterator

from pipeline.core import fidelity, terminology
from pipeline.core.grounding import (
    cited_text,
    copied_share,
    duplicate_of,
    flipped_words,
    invented_numbers,
    is_echo,
    is_fragment,
    misbound_numbers,
    missing_numbers,
    prompt_lines,
    repeated_sentences,
    split_sentences,
    unsupported_sentences,
    wrong_language_sentences,
)
from pipeline.core.prompts import Prompt
from pipeline.core.text import numbers, shorten
from pipeline.outline import ROLE_NAMES, normal
from pipeline.review.card import review_card
from pipeline.schema import Check, Draft, DraftParagraph, DraftText, Evidence, Review


def paragraphs(draft: DraftText) -> Iterator[tuple[str, DraftParagraph]]:
    for s, section in enumerate(draft.sections, start=1):
        for p, paragraph in enumerate(section.paragraphs, start=1):
            yield f"{draft.lang} §{s}¶{p}", paragraph


def headings(draft: DraftText) -> Iterator[tuple[str, str]]:
    yield f"{draft.lang} title", draft.title
    for s, section in enumerate(draft.sections, start=1):
        yield f"{draft.lang} §{s} title", section.title


def check(name: str, findings: list[str]) -> Check:
    return Check(name=name, passed=not findings, findings=findings)


def check_citations(drafts: tuple[DraftText, ...], evidence: Evidence) -> Check:
    known = evidence.by_id()
    findings = []
    for draft in drafts:
        for where, par in paragraphs(draft):
            if not par.citations:
                findings.append(f"{where}: no citation")
            findings += [
                f"{where}: unknown evidence id {c}" for c in par.citations if c not in known
            ]
    return check("citations", findings)


def check_same_structure(english: DraftText, chinese: DraftText) -> Check:
    shape_en = [(s.role, [p.citations for p in s.paragraphs]) for s in english.sections]
    shape_zh = [(s.role, [p.citations for p in s.paragraphs]) for s in chinese.sections]
    same = shape_en == shape_zh
    return check("same_structure", [] if same else ["zh and en differ in chapters or citations"])


def check_numbers(drafts: tuple[DraftText, ...], evidence: Evidence) -> Check:
    """Every number comes from the cited units; both languages carry the same numbers."""
    units, findings = evidence.by_id(), []
    for draft in drafts:
        for where, par in paragraphs(draft):
            for number in invented_numbers(par.text, cited_text(par.citations, units)):
                findings.append(f"{where}: {number} is not in the cited evidence")
    zh = dict(paragraphs(drafts[0]))
    for where, par in paragraphs(drafts[1]):
        other = zh.get(where.replace("en ", "zh ", 1))
        if other is not None and (
            missing_numbers(numbers(par.text), other.text)
            or missing_numbers(numbers(other.text), par.text)
        ):
            findings.append(f"{where}: the zh and en paragraphs carry different numbers")
    return check("numbers_grounded", findings)


def check_bindings(drafts: tuple[DraftText, ...], evidence: Evidence) -> Check:
    """Every number stays with what it measures in the cited units; no word is flipped
    into its negation."""
    units, findings = evidence.by_id(), []
    for draft in drafts:
        for where, par in paragraphs(draft):
            source = cited_text(par.citations, units)
            for sentence in split_sentences(par.text):
                findings += [
                    f"{where}: {n} is paired with another number's subject"
                    for n in misbound_numbers(sentence, source)
                ]
                findings += [
                    f"{where}: {w!r} says the opposite of the cited evidence"
                    for w in flipped_words(sentence, source)
                ]
    return check("numbers_bound", findings)


def check_support(draft: DraftText, evidence: Evidence) -> Check:
    """In the language the talk was given in, where words can be compared with the units."""
    units = evidence.by_id()
    return check(
        "sentences_supported",
        [
            f"{where}: unsupported: {sentence!r}"
            for where, par in paragraphs(draft)
            for sentence in unsupported_sentences(par.text, cited_text(par.citations, units))
        ],
    )


def check_languages(drafts: tuple[DraftText, ...], terms: list[str]) -> Check:
    findings = [
        f"{where}: not in {draft.lang}: {sentence!r}"
        for draft in drafts
        for where, text in [*headings(draft), *((w, p.text) for w, p in paragraphs(draft))]
        for sentence in wrong_language_sentences(text, draft.lang, terms)
    ]
    return check("languages", findings)


def check_echoes(drafts: tuple[DraftText, ...], prompts: list[Prompt], tags: list[str]) -> Check:
    lines = prompt_lines(prompts)
    texts = [("tags", " · ".join(tags))]
    for draft in drafts:
        texts += [*headings(draft), (f"{draft.lang} summary", draft.summary)]
        texts += [(where, par.text) for where, par in paragraphs(draft)]
    return check(
        "no_prompt_echo", [f"{w}: repeats the prompt" for w, t in texts if is_echo(t, lines)]
    )


def check_duplicates(drafts: tuple[DraftText, ...]) -> Check:
    findings = []
    for draft in drafts:
        items = list(paragraphs(draft))
        for i, (where, par) in enumerate(items):
            if (j := duplicate_of(par.text, [p.text for _, p in items[:i]])) is not None:
                findings.append(f"{where} repeats {items[j][0]}")
    return check("no_duplicate_paragraphs", findings)


def check_repeats(drafts: tuple[DraftText, ...]) -> Check:
    """No sentence said twice in an article, in another paragraph or the same one."""
    findings = []
    for draft in drafts:
        items = list(paragraphs(draft))
        findings += [
            f"{items[i][0]}: says again {shorten(sentence, 12)!r}"
            for i, sentence in repeated_sentences([par.text for _, par in items])
        ]
    return check("no_repeated_sentences", findings)


def check_fidelity(draft: Draft, source_language: str) -> Check:
    """Each translated paragraph says what its source paragraph says (pipeline.core.fidelity)."""
    source, target = (draft.zh, draft.en) if source_language == "zh" else (draft.en, draft.zh)
    originals = dict(paragraphs(source))
    findings = []
    for where, par in paragraphs(target):
        original = originals.get(where.replace(f"{target.lang} ", f"{source.lang} ", 1))
        if original is not None:
            findings += [
                f"{where}: {problem}"
                for problem in fidelity.unfaithful(original.text, par.text, target.lang)
            ]
    return check("translations_faithful", findings)


def check_terminology(draft: Draft, source_language: str) -> Check:
    """The house's Chinese terms: never a word-by-word form ("令牌" for token), and in a
    translation from English each term of the source in one of its forms."""
    english = dict(paragraphs(draft.en)) if source_language != "zh" else {}
    findings = []
    for where, par in [*paragraphs(draft.zh), *headings(draft.zh)]:
        text = par.text if isinstance(par, DraftParagraph) else par
        source = english.get(where.replace("zh ", "en ", 1))
        findings += [
            f"{where}: {problem}"
            for problem in terminology.violations(text, source.text if source else None)
        ]
    return check("terminology", findings)


def check_titles(drafts: tuple[DraftText, ...], evidence: Evidence) -> Check:
    lines = evidence.lines()
    findings = [
        f"{where}: {title!r} is a fragment of a slide or sentence"
        for draft in drafts
        for where, title in headings(draft)
        if is_fragment(title, lines)
    ]
    return check("titles_not_fragments", findings)


# Articles written from speech copy 0.23-0.29 of their words in runs of 8 (words, or Chinese
# characters) from it on the dev cases; one that is mostly the lecture's subtitle cues, 0.53.
MAX_COPIED_SHARE = 0.45


def check_own_words(draft: DraftText, evidence: Evidence) -> Check:
    """The article says what was said in its own words: it is not mostly runs of the
    transcript copied word for word (spoken sentences, fillers and all)."""
    said = " ".join(u.text for u in evidence.units if u.kind == "transcript")
    written = " ".join(p.text for _, p in paragraphs(draft))
    share = copied_share(written, said, draft.lang) if said and written else 0.0
    findings = (
        [f"{draft.lang}: {share:.0%} of the text is copied word for word from the transcript"]
        if share > MAX_COPIED_SHARE
        else []
    )
    return check("own_words", findings)


def check_headings(drafts: tuple[DraftText, ...]) -> Check:
    """Each chapter's heading says what it is about: not a role's name ("Mechanism"), not
    another chapter's heading."""
    findings = []
    for draft in drafts:
        seen: dict[str, str] = {}
        for s, section in enumerate(draft.sections, start=1):
            where, key = f"{draft.lang} §{s} title", normal(section.title)
            if key in ROLE_NAMES:
                findings.append(f"{where}: {section.title!r} is a role's name")
            elif key in seen:
                findings.append(f"{where}: {section.title!r} heads {seen[key]} too")
            seen.setdefault(key, f"§{s}")
    return check("headings_name_chapters", findings)


def review(
    draft: Draft,
    evidence: Evidence,
    source_language: str,
    terms: list[str],
    prompts: list[Prompt],
    notes_fallbacks: list[str] = (),
) -> Review:
    """The checks, the verdict by written rules, and the card, built in code from the
    article's own sentences; `notes_fallbacks` are the notes stage's, for the card to say
    where fallbacks stand in."""
    drafts = draft.texts()  # (zh, en)
    source = draft.text(source_language)
    checks = [
        check_citations(drafts, evidence),
        check_same_structure(draft.en, draft.zh),
        check_numbers(drafts, evidence),
        check_bindings(drafts, evidence),
        check_support(source, evidence),
        check_languages(drafts, terms),
        check_echoes(drafts, prompts, draft.tags),
        check_duplicates(drafts),
        check_repeats(drafts),
        check_terminology(draft, source_language),
        check_fidelity(draft, source_language),
        check_titles(drafts, evidence),
        check_headings(drafts),
        check_own_words(source, evidence),
    ]
    verdict = "pass" if all(c.passed for c in checks) else "fail"
    fallbacks = [f"notes {f}" for f in notes_fallbacks] + draft.fallbacks
    card = review_card(draft, checks, fallbacks)
    return Review(checks=checks, verdict=verdict, revisions=draft.revisions, card=card)
