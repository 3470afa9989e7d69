"""The draft stage (draft.json): English chapters written from the evidence, Chinese
translated paragraph by paragraph so both versions carry the same claims and citations."""

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field, create_model, field_validator
from rapidfuzz import fuzz

from pipeline.llm.client import LLM
from pipeline.prompts import PLACEHOLDER, Prompt
from pipeline.schema import (
    Draft,
    DraftParagraph,
    DraftSection,
    DraftText,
    Evidence,
    Outline,
    OutlineSection,
    Role,
)
from pipeline.text import CHINESE_PROSE_SHARE, cjk_share, has_cjk, near_duplicate

MAX_TOKENS_EN = 700
MAX_TOKENS_ZH = 1000
TRANSLATION_KINDS = {"title": "标题", "paragraph": "段落"}
ECHO_MIN_CHARS = 20  # shorter fixed lines ("Article:") are too generic to flag
ECHO_SIMILARITY = 90
LIST_NUMBER = re.compile(r"^\d+[.、]\s*")
# What each chapter explains, by role (the outline prompt lists the same roles).
ROLE_GOALS: dict[Role, str] = {
    "problem": "the pressure or problem the talk starts from, and who feels it",
    "cause": "why existing approaches fail or waste resources",
    "mechanism": "how the proposed design works, step by step, and its trade-offs",
    "results": "the measured results, with exact numbers and the conditions they hold for",
    "limits": "where the approach does not help, open questions, what is not yet verified",
}


def instruction_lines(prompt: Prompt, role_goal: str) -> list[str]:
    """The prompt's own wording: a paragraph that repeats it is an echo, not prose. (Titles
    and evidence are not included: repeating those is weak but grounded.)"""
    template = (prompt.system + "\n" + prompt.user).splitlines()
    lines = [PLACEHOLDER.sub("", line).strip() for line in template]
    return [line for line in [*lines, role_goal] if len(line) >= ECHO_MIN_CHARS]


def is_echo(text: str, instructions: list[str]) -> bool:
    return any(
        fuzz.partial_ratio(line.lower(), text.lower()) >= ECHO_SIMILARITY for line in instructions
    )


def english_reply_model(evidence_ids: list[str], instructions: list[str]) -> type[BaseModel]:
    """Citations restricted to the chapter's evidence; paragraphs that echo the prompt are
    dropped, and a reply with nothing else is invalid (and retried)."""
    evidence_id = Literal[tuple(evidence_ids)]  # type: ignore[valid-type]
    paragraph = create_model(
        "Paragraph",
        text=(str, Field(min_length=20, max_length=1500)),
        citations=(list[evidence_id], Field(min_length=1, max_length=6)),
    )

    def without_echoes(paragraphs: list) -> list:
        kept = [p for p in paragraphs if not is_echo(p.text, instructions)]
        if not kept:
            # Do not quote the prompt back: the small model parrots whatever the error says.
            raise ValueError("every paragraph copies the instructions instead of stating facts")
        return kept

    return create_model(
        "ChapterReply",
        paragraphs=(list[paragraph], Field(min_length=1, max_length=3)),
        __validators__={"without_echoes": field_validator("paragraphs")(without_echoes)},
    )


class ChineseParagraph(BaseModel):
    zh: str = Field(min_length=2)

    @field_validator("zh")
    @classmethod
    def check_chinese(cls, text: str) -> str:
        if cjk_share(text) < CHINESE_PROSE_SHARE:
            raise ValueError("the translation is not written in Chinese")
        return text


class ChineseTitle(ChineseParagraph):
    @field_validator("zh")
    @classmethod
    def check_chinese(cls, text: str) -> str:
        # Titles are short and often mostly Latin terms ("KV cache 分页"): any Chinese will do.
        if not has_cjk(text):
            raise ValueError("the translation contains no Chinese")
        return text


def write_section(
    section: OutlineSection, title: str, evidence: Evidence, llm: LLM, prompt: Prompt
) -> DraftSection:
    units = evidence.by_id()
    listing = "\n".join(f"[{i}] {units[i].text}" for i in section.evidence_ids)
    rendered = prompt.render(
        article_title=title,
        chapter_title=section.title,
        role_goal=ROLE_GOALS[section.role],
        evidence=listing,
    )
    instructions = instruction_lines(prompt, ROLE_GOALS[section.role])
    reply_model = english_reply_model(section.evidence_ids, instructions)
    reply = llm.complete(rendered, reply_model, MAX_TOKENS_EN)
    paragraphs = [
        DraftParagraph(text=p.text.strip(), citations=list(dict.fromkeys(p.citations)))
        for p in reply.paragraphs
    ]
    return DraftSection(role=section.role, title=section.title, paragraphs=paragraphs)


def without_repeats(section: DraftSection, earlier: list[DraftParagraph]) -> DraftSection | None:
    """The section without paragraphs an earlier chapter already has (small models restate
    them); None when nothing new is left, so the chapter is left out rather than repeated."""
    fresh = [
        p for p in section.paragraphs if not any(near_duplicate(p.text, e.text) for e in earlier)
    ]
    return section.model_copy(update={"paragraphs": fresh}) if fresh else None


def translate(text: str, kind: Literal["title", "paragraph"], llm: LLM, prompt: Prompt) -> str:
    """One title or paragraph into Simplified Chinese (one item per call: the small bundled
    model echoes English back when given a numbered list)."""
    reply_model = ChineseTitle if kind == "title" else ChineseParagraph
    rendered = prompt.render(kind=TRANSLATION_KINDS[kind], text=text)
    reply = llm.complete(rendered, reply_model, MAX_TOKENS_ZH)
    return LIST_NUMBER.sub("", reply.zh.strip())


def translate_section(english: DraftSection, llm: LLM, prompt: Prompt) -> DraftSection:
    paragraphs = [
        DraftParagraph(text=translate(p.text, "paragraph", llm, prompt), citations=p.citations)
        for p in english.paragraphs
    ]
    title = translate(english.title, "title", llm, prompt)
    return DraftSection(role=english.role, title=title, paragraphs=paragraphs)


@dataclass(frozen=True)
class DraftPrompts:
    write_section: Prompt
    translate: Prompt

    def all(self) -> list[Prompt]:
        return [self.write_section, self.translate]


def write_drafts(outline: Outline, evidence: Evidence, llm: LLM, prompts: DraftPrompts) -> Draft:
    """English and Chinese drafts with the same chapters, paragraphs and citations."""
    english: list[DraftSection] = []
    for section in outline.sections:
        written = write_section(section, outline.title, evidence, llm, prompts.write_section)
        if fresh := without_repeats(written, [p for s in english for p in s.paragraphs]):
            english.append(fresh)
    chinese = [translate_section(section, llm, prompts.translate) for section in english]
    title_zh = translate(outline.title, "title", llm, prompts.translate)
    return Draft(
        en=DraftText(lang="en", title=outline.title, sections=english),
        zh=DraftText(lang="zh", title=title_zh, sections=chinese),
    )
