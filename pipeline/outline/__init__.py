"""The outline stage (outline.json): title, card summary, tags, and chapters as runs of the
talk's sections, planned by the LLM over what the sections state (the notes).

The model only says where chapters start, what they are called and which causal role
they play; code keeps them in talk order, covering every section once. A role is kept only
where the chapter's notes back it (no "results" without a number), and a title that is a
slide fragment, a sentence, the article's own title, a line of the prompt or in the wrong
language is replaced (by a slide title, or a heading the model names for that chapter
alone from its facts; pipeline.outline.headings), else the chapter joins the one before
(the first stands without a heading: the lead). A title
without a subtitle gets one in the house style ("main claim: subtitle"), naming the terms
its mechanism chapters explain.
"""

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field, create_model

from pipeline.core.checks import sentence_check
from pipeline.core.grounding import is_echo, support
from pipeline.core.prompts import Prompt
from pipeline.core.text import LANGUAGE_NAMES, numbers
from pipeline.llm.client import LLM
from pipeline.notes import what_it_states
from pipeline.outline.headings import (
    CLOSING,
    LISTING_TOKENS,
    MAX_HEADING_CHARS,
    ROLE_TITLES,
    TitleCheck,
    chapter_title,
    clip,
    heading_namer,
    in_language,
    normal,
    ungrounded,
)
from pipeline.outline.subtitle import (
    subtitle_terms,
    with_subtitle,
)
from pipeline.schema import CAUSAL_ORDER, Chapter, Evidence, Notes, Outline, Section, TalkMeta

MAX_TOKENS = 700
# Chapters an article has at most: 8 for a talk of up to half an hour (the 30-minute
# lecture zh-deepseek-r1 fills 8), then one more per MINUTES_PER_CHAPTER, up to
# MOST_CHAPTERS: at 8 an hour-long talk's article was no longer than a 20-minute one's
# (48 sentences for 51 minutes, benchmarks/long_talk.py --joined). A reader's bound.
MAX_CHAPTERS = 8
MINUTES_PER_CHAPTER = 4
MOST_CHAPTERS = 15
MAX_RUN = 3  # sections a chapter may run over before it is split (at a slide title)


def sections_listing(notes: Notes) -> str:
    budget = max(LISTING_TOKENS // max(len(notes.sections), 1), 30)
    lines = []
    for section in notes.sections:
        title = f"({section.title}) " if section.title else ""
        facts = " | ".join(f.text for f in section.facts) or "(no facts)"
        lines.append(f"[{section.id}] {clip(title + facts, budget)}")
    return "\n".join(lines)


def chapter_limit(evidence: Evidence) -> int:
    """How many chapters the talk's length allows (MAX_CHAPTERS to MOST_CHAPTERS)."""
    ends = [u.end or u.start or 0.0 for u in evidence.units if u.kind != "slide"]
    minutes = max(ends, default=0.0) / 60
    return min(MOST_CHAPTERS, max(MAX_CHAPTERS, round(minutes / MINUTES_PER_CHAPTER)))


def reply_model(section_ids: list[str], limit: int = MAX_CHAPTERS) -> type[BaseModel]:
    section_id = Literal[tuple(section_ids)]  # type: ignore[valid-type]
    role = Literal[(*CAUSAL_ORDER, "none")]  # type: ignore[valid-type]
    chapter = create_model(
        "ChapterReply",
        first_section=(section_id, ...),
        title=(str, Field(min_length=2, max_length=MAX_HEADING_CHARS)),
        role=(role, ...),
    )
    return create_model(
        "OutlineReply",
        title=(str, Field(min_length=2, max_length=120)),
        summary=(str, Field(min_length=10, max_length=300)),
        tags=(list[str], Field(min_length=1, max_length=3)),
        chapters=(list[chapter], Field(min_length=1, max_length=limit)),
    )


def spans(starts: list[int], count: int) -> list[range]:
    """Chapter k runs from its start to the next chapter's start."""
    bounds = [*starts, count]
    return [range(bounds[k], bounds[k + 1]) for k in range(len(starts))]


def joined_repeats(by_start: dict) -> None:
    """Planned chapters headed as the one before are one chapter before any split: a
    small model heads its last three chapters alike, and joined only after the split
    they were one chapter over eight sections again."""
    kept = None
    for start in sorted(by_start):
        title = normal(by_start[start].title or "")
        if title and title == kept:
            del by_start[start]
        else:
            kept = title


def joined_shortest(by_start: dict, count: int) -> bool:
    """The two neighbouring chapters shortest together, when they run over MAX_RUN sections
    at most, joined under the first's heading; False when no two can be."""
    runs = spans(sorted(by_start), count)
    pairs = [(len(a) + len(b), b.start) for a, b in zip(runs, runs[1:], strict=False)]
    pairs = [pair for pair in pairs if pair[0] <= MAX_RUN]
    if not pairs:
        return False
    del by_start[min(pairs)[1]]
    return True


def split_long_runs(by_start: dict, notes: Notes, limit: int = MAX_CHAPTERS) -> None:
    """Chapters that run over more than MAX_RUN sections are split where a section has a
    slide title of its own (the one nearest the middle of the longest run first), up to
    `limit` chapters, short neighbours joined to make room: a small model planning a talk gives
    its first sections a chapter each and puts its last eleven under one heading. A piece
    takes the slide's title as its proposed heading, and the role of the chapter it was
    cut from. A talk without slides is split at the middle of the run, the piece named
    from its notes."""
    sections = notes.sections
    untitled = not any(s.title for s in sections)

    def may_open(k: int) -> bool:
        title = sections[k].title
        return untitled or (
            bool(title)
            and normal(title) != normal(sections[k - 1].title or "")
            and not CLOSING.fullmatch(title.strip(" !.?！。？"))
        )

    while True:
        cuts = [
            (-len(run), abs(k - (run.start + run.stop) / 2), k, run.start)
            for run in spans(sorted(by_start), len(sections))
            if len(run) > MAX_RUN
            for k in run[1:]
            if may_open(k)
        ]
        if not cuts or (len(by_start) >= limit and not joined_shortest(by_start, len(sections))):
            return
        *_, k, start = min(cuts)
        update = {"first_section": sections[k].id, "title": sections[k].title or ""}
        by_start[k] = by_start[start].model_copy(update=update)


def plan_chapters(
    reply,
    notes: Notes,
    check: TitleCheck,
    named: Callable[[list[Section]], str | None] = lambda _: None,
    limit: int = MAX_CHAPTERS,
) -> list[Chapter]:
    index = {s.id: i for i, s in enumerate(notes.sections)}
    by_start = {}
    for chapter in sorted(reply.chapters, key=lambda c: index[c.first_section]):
        by_start.setdefault(index[chapter.first_section], chapter)
    starts = sorted(by_start)
    if starts[0] != 0:  # the talk's opening belongs to the first chapter
        by_start[0] = by_start.pop(starts[0])
    joined_repeats(by_start)
    split_long_runs(by_start, notes, limit)
    starts = sorted(by_start)
    chapters: list[Chapter] = []
    for run in spans(starts, len(notes.sections)):
        sections = [notes.sections[i] for i in run]
        facts = [f for s in sections for f in s.facts]
        proposed = by_start[run.start]
        role = None if proposed.role == "none" else proposed.role
        if role == "results" and not any(numbers(f.text) for f in facts):
            role = None  # a "results" chapter without a single measured number
        # The chapter before may share the heading (the two then become one), no other.
        taken = frozenset(normal(c.title) for c in chapters[:-1])
        title = chapter_title(proposed.title, sections, role, check, named, taken)
        # Nothing to say, no heading of its own, or the heading of the chapter before:
        # its sections join that chapter.
        if chapters and (not facts or title is None or title == chapters[-1].title):
            chapters[-1].sections.extend(s.id for s in sections)
            continue
        # Only the first chapter has none to join: it stands without a heading, the
        # article's lead (a role's name, "The problem", heads nothing a reader can find).
        title = title or ""
        chapters.append(Chapter(title=title, role=role, sections=[s.id for s in sections]))
    return chapters


def grounded_tags(tags: list[str], evidence: Evidence) -> list[str]:
    """Tags whose every word the talk says or shows: a small model tags a speech on civic
    duty "KV CACHE" (the prompt's example) unless held to the talk's own words."""
    said = "\n".join(evidence.lines())
    return [tag for tag in tags if support(tag, said) == 1.0]


def tags_of(proposed: list[str], meta: TalkMeta, evidence: Evidence, warnings: list[str]):
    """The talk's own tags, else the model's that the talk says or shows (up to three)."""
    upper = [t.strip().upper() for t in proposed if t.strip().isascii()]
    tags = meta.tags or grounded_tags(upper, evidence)[:3]
    if not meta.tags and len(tags) < len(upper):
        warnings.append(f"outline: tags the talk never mentions dropped: {upper}")
    return tags


def title_of(
    proposed: str, meta: TalkMeta, notes: Notes, check: TitleCheck, warnings: list[str]
) -> str | None:
    """The talk's own title, else the model's if it can stand, else its first slide's;
    None when there is none (the first chapter's heading is then the title)."""
    if meta.title and in_language(meta.title, check.language):
        return meta.title
    if not check.problems(proposed):
        return proposed.strip()
    warnings.append(f"outline: proposed title {proposed!r} rejected")
    return meta.title or notes.sections[0].title


def summary_of(
    summary: str, title: str, notes: Notes, check: TitleCheck, warnings: list[str]
) -> str:
    """The model's summary if it can stand: no prompt echo, the right language, more than
    the title, a sentence (on the readings, 4 of the 6 summaries without a subject and a
    finite verb were marked edit), nothing the talk's facts lack and not about the article
    (ungrounded); else none (the card and the article print no summary line: none is
    composed in code)."""
    if (
        is_echo(summary, check.prompt_lines)
        or not sentence_check(summary, check.language).passed
        or not in_language(summary, check.language)
        or normal(summary) in normal(title)  # the title said again is no summary
        or ungrounded(summary, what_it_states(notes.sections), check.language)
    ):
        warnings.append(f"outline: proposed summary {summary!r} rejected")
        return ""
    return summary


def titled_by_first_heading(chapters: list[Chapter], language: str) -> tuple[str, list[Chapter]]:
    """The article's title from its first chapter's heading, which that chapter then gives
    up (it becomes the lead: no heading says the title again); a role's name when the first
    chapter has none."""
    if not chapters[0].title:
        return ROLE_TITLES[language]["overview"], chapters
    lead = chapters[0].model_copy(update={"title": ""})
    return chapters[0].title, [lead, *chapters[1:]]


def build_outline(
    notes: Notes,
    evidence: Evidence,
    meta: TalkMeta,
    llm: LLM,
    prompt: Prompt,
    heading: Prompt | None = None,
) -> Outline:
    """The plan of the article; `heading` (the outline_heading prompt) names a chapter
    whose planned heading cannot stand, from its facts alone."""
    language = notes.language
    ids, limit = [s.id for s in notes.sections], chapter_limit(evidence)
    rendered = prompt.render(
        title=meta.title or "",
        sections=sections_listing(notes),
        language=LANGUAGE_NAMES[language],
        max_chapters=str(min(limit, max(len(ids), 2))),
    )
    reply = llm.complete(rendered, reply_model(ids, limit), MAX_TOKENS)
    check = TitleCheck(evidence, prompt, language)
    warnings: list[str] = []
    title = title_of(reply.title, meta, notes, check, warnings)
    tags = tags_of(reply.tags, meta, evidence, warnings)
    check = check.taking(title, meta.title, speaker=meta.speaker)
    named = heading_namer(llm, heading, title or "", check) if heading else (lambda _: None)
    chapters = plan_chapters(reply, notes, check, named, limit)
    if not title:
        title, chapters = titled_by_first_heading(chapters, notes.language)
    explained = subtitle_terms(title, chapters, notes, evidence, meta)
    summary = summary_of(reply.summary.strip(), title, notes, check, warnings)
    return Outline(
        language=language,
        title=with_subtitle(title, explained),
        summary=summary,
        tags=tags,
        chapters=chapters,
        warnings=warnings,
    )
