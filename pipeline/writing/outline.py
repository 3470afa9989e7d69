"""The outline stage (outline.json): chapters along the causal chain, planned by the LLM
over the evidence."""

from typing import Literal

from pydantic import BaseModel, Field, create_model

from pipeline.llm.client import LLM
from pipeline.prompts import Prompt
from pipeline.schema import CAUSAL_ORDER, Evidence, Outline, OutlineSection, TalkMeta
from pipeline.text import shorten

MAX_TOKENS = 1024


class ChapterBase(BaseModel):
    title: str = Field(min_length=3, max_length=80)


def reply_model(evidence_ids: list[str]) -> type[BaseModel]:
    """The reply schema, with evidence ids restricted to those that exist."""
    evidence_id = Literal[tuple(evidence_ids)]  # type: ignore[valid-type]
    chapter = create_model(
        "Chapter",
        __base__=ChapterBase,
        evidence_ids=(list[evidence_id], Field(min_length=1, max_length=12)),
    )
    fields = {role: (chapter, ...) for role in CAUSAL_ORDER}
    return create_model("OutlineReply", __base__=ChapterBase, **fields)


def evidence_listing(evidence: Evidence, words: int = 40) -> str:
    """One line per unit; a slide's title and bullets stay visibly apart (" / ")."""
    return "\n".join(
        f"[{u.id}] {shorten(u.text.replace(chr(10), ' / '), words)}" for u in evidence.units
    )


def build_outline(evidence: Evidence, meta: TalkMeta, llm: LLM, prompt: Prompt) -> Outline:
    """Ask the LLM for five causal-chain chapters, each backed by existing evidence ids."""
    rendered = prompt.render(title=meta.title or "", evidence=evidence_listing(evidence))
    reply = llm.complete(rendered, reply_model([u.id for u in evidence.units]), MAX_TOKENS)
    sections = []
    for role in CAUSAL_ORDER:
        chapter = getattr(reply, role)
        ids = list(dict.fromkeys(chapter.evidence_ids))  # keep order, drop repeats
        sections.append(OutlineSection(role=role, title=chapter.title.strip(), evidence_ids=ids))
    return Outline(title=meta.title or reply.title.strip(), sections=sections)
