"""The notes stage (notes.json): the talk cut into its own sections, and each section's
claims as structured data, checked in code against the units they cite.

Small models copy passages and shift ids by one (see ../shared/design.md), so the model's
claims are kept only when their numbers, terms and words are found in the units they cite.
A number the model skipped is added back as the sentence that says it: the article's
numbers come from the talk, never from the model's memory.
"""

import re
from typing import Literal

from pydantic import BaseModel, Field, create_model

from pipeline.core.grounding import (
    MIN_CONTENT_TOKENS,
    MIN_SUPPORT,
    cited_text,
    content_tokens,
    duplicate_of,
    invented_numbers,
    mentions,
    sentences_by_line,
    speaks_of_notes,
    split_sentences,
    support,
)
from pipeline.core.prompts import Prompt
from pipeline.core.text import (
    AFTER_CLAUSE,
    CUE_BREAK,
    LANGUAGE_NAMES,
    NUMBER,
    has_cjk,
    numbers,
    writing_language,
)
from pipeline.llm.client import LLM, InvalidReply
from pipeline.llm.parallel import ordered_map
from pipeline.notes.options import NotesOptions
from pipeline.notes.sections import split_sections
from pipeline.schema import Claim, DroppedClaim, Evidence, EvidenceUnit, Notes, Section

MAX_TOKENS = 900
# A claim of a slide's lines that opens with a pronoun has lost its subject: from a title
# slide ("Yineng Zhang / SGLang Core Maintainer / … at Together AI") a small model writes
# "It is maintained by SGLang Core Maintainer at SGLang project."
PRONOUN_SUBJECT = re.compile(
    r"^\s*(?:(?:It|They)\b|(?:This|That|These|Those)\s+(?:is|are|was|were|has|have|can|will|"
    r"does|do|makes|allows|enables|gives|means)\b|它们?)"
)
MAX_STATEMENT_CHARS = 300
MAX_EXCERPT_CHARS = 220
MAX_WINDOW_CHARS = 100
URL = re.compile(r"https?://\S+")
# A number standing alone, or in thousands or millions ("52.3k token/s", "10K contexts").
QUANTITY = re.compile(r"(?<![A-Za-z\d.])(\d+(?:[.,]\d+)*)(?:[kKM])?(?![A-Za-z\d]|[.,]\d)")
CONDITION = re.compile(
    r"(?<![\w.-])(?:[A-Za-z][\w.-]*\d[\w.-]*[A-Za-z\d]|\d+(?:\.\d+)?[BMK])(?![\w])"
)
YEAR = re.compile(r"(?:19|20)\d\d")
TIMES = re.compile(r"(?<=\d)[x×](?![A-Za-z])")  # "2.2x" is a quantity, "x86" is a name


def reply_model(unit_ids: list[str], max_claims: int) -> type[BaseModel]:
    unit_id = Literal[tuple(unit_ids)]  # type: ignore[valid-type]
    claim = create_model(
        "ClaimReply",
        statement=(str, Field(min_length=8, max_length=MAX_STATEMENT_CHARS)),
        units=(list[unit_id], Field(min_length=1, max_length=3)),
        numbers=(list[str], Field(max_length=6)),
        terms=(list[str], Field(max_length=6)),
    )
    return create_model(
        "NotesReply", claims=(list[claim], Field(min_length=1, max_length=max_claims))
    )


def listing(units: list[EvidenceUnit]) -> str:
    def label(unit: EvidenceUnit) -> str:
        return f"slide {unit.slide}" if unit.kind == "slide" else unit.kind

    return "\n".join(f"[{u.id}] ({label(u)}) {u.text.replace(chr(10), ' / ')}" for u in units)


def problems(claim: Claim, units: dict[str, EvidenceUnit]) -> list[str]:
    """Why a claim cannot be kept: a number or term its units do not have, or words they
    do not support (a claim under a neighbour's id scores far below one under its own)."""
    source = cited_text(claim.units, units)
    found = []
    for number in claim.numbers:
        if not NUMBER.search(number):
            continue
        if missing := invented_numbers(number, source):
            found.append(f"number {', '.join(missing)} is not in {', '.join(claim.units)}")
    if missing := invented_numbers(claim.statement, source):
        found.append(f"number {', '.join(missing)} is not in {', '.join(claim.units)}")
    found += [
        f"term {t!r} is not in {', '.join(claim.units)}"
        for t in claim.terms
        if not mentions(source, t)
    ]
    if (score := support(claim.statement, source)) < MIN_SUPPORT:
        found.append(f"support {score:.2f} against {', '.join(claim.units)}")
    if len(content_tokens(URL.sub(" ", claim.statement))) < MIN_CONTENT_TOKENS:
        found.append("too short to state a fact")
    if speaks_of_notes(claim.statement):
        found.append("speaks of the notes, not of the talk")
    slides_only = bool(claim.units) and all(
        units[u].kind == "slide" for u in claim.units if u in units
    )
    if slides_only and PRONOUN_SUBJECT.match(claim.statement):
        found.append("says 'it' of nothing: a slide's line names what it is about")
    return found


def reattributed(claim: Claim, section: list[EvidenceUnit]) -> Claim | None:
    """The claim under the section's unit that supports it best, if that one passes every
    check: small models copy a passage and cite its neighbour's id."""
    best = max(section, key=lambda u: support(claim.statement, u.text))
    moved = claim.model_copy(update={"units": [best.id]})
    return moved if not problems(moved, {best.id: best}) else None


def checked(
    raw: list[Claim], units: dict[str, EvidenceUnit], section: list[EvidenceUnit]
) -> tuple[list[Claim], list[DroppedClaim]]:
    kept: list[Claim] = []
    dropped: list[DroppedClaim] = []
    for claim in raw:
        found = problems(claim, units)
        if found and (moved := reattributed(claim, section)):
            claim, found = moved, []
        if not found and duplicate_of(claim.statement, [k.statement for k in kept]) is not None:
            found = ["repeats an earlier claim"]
        if found:
            dropped.append(DroppedClaim(statement=claim.statement, reason="; ".join(found)))
        else:
            kept.append(claim)
    return kept, dropped


def conditions(text: str) -> set[str]:
    """Names with digits that qualify a measurement: hardware and model sizes ("A100",
    "H100", "30B", "Llama-3-8B")."""
    return set(CONDITION.findall(text))


def with_conditions(claim: Claim, units: dict[str, EvidenceUnit]) -> Claim:
    """A result stated without the conditions its source gives with the number ("2.2 times
    the throughput" said "on A100 with a 30B model") becomes the source's own excerpt:
    a number without its hardware and model misleads."""
    sentences = sentences_by_line(cited_text(claim.units, units))
    for number in quantities(claim.statement):
        for sentence in sentences:
            if number not in quantities(sentence):
                continue
            text = excerpt(sentence, number)
            if conditions(text) - conditions(claim.statement) and number in quantities(text):
                update = {"statement": text, "numbers": sorted(numbers(text))}
                return claim.model_copy(update=update)
    return claim


def with_terms(claim: Claim, terms: list[str]) -> Claim:
    """The deck's terms the claim names, spelled as the deck spells them."""
    named = [t for t in terms if mentions(claim.statement, t)]
    return claim.model_copy(update={"terms": list(dict.fromkeys([*named, *claim.terms]))})


def excerpt(sentence: str, number: str | None = None) -> str:
    """A sentence short enough to be a claim: a long run-on sentence (small ASR models
    join clauses with commas) is cut to the clauses around `number`; unpunctuated Chinese
    subtitles to the cues around it (the evidence keeps a space at each cue's end), joined
    by commas where the speaker paused; text without either to a window of characters."""
    text = sentence.strip()
    cjk = has_cjk(text)
    budget = MAX_WINDOW_CHARS if cjk else MAX_EXCERPT_CHARS
    if len(text) <= budget:
        return text
    parts, glue = [p for p in AFTER_CLAUSE.split(text) if p], "" if cjk else " "
    if len(parts) == 1 and cjk:
        parts, glue = [p for p in CUE_BREAK.split(text) if p], "，"
    lo = next((k for k, p in enumerate(parts) if number and number in p), 0)
    if len(parts[lo]) > budget:
        at = max(parts[lo].find(number), 0) if number else 0
        start = max(at - budget // 2, 0)
        return parts[lo][start : start + budget]
    hi = lo + 1
    while hi < len(parts) and len(glue.join(parts[lo : hi + 1])) <= budget:
        hi += 1
    while lo > 0 and len(glue.join(parts[lo - 1 : hi])) <= budget:
        lo -= 1
    return glue.join(parts[lo:hi])


def sentence_claim(sentence: str, unit: EvidenceUnit, number: str | None = None) -> Claim:
    text = excerpt(sentence, number)
    return Claim(statement=text, units=[unit.id], numbers=sorted(numbers(text)))


def quantities(text: str) -> set[str]:
    """Numbers that stand alone as quantities ("0.8 seconds", "60 to 80", 52.3 of "52.3k"),
    not parts of names, versions or links ("A100", "Technique2", "2403.06988v1"), and not
    years: "2025 Highlight: DeepSeek V3" is a slide title, not a measurement to bring back."""
    found = set(QUANTITY.findall(TIMES.sub(" ", URL.sub(" ", text))))
    return {n for n in found if not YEAR.fullmatch(n)}


def backfill(claims: list[Claim], units: list[EvidenceUnit], limit: int) -> list[Claim]:
    """Add what the model skipped: the sentences carrying quantities no kept claim has
    (what was said first, then what was shown), and, up to `limit` claims in all, a
    sentence of each stretch of speech no claim cites, so no part of the talk drops out.
    A quantity a slide shows comes back as the slide's line even when speech has said it:
    the line binds it to what it measures ("52.3k input token/s/node"), where speech
    recognition may have garbled that ("52.3k and Potokans per second")."""
    shown = {u.id for u in units if u.kind == "slide"}
    said = set().union(*(numbers(c.statement) for c in claims))
    on_slides = set().union(*(numbers(c.statement) for c in claims if shown & set(c.units)))
    added = []
    ordered = sorted(units, key=lambda u: u.kind != "transcript")
    for unit in ordered:
        on_slide = unit.id in shown
        for sentence in sentences_by_line(unit.text):
            if len(content_tokens(sentence)) < MIN_CONTENT_TOKENS:
                continue
            # A long sentence may need several excerpts, one per stretch with numbers.
            while new := quantities(sentence) - (on_slides if on_slide else said):
                claim = sentence_claim(sentence, unit, min(new, key=sentence.find))
                added.append(claim)
                got = numbers(claim.statement) | new & {min(new, key=sentence.find)}
                said |= got
                if on_slide:
                    on_slides |= got
    cited = {u for c in claims + added for u in c.units}
    for unit in units:
        if len(claims) + len(added) >= limit:
            break
        if unit.kind == "transcript" and unit.id not in cited:
            longest = max(split_sentences(unit.text), key=len, default="")
            if len(content_tokens(longest)) >= MIN_CONTENT_TOKENS:
                added.append(sentence_claim(longest, unit))
    order = {u.id: k for k, u in enumerate(units)}
    return sorted(claims + added, key=lambda c: min(order.get(u, 0) for u in c.units))


def section_notes(
    section: Section,
    evidence_units: dict[str, EvidenceUnit],
    terms: list[str],
    language: str,
    llm: LLM,
    prompt: Prompt,
    opts: NotesOptions,
) -> tuple[Section, str | None]:
    units = [evidence_units[i] for i in section.unit_ids]
    rendered = prompt.render(
        language=LANGUAGE_NAMES[language],
        passages=listing(units),
        max_claims=str(opts.max_claims),
    )
    fallback = None
    try:
        reply = llm.complete(rendered, reply_model(section.unit_ids, opts.max_claims), MAX_TOKENS)
        raw = [Claim(**c.model_dump()) for c in reply.claims]
    except InvalidReply as err:  # an outage (EndpointError) fails the stage instead
        raw, fallback = (
            [],
            f"{section.id}: no valid claims from the LLM ({err}); kept its sentences",
        )
    kept, dropped = checked(raw, evidence_units, units)
    kept = [with_conditions(c, evidence_units) for c in kept]
    claims = [with_terms(c, terms) for c in backfill(kept, units, opts.max_claims + 2)]
    return section.model_copy(update={"claims": claims, "dropped": dropped}), fallback


def build_notes(
    evidence: Evidence,
    terms: list[str],
    llm: LLM,
    prompt: Prompt,
    opts: NotesOptions,
    progress=None,
) -> Notes:
    """One LLM call per section, each bounded in tokens, up to the endpoint's slots at once;
    `terms` is the deck's vocabulary."""
    language = writing_language(evidence.language)
    units = evidence.by_id()

    def noted(section: Section) -> tuple[Section, str | None]:
        return section_notes(section, units, terms, language, llm, prompt, opts)

    done = ordered_map(noted, split_sections(evidence, opts), llm.slots, progress)
    return Notes(
        language=language,
        sections=[section for section, _ in done],
        fallbacks=[fallback for _, fallback in done if fallback],
    )
