"""The questions stage (questions.json): the article's companion in questions and answers,
for readers who want the point before the depth.

An answer is a run of up to SENTENCES_PER_ANSWER verified fact sentences of one chapter,
kept as their ledger ids (pipeline.schema.questions: composed from the ledger wherever it
is shown, with the reviewers' edits): an answer says nothing the article does not. Up to
MOST_QUESTIONS runs, spread over the chapters. The model asks the one question each run
answers (pipeline.llm.rounds: checked against its answer alone); a question that fails
twice is dropped, and so is a repeat. Questions are translated like ledger sentences, and
an item whose question does not translate is dropped. Questions are no sentences of the
article's ledger (no reviewer edits them): their text is kept in both languages. A
companion of fewer than FEWEST_QUESTIONS questions is a visible fallback.
"""

import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from pipeline.core.checks import composed_checks
from pipeline.core.grounding import duplicate_of, split_sentences, support
from pipeline.core.prompts import Prompt, load_prompt
from pipeline.core.text import other_language
from pipeline.ledger import LedgerPrompts
from pipeline.ledger.translate import translate_sentences
from pipeline.llm.client import LLM
from pipeline.llm.rounds import Job, written
from pipeline.schema import Place, QuestionAnswer, Questions, QuestionsText, Revision
from pipeline.schema.checks import SentenceCheck
from pipeline.schema.ledger import Ledger, LedgerSentence, Written, joined

MOST_QUESTIONS = 6
FEWEST_QUESTIONS = 4  # fewer is not a companion worth its page: a visible fallback
SENTENCES_PER_ANSWER = 3  # what a reader takes in at a glance: a design bound
QUESTION_SIZE = {"en": (4, 30), "zh": (6, 60)}  # words; characters for Chinese
# Share of a question's content words (its asking words aside) its answer holds: grounding's
# support bound (MIN_SUPPORT), the one a sentence of the article meets against its source.
QUESTION_MIN_SUPPORT = 0.5
QUESTION_MARKS = ("?", "？")
ASKING = re.compile(
    r"\b(?:what|how|why|who|where|which|when|whose|whom|does|do|did|is|are|can|should|would"
    r"|could)\b|为什么|为何|什么|如何|怎样|怎么|哪些|哪个|哪种|是否|吗|呢",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class QuestionPrompts:
    ask_question_en: Prompt
    ask_question_zh: Prompt

    NAMES = ("ask_question_en", "ask_question_zh")

    @classmethod
    def load(cls, prompts_dir: Path | None = None) -> "QuestionPrompts":
        return cls(*(load_prompt(name, prompts_dir) for name in cls.NAMES))

    def all(self) -> list[Prompt]:
        return [getattr(self, name) for name in self.NAMES]

    def ask(self, lang: str) -> Prompt:
        return self.ask_question_zh if lang == "zh" else self.ask_question_en


@dataclass(frozen=True)
class Topic:
    """What one question is asked about: a chapter's heading and a run of its sentences."""

    chapter: str
    sentences: list[LedgerSentence]

    def answer(self, lang: str) -> str:
        return joined(self.sentences, lang)

    def context(self, lang: str) -> str:
        """The answer under its chapter's heading: what a question may speak of."""
        return f"{self.chapter}\n{self.answer(lang)}"

    def units(self) -> list[str]:
        return list(dict.fromkeys(u for s in self.sentences for u in s.units))


def answer_runs(ledger: Ledger) -> list[list[Topic]]:
    """Per chapter, its verified fact sentences (in both languages) in runs."""
    by_id, lang = ledger.by_id(), ledger.language
    chapters = []
    for chapter in ledger.chapters:
        heading = by_id[chapter.heading].text(lang).text
        verified = [
            by_id[i]
            for paragraph in chapter.paragraphs
            for i in paragraph.sentences
            if all(w is not None and w.verified for w in (by_id[i].zh, by_id[i].en))
        ]
        step = SENTENCES_PER_ANSWER
        runs = [verified[k : k + step] for k in range(0, len(verified), step)]
        chapters.append([Topic(heading, run) for run in runs])
    return chapters


def question_topics(chapters: list[list[Topic]], most: int = MOST_QUESTIONS) -> list[Topic]:
    """Up to `most` runs to ask about, spread over the chapters: a run from each chapter in
    turn, then a second from each, in the article's order."""
    picked: list[tuple[int, int]] = []  # (chapter, run)
    for depth in range(max(map(len, chapters), default=0)):
        picked += [(c, depth) for c, runs in enumerate(chapters) if depth < len(runs)]
    return [chapters[c][r] for c, r in sorted(picked[:most])]


def question_checks(text: str, answer: str, lang: str) -> list[SentenceCheck]:
    """A question against its answer alone (with its chapter's heading): one sentence
    asking, of a reader's size, about what the answer says, with no number or name the
    answer lacks."""
    asks = text.rstrip().endswith(QUESTION_MARKS) and len(split_sentences(text)) == 1
    fewest, most = QUESTION_SIZE[lang]
    size = len(text) if lang == "zh" else len(text.split())
    about = support(ASKING.sub(" ", text), answer)
    return [
        *composed_checks(text, answer, lang),
        SentenceCheck(check="sentence", passed=asks, detail="" if asks else "not one question"),
        SentenceCheck(check="length", passed=fewest <= size <= most, detail=str(size)),
        SentenceCheck(check="meaning", passed=about >= QUESTION_MIN_SUPPORT, detail=f"{about:.2f}"),
    ]


def asked(topics: list[Topic], title: str, lang: str, llm: LLM, prompt: Prompt) -> dict:
    jobs = [
        Job(
            id=f"q-{n}",
            line=f"(chapter: {topic.chapter or title}) {topic.answer(lang)}",
            check=partial(question_checks, answer=topic.context(lang), lang=lang),
            values={"title": title},
        )
        for n, topic in enumerate(topics, start=1)
    ]
    return written(jobs, llm, prompt) if jobs else {}


def dropped_for(lang: str, sentence: str, written: Written, reason: str = "a repeat") -> Revision:
    """A question that went: what its last answer failed, else why."""
    place = Place(lang=lang, part="sentence", sentence=sentence)
    failed = written.rejected
    return Revision(place=place, findings=failed, reason="" if failed else reason, action="dropped")


def kept_questions(
    topics: list[Topic], answers: dict[str, Written], lang: str, revisions: list[Revision]
) -> list[tuple[LedgerSentence, Topic]]:
    """Each question that passed and asks nothing asked before, with its topic."""
    kept: list[tuple[LedgerSentence, Topic]] = []
    for n, topic in enumerate(topics, start=1):
        question = answers[f"q-{n}"]
        earlier = [sentence.text(lang).text for sentence, _ in kept]
        if question.left_out or duplicate_of(question.text, earlier) is not None:
            revisions.append(dropped_for(lang, f"q-{n}", question))
            continue
        sentence = LedgerSentence(
            id=f"q-{n}", kind="question", units=topic.units(), **{lang: question}
        )
        kept.append((sentence, topic))
    return kept


def write_questions(
    ledger: Ledger,
    names: list[str],
    llm: LLM,
    prompts: QuestionPrompts,
    ledger_prompts: LedgerPrompts,
) -> Questions:
    """The companion of the article the ledger composes, in both languages; `names` are the
    talk's own terms, kept as written. An item whose question does not translate goes."""
    lang, target = ledger.language, other_language(ledger.language)
    topics = question_topics(answer_runs(ledger))
    answers = asked(topics, ledger.text(lang).title, lang, llm, prompts.ask(lang))
    revisions: list[Revision] = []
    kept = kept_questions(topics, answers, lang, revisions)
    prompt = ledger_prompts.translate(target)
    translated = translate_sentences([s for s, _ in kept], lang, target, llm, prompt, names)
    items: dict[str, list[QuestionAnswer]] = {lang: [], target: []}
    for sentence, (_, topic) in zip(translated, kept, strict=True):
        translation = sentence.text(target)
        if translation.left_out or not translation.text.rstrip().endswith(QUESTION_MARKS):
            # a translation that no longer asks is no question: both languages go
            revisions.append(dropped_for(target, sentence.id, translation, "no question"))
            continue
        answer = [s.id for s in topic.sentences]
        for language in (lang, target):
            question = sentence.text(language).text
            items[language].append(QuestionAnswer(question=question, sentences=answer))
    count = len(items[lang])
    return Questions(
        en=QuestionsText(lang="en", items=items["en"]),
        zh=QuestionsText(lang="zh", items=items["zh"]),
        revisions=revisions,
        fallbacks=[] if count >= FEWEST_QUESTIONS else [f"only {count} questions passed"],
    )
