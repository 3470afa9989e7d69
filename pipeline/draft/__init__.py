"""The draft stage (draft.json): each paragraph written from its section's claims in the
talk's language, verified in code, revised once, and translated into the other language.

Notes that copy transcribed speech are first said again one at a time as written sentences
(restated, checked like a paragraph's sentences; a note whose restatement fails stays as
said). Every restatement is recorded with what was said.

Verify and revise: a paragraph with a number its cited units do not have, a sentence they
do not support, a line of the prompt, a sentence in the wrong language, a deck term
misspelt, a number of its notes left out or a repeat of an earlier paragraph is redrafted
once with those findings. If it fails again, its failing sentences are cut when what is
left passes every check; otherwise it is replaced by its claims as they are. Fabricated
text is never kept.
A translation that keeps failing is redone sentence by sentence, and clause by clause; one
into English whose only fault is a few Chinese words left as they were gets those words
translated alone, as meant in their sentence.
Every revision is recorded. A paragraph cites the units of its claims, not its chapter's.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator
from wordfreq import zipf_frequency

from pipeline.core import fidelity, terminology
from pipeline.core.grounding import (
    WORD,
    cited_text,
    copied_share,
    duplicate_of,
    flipped_words,
    invented_numbers,
    is_dump,
    is_echo,
    keeps_name,
    kept_terms,
    misbound_numbers,
    missing_numbers,
    prompt_lines,
    speaks_of_notes,
    split_sentences,
    support,
    tautologies,
    unsupported_sentences,
    without_repeats,
    without_stray_words,
    wrong_language_sentences,
)
from pipeline.core.prompts import REVISE_NOTE, Prompt, load_prompt
from pipeline.core.text import CJK_RUN, LANGUAGE_NAMES, has_cjk, numbers
from pipeline.evidence import term_pattern
from pipeline.llm.client import LLM, InvalidReply
from pipeline.llm.parallel import ordered_map
from pipeline.schema import (
    Claim,
    Draft,
    DraftParagraph,
    DraftSection,
    DraftText,
    Evidence,
    Notes,
    Outline,
    Restatement,
    Revision,
)

MAX_TOKENS = 900
CLAIMS_PER_PARAGRAPH = 4
MIN_CHAPTER_SENTENCES = 3  # a chapter says at least this much, or joins its neighbour
# A paragraph more of whose words sit in runs copied from its passages (8 words, 15 Chinese
# characters) is asked once to say it in its own words: notes copy, an article should not.
MAX_COPIED = 0.35
# A note from speech more of whose words than this are the speech's is said again as
# written text before paragraphs are written from it (restated, below).
SPOKEN_COPY = 0.5
MAX_RESTATED_SENTENCES = 2
MAX_RESTATED_GROWTH = 1.2  # edited speech is shorter than spoken; a longer one adds
RESTATED_MIN_SUPPORT = 0.7  # stricter than a paragraph's sentences: it says one thing again
RESTATE_MAX_TOKENS = 300
# What a revision did when the model's text did not pass: a fallback stands in for it.
FALLBACK_ACTIONS = ("replaced by its claims", "dropped", "kept with findings")
# Findings that say a reply is no answer at all (the prompt said back, most of the text
# lost, another text): one ranks a reply below every reply without, whatever their count.
NO_ANSWER = ("repeats the instructions", "is much shorter", "does not say what the original")
Kind = Literal["title", "summary", "paragraph", "word", "question"]
# Replies asked for at once when a title's or summary's first translation fails: they are
# short, so cheap, and unlike a paragraph they have no sentence-by-sentence way out.
SHORT_CANDIDATES = 3
KIND_NAMES = {
    "zh": {
        "title": "标题",
        "summary": "摘要句",
        "paragraph": "段落",
        "word": "词",
        "question": "问题",
    },
    "en": {
        "title": "title",
        "summary": "summary sentence",
        "paragraph": "paragraph",
        "word": "word",
        "question": "question",
    },
}
# Chinese words an English translation left as they were are translated one by one, as
# meant in their sentence, when there are this few and they are this short (a longer run
# is an untranslated clause: the paragraph is translated sentence by sentence instead).
MAX_LEFT_WORDS = 3
MAX_LEFT_CHARS = 6
MAX_WORD_TRANSLATION = 4  # English words for one Chinese word: more is a sentence
COMMON_ENGLISH = 4.0  # zipf: "Blocks" is a word capitalised, "Huawei" (3.3) a name
QUESTION_MARKS = ("?", "？")
# The speaker's voice: the article speaks of the speaker, never as the speaker.
FIRST_PERSON = re.compile(
    r"(?<![\w/])I(?:'m|'ve)?(?![\w/])|\b(?:[Ww]e(?:'re)?|[Oo]ur)\b|我们|我是"  # not I/O
)
SPACE_BEFORE = re.compile(r"(?<=[(\[]) | (?=[,.;:!?)\]])")


class TextReply(BaseModel):
    text: str = Field(min_length=2, max_length=2000)

    @field_validator("text")
    @classmethod
    def not_blank(cls, text: str) -> str:
        if not text.strip():
            raise ValueError("the text is empty")
        return text.strip()


@dataclass(frozen=True)
class DraftPrompts:
    write_paragraph: Prompt
    translate_zh: Prompt
    translate_en: Prompt
    restate_zh: Prompt
    restate_en: Prompt

    NAMES = ("write_paragraph", "translate_zh", "translate_en", "restate_zh", "restate_en")

    @classmethod
    def load(cls, prompts_dir: Path | None = None) -> "DraftPrompts":
        return cls(*(load_prompt(name, prompts_dir) for name in cls.NAMES))

    def all(self) -> list[Prompt]:
        return [getattr(self, name) for name in self.NAMES]

    def translate(self, target: str) -> Prompt:
        return self.translate_zh if target == "zh" else self.translate_en

    def restate(self, language: str) -> Prompt:
        return self.restate_zh if language == "zh" else self.restate_en


def other(language: str) -> str:
    return "en" if language == "zh" else "zh"


def plain(claims: list[Claim], language: str) -> str:
    """The claims as they are, without a stray word a slide's line left in one: grounded
    by construction, if not elegant."""
    ends = "。！？.!?"
    statements = [without_stray_words(c.statement)[0] for c in claims]
    if language == "zh":
        return "".join(s if s[-1] in ends else s + "。" for s in statements)
    return " ".join(s if s[-1] in ends else s + "." for s in statements)


def notes_listing(claims: list[Claim]) -> str:
    # Statements only: given "(numbers: 100)" beside a note, the model copies it into prose.
    return "\n".join(f"{n}. {claim.statement}" for n, claim in enumerate(claims, start=1))


def citations_of(claims: list[Claim]) -> list[str]:
    return list(dict.fromkeys(u for c in claims for u in c.units))


def revise_note(findings: list[str]) -> str:
    return REVISE_NOTE.format(findings="; ".join(dict.fromkeys(findings)))


@dataclass
class Writer:
    """Writes and verifies paragraphs and headings, recording every revision."""

    llm: LLM
    prompts: DraftPrompts
    evidence: Evidence
    terms: list[str]
    source_language: str
    candidates: int = 1  # replies asked for at once when a first reply fails
    revisions: list[Revision] = field(default_factory=list)
    others: tuple[Prompt, ...] = ()  # prompts besides the draft's a text must not echo

    def __post_init__(self) -> None:
        self.units = self.evidence.by_id()
        self.echo_lines = prompt_lines([*self.prompts.all(), *self.others])

    def run_each(self, work: Callable[["Writer", object], object], jobs: list) -> list:
        """`work(writer, job)` for every job, up to the LLM's slots at once, each with a
        writer of its own; their revisions are added in the jobs' order, so the record does
        not depend on which call finished first."""

        def one(job):
            writer = replace(self, revisions=[])
            return work(writer, job), writer.revisions

        done = ordered_map(one, jobs, self.llm.slots)
        for _, revisions in done:
            self.revisions += revisions
        return [result for result, _ in done]

    # --- checks -------------------------------------------------------------------------

    def paragraph_findings(self, text: str, claims: list[Claim], earlier: list[str]) -> list[str]:
        source = self.cited_text(claims)
        found = self.sentence_findings(text, source)
        noted = set().union(*(numbers(c.statement) for c in claims))
        found += [f"the number {n} of the notes is missing" for n in missing_numbers(noted, text)]
        found += [
            f"the name {t!r} is missing or misspelt"
            for t in kept_terms(list(dict.fromkeys(t for c in claims for t in c.terms)))
            if not keeps_name(text, t)
        ]
        if duplicate_of(text, earlier) is not None:
            found.append("repeats an earlier paragraph")
        found += [
            f"spells out {e}, which the passages do not: keep the acronym as they give it"
            for e in fidelity.expansions(text, source)
        ]
        cited = [self.units[u] for u in citations_of(claims) if u in self.units]
        slides = [u.text for u in cited if u.kind == "slide"]
        found += [
            f"strings the slide's text together word for word: say it in sentences of your "
            f"own: {sentence!r}"
            for sentence in split_sentences(text)
            if any(is_dump(sentence, slide, self.source_language) for slide in slides)
        ]
        return found

    def style_findings(self, text: str, claims: list[Claim]) -> list[str]:
        """What a reviewer would rewrite but that is not wrong: runs copied from the
        passages, the speaker's own voice ("I am a researcher at…")."""
        found = []
        share = copied_share(text, self.cited_text(claims), self.source_language)
        if share > MAX_COPIED:
            # No number in the finding: a small model told "84% is copied" writes the 84 in.
            found.append(
                "long runs of it are copied word for word from the passages: "
                "say it in your own words"
            )
        if FIRST_PERSON.search(text):
            found.append("speaks as the speaker (I, we): say it of the speaker or the team")
        return found

    def sentence_findings(self, text: str, source: str) -> list[str]:
        """What is wrong sentence by sentence: invented numbers, unsupported words, an
        echo of the prompt, the wrong language."""
        found = [f"number {n} is not in the cited passages" for n in invented_numbers(text, source)]
        found += [f"unsupported: {s!r}" for s in unsupported_sentences(text, source)]
        found += binding_findings(text, source)
        found += [f"a stray word, not a sentence: {s!r}" for s in without_stray_words(text)[1]]
        found += [f"says its subject is itself: {s!r}" for s in tautologies(text)]
        return found + self.common_findings(text, self.source_language)

    def pruned(self, text: str, claims: list[Claim], earlier: list[str]) -> str | None:
        """The text without its failing sentences, and with the claims whose numbers or
        names it then lacks added as they are, if that passes every check."""
        source = self.cited_text(claims)
        kept = [s for s in split_sentences(text) if not self.sentence_findings(s, source)]
        if not kept:
            return None
        joiner = "" if self.source_language == "zh" else " "
        rest = joiner.join(kept)
        lacking = [c for c in claims if not self.carries(rest, c)]
        if lacking:
            rest = joiner.join([rest, plain(lacking, self.source_language)])
        return None if self.paragraph_findings(rest, claims, earlier) else rest

    @staticmethod
    def carries(text: str, claim: Claim) -> bool:
        """Whether `text` has the claim's numbers and names (what a reader would miss)."""
        has_numbers = not missing_numbers(numbers(claim.statement), text)
        return has_numbers and all(keeps_name(text, t) for t in kept_terms(claim.terms))

    def translation_findings(self, source: str, text: str, target: str) -> list[str]:
        found = [f"number {n} is missing" for n in missing_numbers(numbers(source), text)]
        found += [f"number {n} is not in the original" for n in invented_numbers(text, source)]
        found += self.common_findings(text, target)
        found += self.name_findings(source, text)
        if target == "zh":
            found += terminology.missing_forms(text, source)
        return found + fidelity.unfaithful(source, text, target)

    def lost_names(self, source: str, text: str) -> list[str]:
        """Names of the source the text lost; a name the glossary gives a Chinese form
        ("GPU memory" as 显存) may be written in it, and so may the names inside it (GPU)."""
        names = self.terms_in(source)
        housed = [t for t in names if terminology.in_house_form(t, text)]
        return [
            t
            for t in names
            if not keeps_name(text, t)
            and t not in housed
            and not any(term_pattern(t).search(h) for h in housed)
        ]

    def name_findings(self, source: str, text: str) -> list[str]:
        return [f"the name {t!r} is missing or misspelt" for t in self.lost_names(source, text)]

    def title_with_names(self, source: str, result: str | None, target: str) -> str | None:
        """A translated title that lost only names, with them put before it as its main
        claim ("SGLang：开源模型性能优化", the house form "main claim：subtitle"), if the whole
        then passes; None otherwise (a title that has a colon already keeps its findings)."""
        colon, joiner = ("：", "、") if target == "zh" else (": ", ", ")
        if not result or colon.strip() in result or has_cjk(result) != (target == "zh"):
            return None
        if not (lost := self.lost_names(source, result)):
            return None
        titled = f"{joiner.join(lost)}{colon}{result}"
        return None if self.name_findings(source, titled) else titled

    def common_findings(self, text: str, language: str) -> list[str]:
        found = ["repeats the instructions"] if is_echo(text, self.echo_lines) else []
        if speaks_of_notes(text):
            found.append("speaks of the notes: say what they say, as the article's own")
        found += [
            f"not in {LANGUAGE_NAMES[language]}: {s!r}"
            for s in wrong_language_sentences(text, language, self.terms)
        ]
        if language == "zh":
            found += terminology.wrong_forms(text)
        return found

    def cited_text(self, claims: list[Claim]) -> str:
        return cited_text([u for c in claims for u in c.units], self.units)

    def terms_in(self, text: str) -> list[str]:
        """The names and identifiers of the vocabulary that `text` uses: a translation keeps
        them as they are."""
        return [t for t in kept_terms(self.terms) if term_pattern(t).search(text)]

    # --- writing ------------------------------------------------------------------------

    def attempt(
        self,
        render: Callable[[str], object],
        check: Callable[[str], list[str]],
        language: str,
        style: Callable[[str], list[str]] = lambda _: [],
        max_tokens: int = MAX_TOKENS,
        candidates: int | None = None,
    ) -> tuple[str | None, list[str], bool]:
        """Two rounds: one reply, then (if it fails) `candidates` (default: the writer's)
        replies at once (the first as warm as the first round, the others other seeds and
        warmer), each told the first one's findings; the first candidate that passes
        without a style finding is kept, else the first that passes, else the one with the
        fewest findings (a reply that is no answer last).
        Returns the text (None if the endpoint never gave one), the findings that caused a
        retry, and whether the text passed. `style` findings (copying the passages) ask
        for a second round but fail nothing: a text that only copies stands if no
        candidate does better."""
        findings, revise, acceptable, text = [], "", None, None
        for variants in ([0], list(range(candidates or self.candidates))):
            prompt = render(revise)
            replies = ordered_map(
                lambda v, prompt=prompt: self.reply(prompt, check, language, v, max_tokens),
                variants,
                len(variants),
            )
            passing = [(t, style(t)) for t, problems in replies if t is not None and not problems]
            if passing:
                best, wishes = min(passing, key=lambda p: len(p[1]))
                if not wishes:
                    return best, findings, True
                acceptable = best
                problems = wishes
            else:
                text, problems = min(replies, key=fewest_findings)
            findings = list(dict.fromkeys(findings + problems))
            revise = revise_note(problems)
        if acceptable is not None:
            return acceptable, findings, True
        return text, findings, False

    def reply(
        self,
        prompt,
        check: Callable[[str], list[str]],
        language: str,
        variant: int,
        max_tokens: int = MAX_TOKENS,
    ) -> tuple[str | None, list[str]]:
        """One reply and its findings. Chinese text gets the house's form of each term
        before it is checked (令牌 -> token, paging -> 分页): the one thing a small model
        keeps getting wrong however it is told."""
        try:
            text = self.llm.complete(prompt, TextReply, max_tokens, variant=variant).text
        except InvalidReply as err:  # an outage (EndpointError) fails the stage
            return None, [f"no valid reply: {err}"]
        if language == "zh":
            text = terminology.with_house_forms(text)[0]
            text = terminology.with_chinese_forms(text, self.terms)[0]
        return text, check(text)

    def restated(self, claim: Claim) -> tuple[Claim, Restatement | None]:
        """A note that copies transcribed speech, said again as one written sentence, if
        the model's sentence passes every check a paragraph's sentence must: a small model
        writing a paragraph from several spoken notes keeps their fillers and their words;
        one sentence at a time it edits them. Otherwise the note stays as it was said."""
        if not self.is_spoken_copy(claim):
            return claim, None
        lang, source = self.source_language, self.cited_text([claim])
        terms = kept_terms(claim.terms)

        def render(revise: str):
            return self.prompts.restate(lang).render(
                text=claim.statement, terms=", ".join(terms) or "-", revise=revise
            )

        def check(text: str) -> list[str]:
            # a paragraph's checks on a paragraph of this one claim: its numbers and names
            found = self.paragraph_findings(text, [claim], [])
            if len(split_sentences(text)) > MAX_RESTATED_SENTENCES:
                found.append("say it in one sentence")
            if len(text) > len(claim.statement) * MAX_RESTATED_GROWTH + 10:
                found.append("it is longer than what was said: add nothing")
            found += [
                f"write {word!r} as the speech writes it: {said!r}"
                for word, said in recased_words(text, claim.statement)
            ]
            if support(text, source) < RESTATED_MIN_SUPPORT:
                found.append("it adds what was not said: say only what the sentence says")
            return found

        # No second round for copying alone: a small model asked again mostly says it again
        # word for word (on a Chinese lecture it doubled the calls for little).
        text, findings, passed = self.attempt(render, check, lang, max_tokens=RESTATE_MAX_TOKENS)
        said = claim.statement
        if not passed:
            return claim, Restatement(said=said, units=claim.units, findings=findings)
        restated = claim.model_copy(update={"statement": text, "numbers": sorted(numbers(text))})
        return restated, Restatement(said=said, written=text, units=claim.units, findings=findings)

    def is_spoken_copy(self, claim: Claim) -> bool:
        """Whether the note rests on speech alone and is mostly its words."""
        units = [self.units.get(u) for u in claim.units]
        if not units or any(u is None or u.kind != "transcript" for u in units):
            return False
        share = copied_share(claim.statement, self.cited_text([claim]), self.source_language)
        return share > SPOKEN_COPY

    def paragraph(
        self, claims: list[Claim], chapter: str, where: str, earlier: list[str], topic: str = ""
    ) -> DraftParagraph | None:
        """One paragraph from `claims`; `topic` is the title of the slide or section they
        come from: what a bullet such as "Blocks of 16 tokens" is about (PagedAttention)."""

        def render(revise: str):
            return self.prompts.write_paragraph.render(
                chapter=chapter,
                topic=topic or chapter,
                notes=notes_listing(claims),
                language=LANGUAGE_NAMES[self.source_language],
                revise=revise,
            )

        return self.from_claims(render, claims, where, earlier)

    def from_claims(
        self, render: Callable[[str], object], claims: list[Claim], where: str, earlier: list[str]
    ) -> DraftParagraph | None:
        """A paragraph the `render`ed prompt asks for from `claims`, verified and revised;
        pruned, or the claims as they are, if it keeps failing; None if those repeat an
        `earlier` paragraph."""
        lang = self.source_language
        citations = citations_of(claims)
        text, findings, passed = self.attempt(
            render,
            lambda t: self.paragraph_findings(t, claims, earlier),
            lang,
            lambda t: self.style_findings(t, claims),
        )
        if not passed and text is not None and (rest := self.pruned(text, claims, earlier)):
            self.revisions.append(Revision(where=where, findings=findings, action="pruned"))
            return DraftParagraph(text=rest, citations=citations)
        if not passed:
            text = plain(claims, lang)
            if duplicate_of(text, earlier) is not None:
                self.revisions.append(Revision(where=where, findings=findings, action="dropped"))
                return None
            self.revisions.append(
                Revision(where=where, findings=findings, action="replaced by its claims")
            )
        elif findings:
            self.revisions.append(Revision(where=where, findings=findings, action="redrafted"))
        return DraftParagraph(text=text, citations=citations)

    def without_repeats(
        self, paragraph: DraftParagraph, where: str, said: list[str], source: str | None = None
    ) -> DraftParagraph | None:
        """The paragraph without the sentences and clauses the article already said
        (paragraphs are written at once, each unaware of the others); None if nothing
        new is left. A translation of `source` stays as it is if nothing would be left
        (its source keeps the paragraph), or if a number or a house term of the source
        would go: both languages carry the same numbers and terms."""
        text, removed = without_repeats(paragraph.text, said)
        if not removed:
            return paragraph
        if source is not None and (
            not text
            or missing_numbers(numbers(source), text)
            or loses_terms(paragraph.text, text, source)
        ):
            return paragraph
        findings = [f"repeats what the article said: {piece!r}" for piece in removed]
        self.revisions.append(Revision(where=where, findings=findings, action="repeats removed"))
        return paragraph.model_copy(update={"text": text}) if text else None

    def translate(self, text: str, kind: Kind, target: str, where: str) -> str:
        result, findings, passed = self.translated(text, kind, target)
        if not passed and kind == "paragraph" and (joined := self.by_sentence(text, target)):
            # a small model leaves words of a long paragraph untranslated; one sentence at
            # a time it rarely does
            action = "translated sentence by sentence"
            self.revisions.append(Revision(where=where, findings=findings, action=action))
            return joined
        if (
            not passed
            and kind == "title"
            and (titled := self.title_with_names(text, result, target))
        ):
            self.revisions.append(
                Revision(where=where, findings=findings, action="names put first")
            )
            return titled
        if not passed:  # the review shows these findings; the source text stands in for
            # no translation or the prompt said back
            self.revisions.append(
                Revision(where=where, findings=findings, action="kept with findings")
            )
            return result if result and not is_echo(result, self.echo_lines) else text
        if findings:
            self.revisions.append(Revision(where=where, findings=findings, action="redrafted"))
        return result

    def marked(self, text: str, target: str) -> str:
        """The text as the translator gets it: Chinese keeps the names and kept terms in
        Latin letters, so they go to the model marked as code, and the glossary's other
        terms go in their Chinese form, marked too."""
        if target != "zh":
            return text
        return terminology.protected(
            text, self.kept_in_latin(text), terminology.chinese_forms(text)
        )

    def kept_in_latin(self, text: str) -> list[str]:
        """The names of `text` and its glossary terms that Chinese keeps in Latin letters."""
        return self.terms_in(text) + terminology.kept_in_latin(text)

    def translation_prompt(
        self, text: str, asked: str, kind: Kind, target: str, revise: str, context: str = ""
    ):
        """The prompt translating `text`, given to the model as `asked`; a word is translated
        as meant in its `context`."""
        name = KIND_NAMES[target][kind]
        return self.prompts.translate(target).render(
            kind=f"{name} (as meant in: {context})" if context else name,
            text=asked,
            terms=", ".join(self.terms_in(text)) or "-",
            glossary=terminology.guide(text, target),
            revise=revise,
        )

    def translated(self, text: str, kind: Kind, target: str) -> tuple[str | None, list[str], bool]:
        asked = self.marked(text, target)
        plain = terminology.unprotected if asked != text else (lambda t: t)

        def render(revise: str):
            return self.translation_prompt(text, asked, kind, target, revise)

        def check(result: str) -> list[str]:
            result = plain(result)
            if kind == "title":  # short: only its language and its names ("xgrammar")
                found = [] if has_cjk(result) == (target == "zh") else ["wrong language"]
                return found + self.name_findings(text, result)
            found = self.translation_findings(text, result, target)
            if kind == "question" and not result.endswith(QUESTION_MARKS):
                found.append("translate it as a question, ending with a question mark")
            return found

        wider = max(self.candidates, SHORT_CANDIDATES) if kind != "paragraph" else None
        result, findings, passed = self.attempt(render, check, target, candidates=wider)
        result = plain(result) if result is not None else None
        if (
            not passed
            and kind == "paragraph"
            and result
            and (words := self.words_left(text, result, target))
        ):
            return words, findings, True
        return result, findings, passed

    def words_left(self, source: str, result: str, target: str) -> str | None:
        """An English translation with the few Chinese words it left as they were (负责人)
        translated one by one, as meant in their sentence of the source, if the whole then
        passes; None otherwise."""
        left = list(dict.fromkeys(CJK_RUN.findall(result))) if target == "en" else []
        if not left or len(left) > MAX_LEFT_WORDS or any(len(w) > MAX_LEFT_CHARS for w in left):
            return None
        for word in left:
            english = self.word_translated(word, source)
            if english is None:
                return None
            result = result.replace(word, f" {english} ")
        result = SPACE_BEFORE.sub("", " ".join(result.split()))
        return None if self.translation_findings(source, result, target) else result

    def word_translated(self, word: str, source: str) -> str | None:
        context = next((s for s in split_sentences(source) if word in s), "")

        def render(revise: str):
            return self.translation_prompt(word, word, "word", "en", revise, context)

        def check(result: str) -> list[str]:
            if has_cjk(result) or len(result.split()) > MAX_WORD_TRANSLATION:
                return ["translate only this word, into English"]
            return []

        result, _, passed = self.attempt(render, check, "en", candidates=SHORT_CANDIDATES)
        if not passed or not result:
            return None
        words = result.strip().rstrip(".").split()
        common = len(words) > 1 or zipf_frequency(words[0], "en") >= COMMON_ENGLISH
        if words[0].istitle() and common and all(w.islower() for w in words[1:]):
            words[0] = words[0].lower()  # "Person in charge" inside a sentence; Huawei stays
        return " ".join(words)

    def by_sentence(self, text: str, target: str) -> str | None:
        """The paragraph translated one sentence at a time, a sentence that still fails (or
        a paragraph of one sentence) one clause at a time, if that passes the checks: a
        small model that keeps dropping a number from a long sentence keeps it in a short
        one."""
        sentences = split_sentences(text)
        if len(sentences) < 2:
            return self.joined(text, clauses(text), target)
        parts = []
        for sentence in sentences:
            result, _, passed = self.translated(sentence, "paragraph", target)
            if not passed and (result := self.joined(sentence, clauses(sentence), target)) is None:
                return None
            parts.append(result)
        joined = ("" if target == "zh" else " ").join(parts)
        return None if self.translation_findings(text, joined, target) else joined

    def joined(self, source: str, pieces: list[str], target: str) -> str | None:
        """The clauses of one sentence translated one at a time and joined into one
        sentence; None unless there are several and every one passes, and the whole too."""
        if len(pieces) < 2:
            return None
        parts = []
        for piece in pieces:
            result, _, passed = self.translated(piece, "paragraph", target)
            if not passed:
                return None
            parts.append(result.strip())
        comma, stop = ("，", "。") if target == "zh" else (", ", ".")
        inner = [p.rstrip("。.！？!?，,；;") for p in parts[:-1]]
        whole = comma.join([*inner, parts[-1]])
        whole = whole if whole.endswith(("。", ".", "！", "？", "!", "?")) else whole + stop
        return None if self.translation_findings(source, whole, target) else whole


def fewest_findings(reply: tuple[str | None, list[str]]) -> tuple[bool, bool, int]:
    """How a reply that failed ranks among others: a reply before none, an answer before
    no answer, then by how many findings."""
    text, findings = reply
    return text is None, any(f.startswith(NO_ANSWER) for f in findings), len(findings)


def recased_words(text: str, said: str) -> list[tuple[str, str]]:
    """Words of `text` that `said` spells with other capitals ("VLLM" for "vLLM"): a name
    keeps its spelling even where no deck lists it; only a capital that starts a sentence
    may be added."""
    spelled = {w.lower(): w for w in WORD.findall(said)}
    exact = set(spelled.values())
    return [
        (w, spelled[w.lower()])
        for w in dict.fromkeys(WORD.findall(text))
        if w not in exact and w.lower() in spelled and w != spelled[w.lower()].capitalize()
    ]


CLAUSE_BREAK = re.compile(r"(?<=[,;，；])\s*")


def clauses(sentence: str) -> list[str]:
    """A sentence cut after its commas and semicolons."""
    return [c.strip() for c in CLAUSE_BREAK.split(sentence.strip()) if c.strip()]


def binding_findings(text: str, source: str) -> list[str]:
    """Numbers moved to another number's subject, and words turned into their negation."""
    found = []
    for sentence in split_sentences(text):
        found += [
            f"number {n} is paired with what the passages say of another number: keep each "
            f"number with its own subject in {sentence!r}"
            for n in misbound_numbers(sentence, source)
        ]
        found += [
            f"{w!r} says the opposite of the passages in {sentence!r}"
            for w in flipped_words(sentence, source)
        ]
    return found


def chunks(claims: list[Claim], size: int) -> list[list[Claim]]:
    """Claims in paragraphs of up to `size`, balanced: 5 claims make 3 + 2, not 4 + 1."""
    if not claims:
        return []
    count = -(-len(claims) // size)
    per = -(-len(claims) // count)
    return [claims[i : i + per] for i in range(0, len(claims), per)]


def restate_notes(notes: Notes, writer: Writer) -> tuple[Notes, list[Restatement]]:
    """Every note copied from speech said again as written text, all at once."""
    claims = [c for section in notes.sections for c in section.claims]
    done = iter(writer.run_each(lambda w, claim: w.restated(claim), claims))
    sections, restatements = [], []
    for section in notes.sections:
        restated = [next(done) for _ in section.claims]
        restatements += [r for _, r in restated if r is not None]
        sections.append(section.model_copy(update={"claims": [c for c, _ in restated]}))
    return notes.model_copy(update={"sections": sections}), restatements


def write_source(outline: Outline, notes: Notes, writer: Writer) -> DraftText:
    """Every paragraph written at once; then, in order, a paragraph that repeats an earlier
    one is written again knowing the earlier ones (rare, so the wait is short)."""
    lang = outline.language
    sections = notes.by_id()
    # chapter, its title, claims, where, the title of the section they come from
    jobs: list[tuple[int, str, list[Claim], str, str]] = []
    numbered = 0  # chapters with paragraphs are numbered
    for c, chapter in enumerate(outline.chapters):
        paragraphs = [
            (p, sections[s].title or "")
            for s in chapter.sections
            for p in chunks(sections[s].claims, CLAIMS_PER_PARAGRAPH)
        ]
        numbered += bool(paragraphs)
        jobs += [
            (c, chapter.title, p, f"{lang} §{numbered}¶{n}", topic)
            for n, (p, topic) in enumerate(paragraphs, 1)
        ]
    drafts = writer.run_each(lambda w, job: w.paragraph(job[2], job[1], job[3], [], job[4]), jobs)
    by_chapter: dict[int, list[DraftParagraph]] = {}
    earlier: list[str] = []
    said: list[str] = []  # the article's sentences so far
    for (c, title, claims, where, topic), paragraph in zip(jobs, drafts, strict=True):
        if paragraph is not None and duplicate_of(paragraph.text, earlier) is not None:
            paragraph = writer.paragraph(claims, title, where, earlier, topic)
        if paragraph is not None:
            earlier.append(paragraph.text)
            paragraph = writer.without_repeats(paragraph, where, said)
        if paragraph is not None:
            by_chapter.setdefault(c, []).append(paragraph)
    chapters = [
        DraftSection(role=chapter.role, title=chapter.title, paragraphs=by_chapter[c])
        for c, chapter in enumerate(outline.chapters)
        if by_chapter.get(c)
    ]
    return DraftText(
        lang=lang, title=outline.title, summary=outline.summary, sections=without_stubs(chapters)
    )


def sentence_count(chapter: DraftSection) -> int:
    return sum(len(split_sentences(p.text)) for p in chapter.paragraphs)


def without_stubs(chapters: list[DraftSection]) -> list[DraftSection]:
    """A chapter of fewer than MIN_CHAPTER_SENTENCES sentences cannot stand under a
    heading of its own: it joins the chapter before it (the first, the one after)."""
    kept: list[DraftSection] = []
    for chapter in chapters:
        if kept and sentence_count(chapter) < MIN_CHAPTER_SENTENCES:
            kept[-1] = kept[-1].model_copy(
                update={"paragraphs": kept[-1].paragraphs + chapter.paragraphs}
            )
        else:
            kept.append(chapter)
    if len(kept) > 1 and sentence_count(kept[0]) < MIN_CHAPTER_SENTENCES:
        first, second = kept[0], kept[1]
        kept[:2] = [second.model_copy(update={"paragraphs": first.paragraphs + second.paragraphs})]
    return kept


def translate_text(draft: DraftText, writer: Writer) -> DraftText:
    """Every paragraph and title translated at once."""
    target = other(draft.lang)
    jobs: list[tuple[str, Kind, str]] = []
    for s, section in enumerate(draft.sections, start=1):
        jobs += [
            (p.text, "paragraph", f"{target} §{s}¶{n}")
            for n, p in enumerate(section.paragraphs, start=1)
        ]
        jobs.append((section.title, "title", f"{target} §{s} title"))
    jobs.append((draft.title, "title", f"{target} title"))
    if draft.summary:
        jobs.append((draft.summary, "summary", f"{target} summary"))
    done = iter(writer.run_each(lambda w, job: w.translate(job[0], job[1], target, job[2]), jobs))
    sections, said = [], []  # said: the translation's sentences so far
    for s, section in enumerate(draft.sections, start=1):
        paragraphs = []
        for n, source in enumerate(section.paragraphs, start=1):
            # two sentences the source says in different words can translate alike (a
            # question the speaker asks at the start and again at the end)
            paragraph = DraftParagraph(text=next(done), citations=source.citations)
            where = f"{target} §{s}¶{n}"
            paragraphs.append(writer.without_repeats(paragraph, where, said, source.text))
        sections.append(DraftSection(role=section.role, title=next(done), paragraphs=paragraphs))
    title = next(done)
    return DraftText(lang=target, title=title, summary=next(done, ""), sections=sections)


def loses_terms(translation: str, shorter: str, source: str) -> bool:
    """Whether a Chinese translation cut to `shorter` misses house terms of its English
    source that the whole translation wrote (the review would find them missing)."""
    if not has_cjk(translation):
        return False
    return len(terminology.missing_forms(shorter, source)) > len(
        terminology.missing_forms(translation, source)
    )


def fallbacks(revisions: list[Revision]) -> list[str]:
    return [f"{r.where}: {r.action}" for r in revisions if r.action in FALLBACK_ACTIONS]


def write_drafts(
    outline: Outline,
    notes: Notes,
    evidence: Evidence,
    terms: list[str],
    llm: LLM,
    prompts: DraftPrompts,
    candidates: int = 1,
) -> Draft:
    """Both languages with the same chapters, paragraphs and citations; the talk's own
    language is written first, the other translated paragraph by paragraph. A text whose
    first reply fails its checks is asked for again as `candidates` replies at once."""
    writer = Writer(llm, prompts, evidence, terms, outline.language, candidates)
    notes, restatements = restate_notes(notes, writer)
    first = write_source(outline, notes, writer)
    second = translate_text(first, writer)
    texts = {first.lang: first, second.lang: second}
    return Draft(
        en=texts["en"],
        zh=texts["zh"],
        tags=outline.tags,
        revisions=writer.revisions,
        restatements=restatements,
        fallbacks=fallbacks(writer.revisions),
    )
