"""The talk's own sections, found in code before any LLM call: slide groups where a
timeline ties speech to slides, otherwise spoken signposts ("next", "第二个") and a token
bound."""

import re
from dataclasses import dataclass, field

from pipeline.core.text import estimate_tokens
from pipeline.notes.options import NotesOptions
from pipeline.schema import Evidence, EvidenceUnit, Section

# Phrases speakers use to open a new part of a talk (English and Chinese), at a unit's start.
SIGNPOST = re.compile(
    r"^\W*(?:(?:so\s+|and\s+|now\s+|okay\s+|ok\s+)*(?:next|now let'?s|let'?s (?:move|turn|look|"
    r"talk)|moving on|to sum up|in summary|to summari[sz]e|finally|first(?:ly)?|second(?:ly)?|"
    r"third(?:ly)?|lastly|in conclusion)\b|(?:那么|好|好的|OK|ok)?[，, ]*(?:接下来|下面|首先|"
    r"其次|然后我们|最后|总结|总的来说|第[一二三四五六七八九十\d]+(?:个|部分|点|节)))",
    re.IGNORECASE,
)


@dataclass
class Group:
    units: list[EvidenceUnit] = field(default_factory=list)
    title: str | None = None

    @property
    def tokens(self) -> int:
        return sum(estimate_tokens(u.text) for u in self.units)


def slide_title(unit: EvidenceUnit) -> str | None:
    first = unit.text.strip().splitlines()[0].strip() if unit.text.strip() else ""
    return first if first and not first.startswith("(slide ") else None


def by_slide(speech: list[EvidenceUnit], shown: list[EvidenceUnit]) -> list[Group]:
    """Consecutive speech on one slide, with that slide's text and notes the first time."""
    slide_units: dict[int, list[EvidenceUnit]] = {}
    for unit in shown:
        slide_units.setdefault(unit.slide, []).append(unit)
    groups: list[Group] = []
    seen: set[int] = set()
    previous = object()
    for unit in speech:
        if unit.slide != previous or not groups:
            extra = slide_units.get(unit.slide, []) if unit.slide not in seen else []
            seen.add(unit.slide)
            title = next((t for u in extra if u.kind == "slide" and (t := slide_title(u))), None)
            groups.append(Group(units=list(extra), title=title))
        groups[-1].units.append(unit)
        previous = unit.slide
    return groups


def by_signposts(speech: list[EvidenceUnit], opts: NotesOptions) -> list[Group]:
    groups = [Group()]
    for unit in speech:
        current = groups[-1]
        if (
            current.units
            and current.tokens >= opts.min_section_tokens
            and SIGNPOST.match(unit.text)
        ):
            groups.append(Group())
        groups[-1].units.append(unit)
    return groups


def merge_small(groups: list[Group], minimum: int) -> list[Group]:
    """A short slide group (a title slide, a slide shown for a sentence) joins the group
    before it, so a section has enough to say."""
    merged: list[Group] = []
    for group in groups:
        if merged and (group.tokens < minimum or merged[-1].tokens < minimum):
            merged[-1].units += group.units
            merged[-1].title = merged[-1].title or group.title
        else:
            merged.append(group)
    return merged


def split_large(groups: list[Group], maximum: int) -> list[Group]:
    out: list[Group] = []
    for group in groups:
        part = Group(title=group.title)
        for unit in group.units:
            if part.units and part.tokens + estimate_tokens(unit.text) > maximum:
                out.append(part)
                part = Group(title=group.title)
            part.units.append(unit)
        out.append(part)
    return out


def split_sections(evidence: Evidence, opts: NotesOptions) -> list[Section]:
    """Sections in talk order; every speech unit is in exactly one. Slides nobody spoke
    over are not part of the talk as given and belong to no section."""
    speech = sorted(
        (u for u in evidence.units if u.kind == "transcript"), key=lambda u: u.start or 0.0
    )
    shown = [u for u in evidence.units if u.kind != "transcript"]
    if not speech:  # a deck without speech: one section per slide
        groups = by_slide(shown, [])
    elif any(u.slide is not None for u in speech):
        groups = merge_small(by_slide(speech, shown), opts.min_section_tokens)
    else:
        groups = by_signposts(speech, opts)
    groups = split_large([g for g in groups if g.units], opts.max_section_tokens)
    return [
        Section(
            id=f"sec-{i:02d}",
            title=group.title,
            unit_ids=[u.id for u in group.units],
            start=next((u.start for u in group.units if u.start is not None), None),
        )
        for i, group in enumerate(groups, start=1)
    ]
