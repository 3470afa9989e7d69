"""What a talk states, one thing at a time: the evidence units cut into fact sources. A
slide but the deck's cover gives a source per line (its title is their context, never a
fact of its own) and per table row (its header the context); speech and speaker notes a
source per sentence. Lines and sentences too short to state anything are left out."""

from pipeline.core.grounding import MIN_CONTENT_TOKENS, content_tokens, split_sentences
from pipeline.core.terminology import URL
from pipeline.core.text import AFTER_CLAUSE, CUE_BREAK, has_cjk
from pipeline.evidence.screen import WORD
from pipeline.schema import Evidence, EvidenceUnit
from pipeline.schema.ledger import FactSource

# A deck's first slide is its cover: the talk's title, its speakers, their affiliations and
# the date (the first slide of each of the seven decks in evals/cases and ../shared), no claim.
COVER = 1
# One source is at most this long: one thing said, which a small model rewrites whole.
# Longer speech (subtitles of a lecture run clauses together without a full stop) is cut
# at its clause ends or, in Chinese, at the pauses between cues.
MAX_SOURCE = {"zh": 60, "en": 40}  # Chinese characters; English words


def table_cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def is_rule(line: str) -> bool:
    """The "| --- | --- |" line under a Markdown table's header."""
    return set(line.replace("|", "").replace(" ", "")) <= set("-:")


def table_rows(lines: list[str]) -> list[tuple[str, str]]:
    """(row, header) per data row of a Markdown table: each row said as "column: value"
    pairs, so a number stays with what it measures."""
    header, rows = table_cells(lines[0]), []
    for line in lines[1:]:
        if is_rule(line):
            continue
        pairs = [f"{h}: {c}" if h else c for h, c in zip(header, table_cells(line), strict=False)]
        rows.append(("; ".join(p for p in pairs if p.strip(": ")), " | ".join(header)))
    return rows


def slide_sources(unit: EvidenceUnit) -> list[FactSource]:
    lines = [line.strip() for line in unit.text.splitlines() if line.strip()]
    title = lines[0] if len(lines) > 1 and not lines[0].startswith("|") else ""
    body = lines[1:] if title else lines
    texts = [(line, title, "slide") for line in body if not line.startswith("|")]
    table = [line for line in body if line.startswith("|")]
    if len(table) > 1:
        texts += [(row, header, "table") for row, header in table_rows(table)]
    return [
        FactSource(
            id=f"{unit.id}.{n}",
            unit=unit.id,
            kind=kind,
            text=text,
            context=context,
            slide=unit.slide,
        )
        for n, (text, context, kind) in enumerate(texts)
    ]


def size(text: str) -> int:
    return len(text) if has_cjk(text) else len(text.split())


def pieces(sentence: str) -> list[str]:
    """A sentence, or its clauses packed in order into pieces no longer than MAX_SOURCE
    (a clause longer still stands alone)."""
    cjk = has_cjk(sentence)
    budget = MAX_SOURCE["zh" if cjk else "en"]
    if size(sentence) <= budget:
        return [sentence]
    parts = [p.strip() for p in AFTER_CLAUSE.split(sentence) if p.strip()]
    if cjk:
        parts = [q for p in parts for q in CUE_BREAK.split(p) if q.strip()]
    glue = "，" if cjk else " "
    packed: list[str] = []
    for part in parts:
        if packed and size(packed[-1] + glue + part) <= budget:
            packed[-1] = packed[-1].rstrip("，,") + glue + part if cjk else f"{packed[-1]} {part}"
        else:
            packed.append(part)
    return packed


def spoken_sources(unit: EvidenceUnit) -> list[FactSource]:
    kind = "notes" if unit.kind == "notes" else "speech"
    return [
        FactSource(
            id=f"{unit.id}.{n}",
            unit=unit.id,
            kind=kind,
            text=sentence,
            slide=unit.slide,
            start=unit.start,
            uncertain=[w for w in unit.uncertain if w in WORD.findall(sentence)],
        )
        for n, sentence in enumerate(
            piece for sentence in split_sentences(unit.text) for piece in pieces(sentence)
        )
    ]


def fact_sources(evidence: Evidence) -> list[FactSource]:
    """Every fact source of the talk, in the order of its units."""
    sources = []
    for unit in evidence.units:
        if unit.kind == "slide" and unit.slide == COVER:
            continue
        cut = slide_sources(unit) if unit.kind == "slide" else spoken_sources(unit)
        sources += [
            s for s in cut if len(content_tokens(URL.sub(" ", s.text))) >= MIN_CONTENT_TOKENS
        ]
    return sources
