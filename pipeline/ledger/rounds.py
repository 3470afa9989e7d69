"""Sentences written by the model in batches and checked one by one: every job of a batch
is one sentence from one source, listed under its own id; each answer is checked against
its own source alone. The jobs that fail are asked once more, together, with what failed;
a job that fails twice takes its fallback, marked. At most two calls per batch.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field, create_model

from pipeline.core.prompts import REVISE_NOTE, Prompt
from pipeline.llm.client import LLM, InvalidReply
from pipeline.llm.parallel import ordered_map
from pipeline.schema.ledger import SentenceCheck, Written

# Jobs per call. Measured on the sglang-2025 and zh-inference-frameworks sources
# (benchmarks/ledger_facts.py --batch): six per call, the 1.5B copied every item (verified
# 0.33 and 0.13); one per call, it rewrote them (0.56 and 0.33) in the same or less time,
# the server's slots running single calls side by side.
BATCH = 1
TOKENS_PER_SENTENCE = 90  # a written sentence of up to ~60 words, with its id and JSON
MAX_SENTENCE_CHARS = 500


@dataclass(frozen=True)
class Job:
    """One sentence to write: its id, how the prompt lists it, how an answer is checked and
    what stands in when two answers fail (given those answers)."""

    id: str
    line: str
    check: Callable[[str], list[SentenceCheck]]
    fallback: Callable[[list[Written]], Written]


def reply_model(ids: list[str]) -> type[BaseModel]:
    item = create_model(
        "SentenceReply",
        id=(Literal[tuple(ids)], ...),  # type: ignore[valid-type]
        text=(str, Field(min_length=2, max_length=MAX_SENTENCE_CHARS)),
    )
    return create_model(
        "SentencesReply", sentences=(list[item], Field(min_length=1, max_length=len(ids)))
    )


def asked(batch: list[Job], llm: LLM, prompt: Prompt, values: dict, revise: str, variant: int):
    """The model's answer for each job of the batch it answered for (the first under an
    id); none when it answered nothing valid. An outage (EndpointError) is raised."""
    listing = "\n".join(f"[{job.id}] {job.line}" for job in batch)
    rendered = prompt.render(items=listing, revise=revise, **values)
    model = reply_model([job.id for job in batch])
    try:
        reply = llm.complete(rendered, model, TOKENS_PER_SENTENCE * len(batch), variant)
    except InvalidReply:
        return {}
    answers: dict[str, str] = {}
    for item in reply.sentences:
        answers.setdefault(item.id, " ".join(item.text.split()))
    return answers


# What to do about each failed check, said to the model on its second try.
ADVICE = {
    "numbers": "use exactly the numbers of its own item",
    "names": "keep the names of its own item exactly, add no other",
    "meaning": "say what its own item says",
    "language": "write every word in the language asked for",
    "voice": "write about the talk, without I, we or our: use the passive or 'the speaker'",
    "length": "say all of its item and nothing more",
    "sentence": "write one full sentence that ends with a full stop",
}


def revise_note(failed: dict[str, Written]) -> str:
    findings = [
        f"{job_id}: {ADVICE[c.check]}" + (f" ({c.detail})" if c.detail else "")
        for job_id, written in failed.items()
        for c in written.failed()
    ]
    return REVISE_NOTE.format(findings="; ".join(findings)) if findings else ""


def one_round(
    jobs: list[Job], ask: Callable, slots: int, before: dict[str, Written], variant: int
) -> dict[str, Written]:
    """Every job's answer with its checks (an unanswered job has an empty text, failing)."""
    batches = [jobs[k : k + BATCH] for k in range(0, len(jobs), BATCH)]
    notes = [revise_note({j.id: before[j.id] for j in b if j.id in before}) for b in batches]
    answers = ordered_map(lambda k: ask(batches[k], notes[k], variant), range(len(batches)), slots)
    return {
        job.id: Written(text=answer.get(job.id, ""), checks=job.check(answer.get(job.id, "")))
        for batch, answer in zip(batches, answers, strict=True)
        for job in batch
    }


def written(jobs: list[Job], llm: LLM, prompt: Prompt, values: dict) -> dict[str, Written]:
    """Each job's sentence by id: the first answer that passes every check, else its
    fallback."""

    def ask(batch: list[Job], revise: str, variant: int) -> dict[str, str]:
        return asked(batch, llm, prompt, values, revise, variant)

    first = one_round(jobs, ask, llm.slots, {}, 0)
    again = [job for job in jobs if not first[job.id].verified]
    second = one_round(again, ask, llm.slots, first, 1) if again else {}
    done = {}
    for job in jobs:
        tries = [first[job.id], *([second[job.id]] if job.id in second else [])]
        done[job.id] = next((t for t in tries if t.verified), None) or job.fallback(tries)
    return done
