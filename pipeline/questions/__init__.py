"""The questions stage (questions.json): each article's companion in questions and
answers, for readers who want the point before the depth.

Up to six questions, each from a few of the claims the article was written from, spread
over its chapters. The model asks the question those claims answer, then answers it from
them alone. An answer is verified, revised and falls back like a paragraph of the article
(its numbers, support, names and copying; pruned, or the claims as they are); a question
that keeps failing its checks (one sentence asking something, in the right language, with
no number and no word the claims do not support) is dropped, and so is a repeat. Both are
then translated and checked like the article's paragraphs. Every revision is recorded; a
companion of fewer than four questions is a fallback.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.grounding import duplicate_of, invented_numbers, split_sentences, support
from pipeline.core.prompts import Prompt, load_prompt
from pipeline.core.text import LANGUAGE_NAMES
from pipeline.draft import (
    QUESTION_MARKS,
    Writer,
    chunks,
    fallbacks,
    notes_listing,
    other,
)
from pipeline.schema import (
    Claim,
    DraftText,
    Notes,
    QuestionAnswer,
    Questions,
    QuestionsText,
    Restatement,
    Revision,
)

MOST_QUESTIONS = 6
FEWEST_QUESTIONS = 4  # fewer is not a companion worth its page: a visible fallback
CLAIMS_PER_ANSWER = 3  # what a few sentences can say
QUESTION_SIZE = {"en": (4, 30), "zh": (6, 60)}  # words; characters for Chinese
QUESTION_MIN_SUPPORT = 0.5
ASKING = re.compile(
    r"\b(?:why|who|where|whose|whom|does|do|did|should|would|could)\b"
    r"|为什么|为何|什么|如何|怎样|怎么|哪些|哪个|哪种|是否|吗|呢",
    re.IGNORECASE,
)
TITLE_MAX_CHARS = 120
MAX_QUESTION_TOKENS = 120


@dataclass(frozen=True)
class QuestionPrompts:
    ask_question: Prompt
    answer_question: Prompt

    NAMES = ("ask_question", "answer_question")

    @classmethod
    def load(cls, prompts_dir: Path | None = None) -> "QuestionPrompts":
        return cls(*(load_prompt(name, prompts_dir) for name in cls.NAMES))

    def all(self) -> list[Prompt]:
        return [getattr(self, name) for name in self.NAMES]


@dataclass(frozen=True)
class Topic:
    """What one question is asked about: a chapter's title and a few of its claims."""

    chapter: str
    claims: list[Claim]


def chapter_claims(text: DraftText, notes: Notes, restatements: list[Restatement]) -> list[Topic]:
    """Each chapter of the article with the claims its paragraphs cite (a claim restated as
    written text, as written), each claim under the first chapter that cites all its units."""
    written = {r.said: r.written for r in restatements if r.written}
    left = [
        c.model_copy(update={"statement": written.get(c.statement, c.statement)})
        for section in notes.sections
        for c in section.claims
    ]
    found = []
    for chapter in text.sections:
        cited = {u for p in chapter.paragraphs for u in p.citations}
        mine = [c for c in left if set(c.units) <= cited]
        left = [c for c in left if c not in mine]
        found.append(Topic(chapter.title, mine))
    return found


def question_topics(chapters: list[Topic], most: int = MOST_QUESTIONS) -> list[Topic]:
    """Up to `most` runs of claims to ask about, spread over the chapters: a run from each
    chapter in turn, then a second from each, in the article's order."""
    runs = [chunks(topic.claims, CLAIMS_PER_ANSWER) for topic in chapters]
    picked: list[tuple[int, int]] = []  # (chapter, run)
    for depth in range(max(map(len, runs), default=0)):
        picked += [(c, depth) for c, chapter in enumerate(runs) if depth < len(chapter)]
    return [Topic(chapters[c].chapter, runs[c][r]) for c, r in sorted(picked[:most])]


def asking_words_removed(question: str) -> str:
    """The question without the words that ask ("why", "为什么"): what is left is what it
    is about, which its claims must support."""
    return ASKING.sub(" ", question)


def question_findings(writer: Writer, question: str, claims: list[Claim]) -> list[str]:
    """What keeps a question off the page: not one question, the wrong size, a number or a
    word its claims do not give, the wrong language, an echo of the prompt."""
    lang = writer.source_language
    source = writer.cited_text(claims) + "\n" + "\n".join(c.statement for c in claims)
    found = [] if question.endswith(QUESTION_MARKS) else ["end it with a question mark"]
    if len(split_sentences(question)) > 1:
        found.append("ask one question, in one sentence")
    fewest, most = QUESTION_SIZE[lang]
    if not fewest <= (len(question) if lang == "zh" else len(question.split())) <= most:
        found.append(f"ask it in {fewest} to {most} {'characters' if lang == 'zh' else 'words'}")
    found += [f"number {n} is not in the notes" for n in invented_numbers(question, source)]
    if support(asking_words_removed(question), source) < QUESTION_MIN_SUPPORT:
        found.append("ask only about what the notes say")
    return found + writer.common_findings(question, lang)


def asked(writer: Writer, prompts: QuestionPrompts, title: str, topic: Topic, n: int):
    """One question and its answer in the article's language, or None if no question passed."""
    lang, listing = writer.source_language, notes_listing(topic.claims)

    def ask(revise: str):
        return prompts.ask_question.render(
            title=title[:TITLE_MAX_CHARS],
            chapter=topic.chapter,
            notes=listing,
            language=LANGUAGE_NAMES[lang],
            revise=revise,
        )

    question, findings, passed = writer.attempt(
        ask,
        lambda q: question_findings(writer, q, topic.claims),
        lang,
        max_tokens=MAX_QUESTION_TOKENS,
    )
    if not passed:
        writer.revisions.append(Revision(where=f"{lang} Q{n}", findings=findings, action="dropped"))
        return None
    if findings:
        writer.revisions.append(
            Revision(where=f"{lang} Q{n}", findings=findings, action="redrafted")
        )

    def answer(revise: str):
        return prompts.answer_question.render(
            question=question, notes=listing, language=LANGUAGE_NAMES[lang], revise=revise
        )

    paragraph = writer.from_claims(answer, topic.claims, f"{lang} A{n}", [])
    return QuestionAnswer(question=question, answer=paragraph.text, citations=paragraph.citations)


def without_repeats(items: list[QuestionAnswer]) -> list[QuestionAnswer]:
    """Questions asked already, or answered by an earlier answer's words, left out."""
    kept: list[QuestionAnswer] = []
    for item in items:
        if duplicate_of(item.question, [k.question for k in kept]) is None and (
            duplicate_of(item.answer, [k.answer for k in kept]) is None
        ):
            kept.append(item)
    return kept


def translated(
    writer: Writer, items: list[QuestionAnswer], target: str
) -> tuple[list[QuestionAnswer], list[QuestionAnswer]]:
    """The items whose question and answer both translate, and their translations: a
    translation kept with findings would put the wrong language or another number on the
    page, so its item goes from both languages."""
    jobs = [
        (text, kind, f"{target} {letter}{n}")
        for n, item in enumerate(items, start=1)
        for text, kind, letter in (
            (item.question, "question", "Q"),
            (item.answer, "paragraph", "A"),
        )
    ]
    done = iter(writer.run_each(lambda w, job: w.translate(job[0], job[1], target, job[2]), jobs))
    failed = {r.where for r in writer.revisions if r.action == "kept with findings"}
    kept, translations = [], []
    for n, item in enumerate(items, start=1):
        question, answer = next(done), next(done)
        if {f"{target} Q{n}", f"{target} A{n}"} & failed:
            why = ["its translation failed its checks"]
            dropped = Revision(where=f"{target} Q{n}", findings=why, action="dropped")
            writer.revisions.append(dropped)
            continue
        kept.append(item)
        translations.append(
            QuestionAnswer(question=question, answer=answer, citations=item.citations)
        )
    return kept, translations


def write_questions(
    text: DraftText,
    notes: Notes,
    restatements: list[Restatement],
    writer: Writer,
    prompts: QuestionPrompts,
) -> Questions:
    """The companion of the article `text` (in the language it was written in first, the
    writer's), written from the claims of `notes` and translated."""
    lang = writer.source_language
    topics = question_topics(chapter_claims(text, notes, restatements))
    found = writer.run_each(
        lambda w, job: asked(w, prompts, text.title, job[1], job[0]),
        list(enumerate(topics, start=1)),
    )
    target = other(lang)
    items, translations = translated(
        writer, without_repeats([item for item in found if item is not None]), target
    )
    texts = {
        lang: QuestionsText(lang=lang, items=items),
        target: QuestionsText(lang=target, items=translations),
    }
    short = [] if len(items) >= FEWEST_QUESTIONS else [f"only {len(items)} questions passed"]
    return Questions(
        en=texts["en"],
        zh=texts["zh"],
        revisions=writer.revisions,
        fallbacks=short + fallbacks(writer.revisions),
    )
