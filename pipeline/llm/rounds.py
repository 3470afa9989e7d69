"""Sentences written by the model one at a time and checked one by one: every job is one
sentence (a fact, a translation, a question, a chapter's heading) from its one item, asked
in a call of its own and checked against that item alone. A job that fails is asked once
more with the advice of each check it failed (pipeline.schema.checks); a job that fails
twice is left out, its last answer kept for reviewers with what it failed (a heading,
title or summary, which the article cannot do without, keeps its best answer, marked). At
most two calls per job, or one when the job says so: a sentence gets at most three calls
in all, its rewrite's and its translation's.

One job per call, measured (benchmarks/ledger_facts.py, sglang-2025 and
zh-inference-frameworks sources): six per call, the 1.5B copied every item (verified 0.33
and 0.13); one per call, it rewrote them (0.56 and 0.33) in the same or less time, the
server's slots running calls side by side. So a reply is the sentence alone, with no id to
file it under: no answer can land under another job, and no token goes to ids.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from pipeline.core.prompts import REVISE_NOTE, Prompt
from pipeline.llm.client import LLM, InvalidReply
from pipeline.llm.parallel import ordered_map
from pipeline.schema.checks import SENTENCE_CHECKS, SentenceCheck
from pipeline.schema.ledger import Written

TOKENS_PER_SENTENCE = 90  # a written sentence of up to ~60 words in its JSON reply
MAX_SENTENCE_CHARS = 500


class SentenceReply(BaseModel):
    text: str = Field(min_length=2, max_length=MAX_SENTENCE_CHARS)


@dataclass(frozen=True)
class Job:
    """One sentence to write: its id, the item the prompt gives, the prompt's values for it,
    how an answer is checked, whether it is asked twice, whether its best failed answer
    stands (`keep_best`) rather than being left out, and the reply's form (a model with a
    `text`) and token budget."""

    id: str
    line: str
    check: Callable[[str], list[SentenceCheck]]
    values: dict[str, str] = field(default_factory=dict)
    retry: bool = True
    keep_best: bool = False
    reply: type[BaseModel] = SentenceReply
    max_tokens: int = TOKENS_PER_SENTENCE


def asked(job: Job, llm: LLM, prompt: Prompt, revise: str, variant: int) -> str:
    """The model's answer for the job, on one line and unquoted; empty when it answered
    nothing valid. An outage (EndpointError) is raised."""
    rendered = prompt.render(item=job.line, revise=revise, **job.values)
    try:
        reply = llm.complete(rendered, job.reply, job.max_tokens, variant)
    except InvalidReply:
        return ""
    return unquoted(" ".join(reply.text.split()))


QUOTES = {'"': '"', "“": "”", "「": "」", "『": "』"}  # not "'": an apostrophe is no quote
OPENINGS = {closing: opening for opening, closing in QUOTES.items()}


def unquoted(text: str) -> str:
    """A reply without the quotes that wrap it whole, or that stand unpaired at its
    edges ('"Prefix caching' is Prefix caching; 'called "X".' keeps its pair)."""
    first, last, inner = text[:1], text[-1:], text[1:-1]
    if len(text) > 1 and QUOTES.get(first) == last and first not in inner and last not in inner:
        return inner.strip()
    if first in QUOTES and QUOTES[first] not in text[1:]:
        text = text[1:]
    if last in OPENINGS and OPENINGS[last] not in text[:-1]:
        text = text[:-1]
    return text.strip()


def revise_note(failed: Written | None) -> str:
    findings = [
        SENTENCE_CHECKS[c.check].advice + (f" ({c.detail})" if c.detail else "")
        for c in (failed.failed() if failed else [])
    ]
    return REVISE_NOTE.format(findings="; ".join(findings)) if findings else ""


def one_round(
    jobs: list[Job], ask: Callable, slots: int, before: dict[str, Written], variant: int
) -> dict[str, Written]:
    """Every job's answer with its checks (an unanswered job has an empty text, failing)."""
    notes = [revise_note(before.get(job.id)) for job in jobs]
    answers = ordered_map(lambda k: ask(jobs[k], notes[k], variant), range(len(jobs)), slots)
    return {
        job.id: Written(text=answer, checks=job.check(answer))
        for job, answer in zip(jobs, answers, strict=True)
    }


def given_up(job: Job, tries: list[Written]) -> Written:
    """What stands when every answer failed: the last, left out; for a `keep_best` job the
    answer that states no other fact (no number changed, no name added) and is in the right
    language before the others, then with fewest failed checks (the first on a tie), unless
    none said anything."""
    answered = [t for t in tries if t.text] if job.keep_best else []

    def rank(answer: Written) -> tuple[bool, bool, int]:
        failed = answer.failed()
        other_fact = any(c.check == "numbers" or (c.check == "names" and c.added) for c in failed)
        return other_fact, any(c.check == "language" for c in failed), len(failed)

    chosen = min(answered, key=rank) if answered else tries[-1]
    return chosen.model_copy(update={"left_out": not answered, "rejected": chosen.failed()})


def written(jobs: list[Job], llm: LLM, prompt: Prompt) -> dict[str, Written]:
    """Each job's sentence by id: the first answer that passes every check, else what
    `given_up` keeps."""

    def ask(job: Job, revise: str, variant: int) -> str:
        return asked(job, llm, prompt, revise, variant)

    first = one_round(jobs, ask, llm.slots, {}, 0)
    again = [job for job in jobs if job.retry and not first[job.id].verified]
    second = one_round(again, ask, llm.slots, first, 1) if again else {}
    done = {}
    for job in jobs:
        tries = [first[job.id], *([second[job.id]] if job.id in second else [])]
        chosen = next((t for t in tries if t.verified), None) or given_up(job, tries)
        done[job.id] = chosen.model_copy(update={"calls": len(tries)})
    return done
