"""Subtitle cues as files from the wild have them, made into clean, ordered segments.

Each repair is reported with the numbers of the cues it touched (their place in the file,
from 1): rolling auto-captions (YouTube's: each cue repeats the line before it and times
its new words inline) are unrolled into the words said once; bilingual cues keep the
talk's language; cues are put in time order; a cue that starts before 0:00, ends before
it starts, starts after the recording ends, or overlaps the next one is fixed or dropped.
"""

import html
import re
from dataclasses import dataclass, field

from pipeline.core.text import (
    CHINESE_LANGUAGES,
    CHINESE_PROSE_SHARE,
    LATIN_WORD,
    cjk_share,
    clock,
    estimate_tokens,
    has_cjk,
    plain_text,
)
from pipeline.schema import Segment, Word

# WebVTT's inline word timing, <00:00:01.000> (hours optional).
TIMESTAMP_TAG = re.compile(r"<((?:\d+:)?\d{2}:\d{2}\.\d{3})>")
# WebVTT cue spans that are not HTML: <c.class>, <v Speaker>, <lang en> and their ends.
VTT_SPAN = re.compile(r"</?(?:c|v|lang)(?:[.\s][^<>]*)?>", re.I)
# Positioning blocks of ASS/SSA carried into SRT files: {\an8}, {\pos(10,20)}.
ASS_OVERRIDE = re.compile(r"\{\\[^{}]*\}")
# A file is taken for rolling captions when this share of its cues, and at least
# ROLLING_MIN of them, repeat the cue before ("Yes." twice is just speech).
ROLLING_SHARE = 0.3
ROLLING_MIN = 3
# A cue starting this long after the recording ends is not of this recording.
PAST_END_S = 5.0
# Time a cue with a broken end is given: about a token's worth of speech per token.
SECONDS_PER_TOKEN = 0.3
SHOWN_NUMBERS = 8
# Subtitles are bilingual when this share of their cues hold a line in each language.
BILINGUAL_SHARE = 0.5


@dataclass
class Cue:
    number: int  # its place in the file, from 1
    start: float
    end: float
    lines: list[str]
    words: list[Word] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.lines).split())


def seconds(stamp: str) -> float:
    """'HH:MM:SS.mmm' or 'MM:SS.mmm'."""
    parts = [float(p) for p in stamp.split(":")]
    return sum(value * 60**power for power, value in enumerate(reversed(parts)))


def clean_line(raw: str) -> str:
    """A cue line's text: the one markup cleaner every talk text goes through (script and
    style bodies go, other HTML tags go, `vector<int>` stays), after the subtitle formats'
    own tags, then character references (`&amp;`) resolved."""
    text = ASS_OVERRIDE.sub("", VTT_SPAN.sub("", TIMESTAMP_TAG.sub("", raw)))
    return " ".join(html.unescape(plain_text(text)).split())


def timed_words(raw: str, start: float, end: float) -> list[Word]:
    """The words of a line with inline timestamps: each timestamp starts the words after
    it, the text before the first starts with the cue; a word ends where the next begins."""
    pieces = TIMESTAMP_TAG.split(raw)  # text, stamp, text, stamp, ...
    timed = [(start, pieces[0])] + [
        (seconds(pieces[i]), pieces[i + 1]) for i in range(1, len(pieces) - 1, 2)
    ]
    words = [(at, word) for at, text in timed for word in clean_line(text).split()]
    ends = [at for at, _ in words[1:]] + [end]
    return [
        Word(start=round(at, 3), end=round(max(at, until), 3), text=word)
        for (at, word), until in zip(words, ends, strict=True)
    ]


def make_cue(number: int, start: float, end: float, raw_lines: list[str]) -> Cue:
    lines, words = [], []
    for raw in raw_lines:
        if line := clean_line(raw):
            lines.append(line)
            if TIMESTAMP_TAG.search(raw):
                words += timed_words(raw, start, end)
    return Cue(number, start, end, lines, words)


def repeats_previous(cue: Cue, previous: Cue) -> bool:
    return bool(cue.lines and previous.lines) and (
        cue.lines[0] == previous.lines[-1] or cue.text.startswith(previous.text)
    )


def words_of(lines: list[str], cue: Cue) -> list[Word]:
    """The cue's timed words that say `lines`: its last ones (new words come last)."""
    said = " ".join(lines).split()
    tail = cue.words[-len(said) :]
    return tail if [w.text for w in tail] == said else []


def unroll(cues: list[Cue]) -> tuple[list[Cue], list[str]]:
    """Rolling captions as the words said once: a cue's leading lines that repeat the end
    of the cue before are dropped (so are cues left empty: YouTube's 10 ms cues that only
    hold the finished line), and a cue that grew from the one before keeps what it added."""
    repeating = sum(repeats_previous(c, p) for p, c in zip(cues, cues[1:], strict=False))
    if repeating < max(ROLLING_MIN, ROLLING_SHARE * (len(cues) - 1)):
        return cues, []
    unrolled, shown = [], []
    for cue in cues:
        lines = list(cue.lines)
        while lines and shown and lines[0] in shown:
            lines.pop(0)
        if shown and lines and " ".join(lines).startswith(" ".join(shown) + " "):
            lines = [" ".join(lines)[len(" ".join(shown)) + 1 :]]
        shown = cue.lines
        if lines:
            unrolled.append(Cue(cue.number, cue.start, cue.end, lines, words_of(lines, cue)))
    warning = (
        f"rolling auto-captions: {len(cues)} cues unrolled into {len(unrolled)}, "
        "each line kept once"
    )
    return unrolled, [warning]


def chinese_line(line: str) -> bool:
    return cjk_share(line) >= CHINESE_PROSE_SHARE


def bilingual(cue: Cue) -> bool:
    """A cue holding a Chinese line and a line in a Latin script (subtitles with their
    translation, as many Bilibili videos have them)."""
    kinds = {chinese_line(line) for line in cue.lines if LATIN_WORD.search(line) or has_cjk(line)}
    return len(cue.lines) > 1 and kinds == {True, False}


def one_language(cues: list[Cue], language: str | None) -> tuple[list[Cue], list[str]]:
    """Of bilingual subtitles, the lines in the talk's language; without one, both."""
    if sum(map(bilingual, cues)) < BILINGUAL_SHARE * len(cues):
        return cues, []
    if language is None:
        return cues, [
            "the cues hold two languages, a Chinese line and a Latin-script line each; both "
            "are kept: set `language:` in talk.yaml to keep the one spoken"
        ]
    chinese = language in CHINESE_LANGUAGES
    kept = []
    for cue in cues:
        lines = [line for line in cue.lines if chinese_line(line) == chinese] or cue.lines
        kept.append(Cue(cue.number, cue.start, cue.end, lines, words_of(lines, cue)))
    return kept, [f"bilingual cues: the {language} line of each kept"]


def numbered(cues: list[Cue], what: str) -> str:
    shown = ", ".join(str(c.number) for c in cues[:SHOWN_NUMBERS])
    more = f" and {len(cues) - SHOWN_NUMBERS} more" if len(cues) > SHOWN_NUMBERS else ""
    return f"cue(s) {shown}{more} {what}"


def in_time_order(cues: list[Cue]) -> tuple[list[Cue], list[str]]:
    ordered = sorted(cues, key=lambda c: c.start)  # stable: equal starts keep file order
    if ordered == cues:
        return cues, []
    late = [c for p, c in zip(cues, cues[1:], strict=False) if c.start < p.start]
    return ordered, [numbered(late, "started before the cue above them; cues sorted")]


def speech_time(cue: Cue) -> float:
    return max(1.0, estimate_tokens(cue.text) * SECONDS_PER_TOKEN)


def later_starts(cues: list[Cue]) -> list[float | None]:
    """For each cue of a list in time order, the next start later than its own."""
    later: list[float | None] = [None] * len(cues)
    for i in range(len(cues) - 2, -1, -1):
        after = cues[i + 1].start
        later[i] = after if after > cues[i].start else later[i + 1]
    return later


def fix_ends(cues: list[Cue], recording_s: float | None) -> tuple[list[Cue], list[str]]:
    """Inverted ends get the time their text takes (up to the next cue); cues past the end
    of the recording are dropped, ends past it cut; overlaps are cut where the next starts,
    and a cue starting with the next one is merged into it."""
    inverted, past, overlapping, merged = [], [], [], []
    early = [c for c in cues if c.start < 0]
    for cue in early:
        cue.start = 0.0
    kept: list[Cue] = []
    for cue, following in zip(cues, later_starts(cues), strict=True):
        if recording_s is not None and cue.start > recording_s + PAST_END_S:
            past.append(cue)
            continue
        if cue.end <= cue.start:
            inverted.append(cue)
            cue.end = cue.start + speech_time(cue)
            if following is not None:
                cue.end = min(cue.end, following)
        if kept and kept[-1].start == cue.start:
            merged.append(cue)
            previous = kept[-1]
            previous.lines += cue.lines
            previous.words += cue.words
            previous.end = max(previous.end, cue.end)
            continue
        if kept and kept[-1].end > cue.start:
            overlapping.append(kept[-1])
            kept[-1].end = cue.start
        kept.append(cue)
    for cue in kept:
        if recording_s is not None and cue.start < recording_s:
            cue.end = min(cue.end, recording_s)
    warnings = []
    if early:
        warnings.append(numbered(early, "started before 0:00; they start at 0:00"))
    if inverted:
        warnings.append(
            numbered(
                inverted,
                "ended at or before their start; each now ends "
                "after the time its text takes, or where the next cue starts",
            )
        )
    if past:
        warnings.append(
            numbered(
                past,
                f"started after the recording ends ({clock(recording_s or 0)}); dropped",
            )
        )
    if overlapping:
        warnings.append(
            numbered(overlapping, "overlapped the next cue; each cut where the next starts")
        )
    if merged:
        warnings.append(numbered(merged, "started with the cue before; merged into it"))
    return kept, warnings


def segments_of(cues: list[Cue], recording_s: float | None) -> tuple[list[Segment], list[str]]:
    """Cues in file order as clean segments in time order, with what was repaired."""
    cues = [c for c in cues if c.lines]
    cues, rolling = unroll(cues)
    cues, order = in_time_order(cues)
    cues, ends = fix_ends(cues, recording_s)
    segments = [
        Segment(start=round(c.start, 3), end=round(c.end, 3), text=c.text, words=c.words)
        for c in cues
    ]
    return segments, rolling + order + ends
