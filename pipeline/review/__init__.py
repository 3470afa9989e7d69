"""The review stage (review.json): checks a reviewer would otherwise do by hand, each with
findings, the fallbacks the ledger marked, and a verdict.

Each sentence was checked against its own source when it was written (pipeline.core.checks);
the review gathers those results and runs what only the whole article shows: citations,
languages, prompt echoes, repeats, the house terms, headings and copying.
"""

from collections.abc import Iterator

from pipeline.core import terminology
from pipeline.core.checks import grounded_checks
from pipeline.core.grounding import (
    copied_share,
    duplicate_of,
    is_echo,
    is_fragment,
    prompt_lines,
    repeated_sentences,
    wrong_language_sentences,
)
from pipeline.core.prompts import Prompt
from pipeline.core.text import other_language, shorten
from pipeline.outline.headings import ROLE_NAMES, normal
from pipeline.review.card import review_card
from pipeline.schema import (
    Check,
    Draft,
    DraftParagraph,
    DraftText,
    Evidence,
    Finding,
    Ledger,
    LedgerSentence,
    Place,
    Review,
    SentenceCheck,
)
from pipeline.schema.checks import ArticleCheckName


def paragraphs(draft: DraftText) -> Iterator[tuple[Place, DraftParagraph]]:
    for s, section in enumerate(draft.sections, start=1):
        for p, paragraph in enumerate(section.paragraphs, start=1):
            yield Place(lang=draft.lang, part="paragraph", chapter=s, paragraph=p), paragraph


def heading_place(draft: DraftText, chapter: int) -> Place:
    return Place(lang=draft.lang, part="heading", chapter=chapter)


def headings(draft: DraftText) -> Iterator[tuple[Place, str]]:
    yield Place(lang=draft.lang, part="title"), draft.title
    for s, section in enumerate(draft.sections, start=1):
        if section.title:  # the lead stands without one
            yield heading_place(draft, s), section.title


def check(name: ArticleCheckName, findings: list[Finding]) -> Check:
    return Check(name=name, passed=not findings, findings=findings)


def check_citations(drafts: tuple[DraftText, ...], evidence: Evidence) -> Check:
    known = evidence.by_id()
    findings = []
    for draft in drafts:
        for where, par in paragraphs(draft):
            if not par.citations:
                findings.append(Finding(place=where, detail="no citation"))
            findings += [
                Finding(place=where, detail=f"unknown evidence id {c}")
                for c in par.citations
                if c not in known
            ]
    return check("citations", findings)


def check_languages(drafts: tuple[DraftText, ...], terms: list[str]) -> Check:
    findings = [
        Finding(place=where, detail=f"not in {draft.lang}: {sentence!r}")
        for draft in drafts
        for where, text in [*headings(draft), *((w, p.text) for w, p in paragraphs(draft))]
        for sentence in wrong_language_sentences(text, draft.lang, terms)
    ]
    return check("languages", findings)


def check_echoes(drafts: tuple[DraftText, ...], prompts: list[Prompt], tags: list[str]) -> Check:
    lines = prompt_lines(prompts)
    texts = [(Place(part="tags"), " · ".join(tags))]
    for draft in drafts:
        texts += [*headings(draft), (Place(lang=draft.lang, part="summary"), draft.summary)]
        texts += [(where, par.text) for where, par in paragraphs(draft)]
    return check(
        "no_prompt_echo",
        [Finding(place=w, detail="repeats the prompt") for w, t in texts if is_echo(t, lines)],
    )


def check_duplicates(drafts: tuple[DraftText, ...]) -> Check:
    findings = []
    for draft in drafts:
        items = list(paragraphs(draft))
        for i, (where, par) in enumerate(items):
            if (j := duplicate_of(par.text, [p.text for _, p in items[:i]])) is not None:
                findings.append(Finding(place=where, detail=f"repeats {items[j][0]}"))
    return check("no_duplicate_paragraphs", findings)


def check_repeats(drafts: tuple[DraftText, ...]) -> Check:
    """No sentence said twice in an article, in another paragraph or the same one."""
    findings = []
    for draft in drafts:
        items = list(paragraphs(draft))
        findings += [
            Finding(place=items[i][0], detail=f"says again {shorten(sentence, 12)!r}")
            for i, sentence in repeated_sentences([par.text for _, par in items])
        ]
    return check("no_repeated_sentences", findings)


def check_terminology(draft: Draft, source_language: str) -> Check:
    """The house's Chinese terms: never a word-by-word form ("令牌" for token), and in a
    translation from English each term of the source in one of its forms."""
    english = dict(paragraphs(draft.en)) if source_language != "zh" else {}
    findings = []
    for where, par in [*paragraphs(draft.zh), *headings(draft.zh)]:
        text = par.text if isinstance(par, DraftParagraph) else par
        source = english.get(where.of("en"))
        findings += [
            Finding(place=where, detail=problem)
            for problem in terminology.violations(text, source.text if source else None)
        ]
    return check("terminology", findings)


def check_titles(drafts: tuple[DraftText, ...], evidence: Evidence) -> Check:
    lines = evidence.lines()
    findings = [
        Finding(place=where, detail=f"{title!r} is a fragment of a slide or sentence")
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
        [
            Finding(
                place=Place(lang=draft.lang, part="text"),
                detail=f"{share:.0%} of the text is the transcript's words",
            )
        ]
        if share > MAX_COPIED_SHARE
        else []
    )
    return check("own_words", findings)


def check_headings(drafts: tuple[DraftText, ...]) -> Check:
    """Each chapter's heading says what it is about: not a role's name ("Mechanism"), not
    another chapter's heading."""
    findings = []
    for draft in drafts:
        seen: dict[str, int] = {}
        for s, section in enumerate(draft.sections, start=1):
            where, key = heading_place(draft, s), normal(section.title)
            if key in ROLE_NAMES:
                findings.append(Finding(place=where, detail=f"{section.title!r} is a role's name"))
            elif key in seen:
                detail = f"{section.title!r} heads chapter {seen[key]} too"
                findings.append(Finding(place=where, detail=detail))
            seen.setdefault(key, s)
    return check("headings_name_chapters", findings)


def added(sentence: LedgerSentence, lang: str, made_from: dict[str, str]) -> list[SentenceCheck]:
    """What the sentence adds in `lang` (the ledger's first language or its translation):
    a fact to its source, run again on the final text; a heading, title or summary as
    checked when it was written (against what its sections state); a translation to the
    sentence it translates. English from Chinese writes Chinese terms in Latin letters
    ("GPU" for 显卡): there only an added number counts."""
    first = sentence.text(lang)
    if sentence.id not in made_from:
        return [c for c in first.checks if c.check in ("numbers", "names")]
    return grounded_checks(first.text, made_from[sentence.id])


def check_grounded(ledger: Ledger) -> Check:
    """No sentence of the article adds a number or name to what it is made from
    (pipeline.core.checks; see added)."""
    lang = ledger.language
    sources = {source.id: source for source in ledger.sources}
    made_from = {
        s.id: f"{sources[s.source].context}\n{sources[s.source].text}"
        for s in ledger.sentences
        if s.source in sources
    }
    other = other_language(lang)
    places = {language: ledger.places(language) for language in (lang, other)}
    findings = []
    for sentence in (s for s in ledger.sentences if s.id in places[lang]):
        checks = [(lang, c) for c in added(sentence, lang, made_from)]
        if (second := sentence.text(other)) is not None:
            origin = f"{sentence.text(lang).text}\n{made_from.get(sentence.id, '')}"
            translated = grounded_checks(second.text, origin)
            checks += [(other, c) for c in translated if other == "zh" or c.check == "numbers"]
        findings += [
            Finding(place=places[language][sentence.id], detail=f"{c.check}: {c.detail}")
            for language, c in checks
            if not c.passed
        ]
    return check("sentences_grounded", findings)


def review(
    ledger: Ledger,
    evidence: Evidence,
    source_language: str,
    terms: list[str],
    prompts: list[Prompt],
) -> Review:
    """The checks, the verdict by written rules, and the card, built in code from the
    article the ledger composes."""
    draft = ledger.draft()
    drafts = draft.texts()  # (zh, en)
    source = draft.text(source_language)
    checks = [
        check_citations(drafts, evidence),
        check_grounded(ledger),
        check_languages(drafts, terms),
        check_echoes(drafts, prompts, draft.tags),
        check_duplicates(drafts),
        check_repeats(drafts),
        check_terminology(draft, source_language),
        check_titles(drafts, evidence),
        check_headings(drafts),
        check_own_words(source, evidence),
    ]
    verdict = "pass" if all(c.passed for c in checks) else "fail"
    card = review_card(draft, checks)
    return Review(checks=checks, verdict=verdict, revisions=draft.revisions, card=card)
