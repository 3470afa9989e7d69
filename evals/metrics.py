"""What a reviewer needs to know about one talk's outputs, as numbers: speech recognition,
timeline, article quality, zh/en parity, Chinese typesetting lint, cost.

Figures that need a truth (WER, timeline accuracy, facts covered) are None without one;
everything else is measured on any talk. Every figure says which way is better (BETTER).
"""

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import jiwer
from autocorrect_py import lint_for

from evals.text import cited_text, is_dump, keeps_name, kept_terms
from pipeline.core import fidelity
from pipeline.core.checks import proper_names, stray_latin
from pipeline.core.grounding import (
    MIN_SUPPORT,
    copied_share,
    duplicate_of,
    invented_numbers,
    is_echo,
    is_fragment,
    mentions,
    prompt_lines,
    repeated_sentences,
    split_sentences,
    support,
    wrong_language_sentences,
)
from pipeline.core.prompts import load_prompt
from pipeline.core.text import TECHNICAL, numbers
from pipeline.core.voice import FIRST_PERSON
from pipeline.ledger import LedgerPrompts
from pipeline.ledger.arrange import MIN_CHAPTER_FACTS
from pipeline.questions import QuestionPrompts
from pipeline.review import check_terminology
from pipeline.schema import (
    Draft,
    DraftSection,
    DraftText,
    Evidence,
    Ledger,
    Notes,
    Questions,
    RunRecord,
    Timeline,
    Transcript,
)

PROMPTS = ("outline", "outline_heading", *LedgerPrompts.NAMES, *QuestionPrompts.NAMES)
LOW_CONFIDENCE = -1.0  # avg_logprob below this: Whisper was unsure of the segment
PART_N = re.compile(r"Part \d+|第\s*\d+\s*部分")
NORMALISE = jiwer.Compose(
    [jiwer.ToLowerCase(), jiwer.RemovePunctuation(), jiwer.RemoveMultipleSpaces(), jiwer.Strip()]
)
# +1: higher is better, -1: lower is better (regressions are judged this way).
BETTER = {
    "wer": -1,
    "term_accuracy": 1,
    "low_confidence_share": -1,
    "timeline_accuracy": 1,
    "facts_covered": 1,
    "invented_numbers": -1,
    "unsupported_sentences": -1,
    "copied_share": -1,
    "copied_share_zh": -1,
    "speaker_voice_sentences": -1,
    "latin_words_in_zh": -1,
    "prompt_echoes": -1,
    "wrong_language_sentences": -1,
    "duplicate_paragraphs": -1,
    "duplicate_sentences": -1,
    "misbound_numbers": -1,
    "slide_dumps": -1,
    "recognition_leaks": -1,
    "stub_chapters": -1,
    "fragment_headings": -1,
    "zh_term_violations": -1,
    "unfaithful_translations": -1,
    "terms_right_en": 1,
    "terms_right_zh": 1,
    "sections_cited": 1,
    "parity": 1,
    "cjk_lint": -1,
    "llm_seconds": -1,
    "llm_tokens": -1,
    "seconds": -1,
}


@dataclass
class Truth:
    """What a golden case knows for sure (evals/cases/<case>/truth.yaml)."""

    language: str = "en"
    terms: list[str] = field(default_factory=list)
    facts: list[dict] = field(default_factory=list)
    reference: str | None = None  # what was said, for WER
    slides: list[tuple[int, float, float]] = field(default_factory=list)  # (slide, start, end)
    # A number and what it measures: a sentence with the number and a `wrong` term but no
    # `subject` term gives it to something else.
    bindings: list[dict] = field(default_factory=list)
    misheard: list[str] = field(default_factory=list)  # recognition errors, never to print


# A truth's unit word and the sign an article may write instead ("60 to 80%").
UNIT_SIGNS = {"percent": "%"}


def in_text(term: str, text: str) -> bool:
    """Names and identifiers as spelled; ordinary words in any case."""
    if TECHNICAL.search(term):
        return term in text
    sign = UNIT_SIGNS.get(term.lower())
    return term.lower() in text.lower() or bool(sign and sign in text)


def paragraphs(draft: DraftText):
    return [p for s in draft.sections for p in s.paragraphs]


def share(part: float, whole: float) -> float | None:
    return round(part / whole, 3) if whole else None


def read(out: Path, name: str, contract):
    path = out / name
    return contract.model_validate_json(path.read_text()) if path.is_file() else None


def asr_metrics(transcript: Transcript | None, truth: Truth | None) -> dict:
    if transcript is None:
        return {"wer": None, "term_accuracy": None, "low_confidence_share": None}
    said = " ".join(s.text for s in transcript.segments)
    wer = None
    if truth and truth.reference and transcript.source == "asr":
        wer = round(jiwer.wer(NORMALISE(truth.reference), NORMALISE(said)), 3)
    reference = truth.reference if truth and truth.reference else None
    expected = [t for t in transcript.vocabulary if not reference or in_text(t, reference)]
    unsure = sum(
        s.end - s.start
        for s in transcript.segments
        if s.avg_logprob is not None and s.avg_logprob < LOW_CONFIDENCE
    )
    return {
        "wer": wer,
        "term_accuracy": share(sum(in_text(t, said) for t in expected), len(expected)),
        "low_confidence_share": share(unsure, transcript.duration),
    }


def timeline_metrics(timeline: Timeline | None, truth: Truth | None) -> dict:
    if not timeline or not truth or not truth.slides:
        return {"timeline_accuracy": None}
    right = sum(
        max(0.0, min(end, s.end) - max(start, s.start))
        for slide, start, end in truth.slides
        for s in timeline.spans
        if s.slide == slide
    )
    return {"timeline_accuracy": share(right, sum(end - start for _, start, end in truth.slides))}


def article_metrics(
    draft: Draft, evidence: Evidence, notes: Notes | None, said: str, terms: list[str], truth
) -> dict:
    units, language = evidence.by_id(), notes.language if notes else "en"
    source = draft.text(language)
    texts = {"en": draft.en, "zh": draft.zh}

    def cited(paragraph) -> str:
        return cited_text(paragraph.citations, units)

    facts, missed = None, []
    if truth and truth.facts:
        found = [
            any(
                all(in_text(t, p.text) for t in fact.get("terms", []))
                and all(n in numbers(p.text) for n in fact.get("numbers", []))
                for p in paragraphs(source)
            )
            for fact in truth.facts
        ]
        facts = share(sum(found), len(found))
        missed = [fact for fact, ok in zip(truth.facts, found, strict=True) if not ok]
    sentences = [(s, cited(p)) for p in paragraphs(source) for s in split_sentences(p.text)]
    unsupported = [s for s, src in sentences if support(s, src) < MIN_SUPPORT]
    lines = prompt_lines([load_prompt(p) for p in PROMPTS])
    all_text = [" · ".join(draft.tags)]
    wrong = duplicates = invented = repeated = 0
    for lang, text in texts.items():
        headings = [text.title, *(s.title for s in text.sections)]
        all_text += [text.summary, *headings]
        earlier: list[str] = []
        repeated += len(repeated_sentences([p.text for p in paragraphs(text)]))
        for p in paragraphs(text):
            all_text.append(p.text)
            invented += len(invented_numbers(p.text, cited(p)))
            wrong += len(wrong_language_sentences(p.text, lang, terms))
            duplicates += duplicate_of(p.text, earlier) is not None
            earlier.append(p.text)
        wrong += sum(bool(wrong_language_sentences(h, lang, terms)) for h in headings)
    body = {lang: " ".join(p.text for p in paragraphs(t)) for lang, t in texts.items()}
    cited_ids = {c for t in texts.values() for p in paragraphs(t) for c in p.citations}
    sections = notes.sections if notes else []
    covered = [any(u in cited_ids for u in s.unit_ids) for s in sections]
    names = kept_terms(terms)
    # The review's own check, counted over the paragraphs (not the headings).
    places = [f.place for f in check_terminology(draft, language).findings]
    term_problems = sum(place.part == "paragraph" for place in places)
    unfaithful = unfaithful_paragraphs(draft, language)
    leaks = [m for m in (truth.misheard if truth else []) for t in all_text if mentions(t, m)]
    return {
        "misbound_numbers": misbound(source, truth),
        "slide_dumps": slide_dumps(source, evidence),
        "recognition_leaks": len(leaks),
        "zh_term_violations": term_problems,
        "unfaithful_translations": unfaithful,
        "facts_covered": facts,
        "missed_facts": missed,
        "invented_numbers": invented,
        "unsupported_sentences": share(len(unsupported), len(sentences)),
        "copied_share": round(copied_share(body[language], said, language), 3),
        "copied_share_zh": round(copied_share(body["zh"], said, "zh"), 3)
        if language == "zh"
        else None,
        "prompt_echoes": sum(is_echo(t, lines) for t in all_text if t),
        "wrong_language_sentences": wrong,
        "duplicate_paragraphs": duplicates,
        "duplicate_sentences": repeated,
        "terms_right_en": share(sum(in_text(t, body["en"]) for t in terms), len(terms)),
        "terms_right_zh": share(sum(keeps_name(body["zh"], t) for t in names), len(names)),
        "sections_cited": share(sum(covered), len(covered)),
    }


def voice_and_latin(draft: Draft, terms: list[str]) -> dict:
    """Sentences written in the speaker's voice ("I", "we", "我们"), in either language,
    and English words a Chinese sentence leaves that are no name and no term kept in Latin
    (the ledger's own checks, counted over the composed article)."""
    voiced = 0
    for lang, text in (("en", draft.en), ("zh", draft.zh)):
        sentences = [text.title, text.summary, *(s.title for s in text.sections)]
        sentences += [s for p in paragraphs(text) for s in split_sentences(p.text)]
        voiced += sum(bool(FIRST_PERSON[lang].search(s)) for s in sentences if s)
    pairs = [(draft.zh.title, draft.en.title), (draft.zh.summary, draft.en.summary)]
    pairs += [(z.title, e.title) for z, e in zip(draft.zh.sections, draft.en.sections, strict=True)]
    pairs += [
        (z.text, e.text) for z, e in zip(paragraphs(draft.zh), paragraphs(draft.en), strict=True)
    ]
    latin = sum(len(stray_latin(z, [*terms, *proper_names(e)])) for z, e in pairs if z)
    return {"speaker_voice_sentences": voiced, "latin_words_in_zh": latin}


def unfaithful_paragraphs(draft: Draft, language: str) -> int:
    """Translated paragraphs that do not say what their source paragraph says."""
    source, target = (draft.zh, draft.en) if language == "zh" else (draft.en, draft.zh)
    pairs = zip(paragraphs(source), paragraphs(target), strict=False)
    return sum(bool(fidelity.unfaithful(s.text, t.text, target.lang)) for s, t in pairs)


def misbound(source: DraftText, truth: Truth | None) -> int | None:
    """Sentences that pair a number with what the truth says it does not measure."""
    if not truth or not truth.bindings:
        return None
    count = 0
    for sentence in (s for p in paragraphs(source) for s in split_sentences(p.text)):
        for binding in truth.bindings:
            if binding["number"] not in numbers(sentence):
                continue
            wrong = any(in_text(t, sentence) for t in binding.get("wrong", []))
            right = any(in_text(t, sentence) for t in binding.get("subject", []))
            count += wrong and not right
    return count


def slide_dumps(source: DraftText, evidence: Evidence) -> int:
    """Long sentences that are mostly a slide's text copied word for word."""
    slides = [u.text for u in evidence.units if u.kind == "slide"]
    sentences = [s for p in paragraphs(source) for s in split_sentences(p.text)]
    return sum(any(is_dump(s, slide, source.lang) for slide in slides) for s in sentences)


def heading_metrics(draft: Draft, evidence: Evidence, language: str) -> dict:
    """Chapters too thin to stand, and headings that are cut slide lines or "Part N"."""
    lines = evidence.lines()
    source = draft.text(language)
    stubs = sum(sentence_count(s) < MIN_CHAPTER_FACTS for s in source.sections)
    fragments = sum(
        is_fragment(s.title, lines) or bool(PART_N.fullmatch(s.title.strip()))
        for text in draft.texts()
        for s in text.sections
    )
    return {"stub_chapters": stubs, "fragment_headings": fragments}


def parity(draft: Draft) -> float:
    """Share of paragraphs whose zh and en versions carry the same numbers, in the same
    chapters and citations (1.0: the two articles say the same things)."""
    pairs = list(zip(paragraphs(draft.zh), paragraphs(draft.en), strict=False))
    same_shape = len(paragraphs(draft.zh)) == len(paragraphs(draft.en))
    same = [z.citations == e.citations and numbers(z.text) == numbers(e.text) for z, e in pairs]
    return round(sum(same) / len(same), 3) if same and same_shape else 0.0


def sentence_count(chapter: DraftSection) -> int:
    return sum(len(split_sentences(p.text)) for p in chapter.paragraphs)


LLM_STAGES = ("outline", "ledger")


def qa_metrics(
    questions: Questions | None, ledger: Ledger, evidence: Evidence, language: str
) -> dict:
    """The companion in questions and answers: how many, and what its answers (composed
    from `ledger`) say that their cited passages do not (sentences unsupported, in the
    language written first; numbers, in both)."""
    if questions is None:
        return {"qa_questions": 0, "qa_unsupported": None, "qa_invented_numbers": None}
    units = evidence.by_id()
    answers = {lang: [a for _, a in questions.answered(ledger, lang)] for lang in ("en", "zh")}
    first = answers[language]
    sentences = [(s, a) for a in first for s in split_sentences(a.text)]
    return {
        "qa_questions": len(first),
        "qa_unsupported": sum(
            support(s, cited_text(a.citations, units)) < MIN_SUPPORT for s, a in sentences
        ),
        "qa_invented_numbers": sum(
            len(invented_numbers(a.text, cited_text(a.citations, units)))
            for a in [*answers["en"], *answers["zh"]]
        ),
    }


def cost(out: Path, run: RunRecord | None) -> dict:
    calls = []
    if (out / "llm_calls.jsonl").is_file():
        calls = [json.loads(x) for x in (out / "llm_calls.jsonl").read_text().splitlines() if x]
    usage = [c.get("usage", {}) for c in calls]
    stages = {s.name: s.seconds for s in run.stages} if run else {}
    # Wall time of the stages that call the LLM (server start included): calls of a stage
    # run in parallel, so their own seconds add up to more than the wait.
    llm_stages = [s.seconds for s in run.stages if s.name in LLM_STAGES] if run else []
    return {
        "llm_calls": len(calls),
        "llm_tokens": sum(u.get("total_tokens", 0) for u in usage),
        "llm_prompt_tokens": sum(u.get("prompt_tokens", 0) for u in usage),
        "llm_generated_tokens": sum(u.get("completion_tokens", 0) for u in usage),
        "llm_seconds": round(sum(llm_stages), 1),
        "qa_seconds": stages.get("questions"),
        "llm_call_seconds": round(sum(c.get("seconds", 0) for c in calls), 1),
        "seconds": round(sum(stages.values()), 1),
        "stage_seconds": stages,
    }


def talk_metrics(out: Path, truth: Truth | None = None) -> dict:
    """Every figure of one talk's outputs folder."""
    transcript = read(out, "transcript.json", Transcript)
    ledger = read(out, "ledger.json", Ledger)
    draft = ledger.draft() if ledger else None
    evidence = read(out, "evidence.json", Evidence)
    run = read(out, "run.json", RunRecord)
    figures = asr_metrics(transcript, truth)
    figures |= timeline_metrics(read(out, "timeline.json", Timeline), truth)
    if draft and evidence:
        terms = (
            truth.terms if truth and truth.terms else transcript.vocabulary if transcript else []
        )
        said = " ".join(s.text for s in transcript.segments) if transcript else ""
        notes = read(out, "notes.json", Notes)
        figures |= article_metrics(draft, evidence, notes, said, terms, truth)
        figures |= voice_and_latin(draft, terms)
        figures |= heading_metrics(draft, evidence, notes.language if notes else "en")
        questions = read(out, "questions.json", Questions)
        figures |= qa_metrics(questions, ledger, evidence, notes.language if notes else "en")
        figures["parity"] = parity(draft)
    zh = out / "article.zh.md"
    figures["cjk_lint"] = len(lint_for(zh.read_text(), "md").lines) if zh.is_file() else None
    figures |= cost(out, run)
    figures["status"] = run.status if run else None
    return figures
