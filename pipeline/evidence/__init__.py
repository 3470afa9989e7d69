"""The evidence stage (evidence.json): citable units with stable ids: speech
(t-HH:MM:SS), slides (s-NN), notes (n-NN).

Speech is cut with langchain-text-splitters at sentence ends to a token budget, so a unit
is a whole thought that fits a prompt; each unit is tied to its time and to the slide on
screen. Ids depend only on the content, so two runs on the same input give the same ids.
"""

import bisect
import itertools
import re

from langchain_text_splitters import RecursiveCharacterTextSplitter

from pipeline.core.replacements import replaced
from pipeline.core.text import CJK_MARKS, clock, estimate_tokens, has_cjk, term_pattern
from pipeline.evidence.options import EvidenceOptions
from pipeline.evidence.screen import correct_on_screen
from pipeline.evidence.spoken import is_credits, is_recording_talk, without_fillers
from pipeline.evidence.uncertain import marked_uncertain
from pipeline.llm.client import LLM
from pipeline.schema import (
    Correction,
    Deck,
    Evidence,
    EvidenceUnit,
    GlossaryEntry,
    Segment,
    Slide,
    Timeline,
    Transcript,
)
from pipeline.schema.transcript import Replacement
from pipeline.transcript.punctuate import joint
from pipeline.transcript.sentences import sentences

# Sentence ends first (Chinese and English), then clauses, then words: a unit is cut
# mid-sentence only when one sentence alone is over the budget.
SEPARATORS = ["\n\n", "\n", "。", "！", "？", ". ", "? ", "! ", "；", "; ", "，", ", ", " ", ""]
CJK_LANGUAGES = {"zh", "ja", "yue"}
CJK_PUNCTUATION = tuple(CJK_MARKS)
# A sentence said across a slide change (speech recognition that punctuates little runs on
# for a minute) is cut at the clause end nearest the change, if one is this close: what is
# said after the change belongs to the next slide.
CLAUSE_ENDS = ",;，；、"
CLAUSE_MARK = re.compile(rf"[{CLAUSE_ENDS}]\s*")
MAX_CUT_DRIFT_S = 2.0


def glue(before: str, language: str) -> str:
    """What joins two pieces of speech: a space, but nothing after Chinese punctuation.
    Unpunctuated Chinese subtitles keep a space at each cue's end, so the splitter cuts
    between cues (where the speaker paused) rather than inside a number ("20" | "24年")."""
    if language in CJK_LANGUAGES and before.endswith(CJK_PUNCTUATION):
        return ""
    return " "


def between(before: str, after: str, gap_s: float, language: str, pauses: bool) -> str:
    """What joins two cues: between unpunctuated Chinese ones the mark their pause calls
    for, or nothing when the model punctuated the talk (`pauses` False: a cue it left open
    continues its sentence); else `glue`."""
    mark = joint(before, after, gap_s) if language in CJK_LANGUAGES else None
    if mark is None:
        return glue(before, language)
    return mark if pauses else ""


def speech_id(seconds: float) -> str:
    return f"t-{clock(seconds, hours=True)}"


class SpokenText:
    """The talk's speech as one string, with a way back from a character to a time.
    Unpunctuated Chinese cues are joined by the punctuation their pause calls for, unless
    the model punctuated them (`pauses` False): a cue it left open continues its sentence."""

    def __init__(self, segments: list[Segment], language: str, pauses: bool) -> None:
        self.segments = segments
        self.offsets, text = [], ""
        previous: Segment | None = None
        for segment in self.segments:
            piece = segment.text.strip()
            if text and previous is not None:
                text += between(text, piece, segment.start - previous.end, language, pauses)
            self.offsets.append(len(text))
            text += piece
            previous = segment
        self.text = text

    def time_at(self, char: int) -> float:
        """Time of a character, interpolated inside its segment by character position."""
        i = max(bisect.bisect_right(self.offsets, char) - 1, 0)
        segment = self.segments[i]
        length = max(len(segment.text.strip()), 1)
        share = min(max(char - self.offsets[i], 0), length) / length
        return round(segment.start + (segment.end - segment.start) * share, 3)


def spoken_content(segments: list[Segment]) -> list[Segment]:
    """The segments that say something: credits and talk about the recording left out,
    opening fillers cut."""
    kept = []
    for segment in segments:
        text = without_fillers(segment.text)
        if text and not is_credits(text) and not is_recording_talk(text):
            kept.append(
                segment if text == segment.text else segment.model_copy(update={"text": text})
            )
    return kept


def clause_times(segment: Segment, ends: list[int]) -> list[float]:
    """When each clause end (a character offset into the text) was said: by the words
    that end clauses, when they end as many as the text does, else by characters."""
    marked = [w for w in segment.words if w.text.strip().endswith(tuple(CLAUSE_ENDS))]
    if len(marked) == len(ends):
        return [w.end for w in marked]
    share = (segment.end - segment.start) / max(len(segment.text), 1)
    return [round(segment.start + end * share, 3) for end in ends]


def cut_at_changes(segment: Segment, changes: list[float]) -> list[Segment]:
    """The sentence cut at the clause end nearest each slide change said inside it."""
    inside = [c for c in changes if segment.start < c < segment.end]
    if not inside:  # most sentences: no regular expression run on them
        return [segment]
    ends = [m.end() for m in CLAUSE_MARK.finditer(segment.text) if m.end() < len(segment.text)]
    if not ends:
        return [segment]
    times = clause_times(segment, ends)
    cuts = set()
    for change in inside:
        nearest = min(range(len(ends)), key=lambda i: abs(times[i] - change))
        if abs(times[nearest] - change) <= MAX_CUT_DRIFT_S:
            cuts.add(nearest)
    bounds = [(0, segment.start)] + [(ends[i], times[i]) for i in sorted(cuts)]
    bounds.append((len(segment.text), segment.end))
    return [
        Segment(start=start, end=max(end, start), text=segment.text[a:b].strip())
        for (a, start), (b, end) in itertools.pairwise(bounds)
    ]


def passages(
    transcript: Transcript, timeline: Timeline | None, max_pause_s: float
) -> list[list[Segment]]:
    """Runs of sentences said on one slide without a long pause: a unit never spans a
    slide change (so its slide link is exact) or a silence (so its times are tight)."""
    groups: list[list[Segment]] = []
    previous_slide, previous_end = object(), 0.0
    changes = [span.start for span in timeline.spans[1:]] if timeline else []
    said = spoken_content(sentences(transcript))
    for segment in [piece for s in said for piece in cut_at_changes(s, changes)]:
        middle = (segment.start + segment.end) / 2
        slide = timeline.slide_for(middle, middle) if timeline else None
        if groups and slide == previous_slide and segment.start - previous_end <= max_pause_s:
            groups[-1].append(segment)
        else:
            groups.append([segment])
        previous_slide, previous_end = slide, segment.end
    return groups


def speech_units(
    transcript: Transcript, timeline: Timeline | None, opts: EvidenceOptions
) -> list[EvidenceUnit]:
    splitter = RecursiveCharacterTextSplitter(
        separators=SEPARATORS,
        keep_separator="end",
        chunk_size=opts.max_tokens,
        chunk_overlap=0,
        length_function=estimate_tokens,
    )
    units, seen = [], set()
    for group in passages(transcript, timeline, opts.max_pause_s):
        spoken = SpokenText(group, transcript.language, pauses=not transcript.punctuated)
        cursor = 0
        for text in splitter.split_text(spoken.text):
            # Found from where the previous chunk ended: the splitter's own start index can
            # land on an earlier copy of the same characters (seen on unpunctuated Chinese
            # subtitles), which gave a unit a time minutes too early.
            found = spoken.text.find(text, cursor)
            first = found if found >= 0 else cursor
            cursor = first + len(text)
            start = spoken.time_at(first)
            end = max(spoken.time_at(cursor), start)
            uid, suffix = speech_id(start), 2
            while uid in seen:  # two units starting within the same second
                uid, suffix = f"{speech_id(start)}-{suffix}", suffix + 1
            seen.add(uid)
            units.append(
                EvidenceUnit(
                    id=uid,
                    kind="transcript",
                    text=text,
                    start=start,
                    end=end,
                    slide=timeline.slide_for(start, end) if timeline else None,
                )
            )
    return units


def slide_facts(slide: Slide) -> list[str]:
    """The slide's body as facts, one a line: each bullet, a sub-bullet with the bullet it
    belongs to ("v0.2 (Sept. 2024) — 3x higher throughput with …"), so a number keeps its
    version, hardware or model wherever the line is quoted. A bullet with sub-bullets is
    said by them."""
    if not slide.bullets:
        return [line for line in slide.text.splitlines() if line.strip()]
    facts, path = [], []
    for bullet, after in zip(slide.bullets, [*slide.bullets[1:], None], strict=True):
        path = [*path[: bullet.level], bullet.text]
        if after is not None and after.level > bullet.level:
            continue
        parent = path[-2] if len(path) > 1 and bullet.level else None
        if parent is None:
            facts.append(bullet.text)
        else:
            joint = "：" if has_cjk(parent) else " — "
            facts.append(f"{parent.rstrip(',:;，：；')}{joint}{bullet.text}")
    return facts


def slide_body(slide: Slide) -> str:
    parts = [slide.title, *slide_facts(slide), *slide.tables]  # notes are units of their own
    body = "\n".join(part for part in parts if part)
    if not body and slide.scanned:
        return f"(slide {slide.index}: a picture without a text layer)"
    return body


def slide_units(deck: Deck) -> list[EvidenceUnit]:
    units = []
    for slide in deck.visible():
        if body := slide_body(slide):
            units.append(
                EvidenceUnit(
                    id=f"s-{slide.index:02d}",
                    kind="slide",
                    text=body,
                    slide=slide.index,
                    image=slide.thumbnail,
                )
            )
        if slide.notes:
            units.append(
                EvidenceUnit(
                    id=f"n-{slide.index:02d}", kind="notes", text=slide.notes, slide=slide.index
                )
            )
    return units


def first_occurrences(
    terms: list[str], units: list[EvidenceUnit], timeline: Timeline | None
) -> list[GlossaryEntry]:
    """Where each term is first said; a term never said, where it is first shown."""
    shown_at = {}
    for span in timeline.spans if timeline else []:
        shown_at.setdefault(span.slide, span.start)
    spoken = sorted((u for u in units if u.kind == "transcript"), key=lambda u: u.start or 0.0)
    shown = [u for u in units if u.kind != "transcript"]
    entries = []
    for term in terms:
        pattern = term_pattern(term)
        said = next((u for u in spoken if pattern.search(u.text)), None)
        seen = said or next((u for u in shown if pattern.search(u.text)), None)
        time = said.start if said else shown_at.get(seen.slide) if seen else None
        entries.append(
            GlossaryEntry(term=term, first_unit=seen.id if seen else None, first_time=time)
        )
    return entries


def corrected_by_slides(
    units: list[EvidenceUnit], deck: Deck, terms: list[str]
) -> tuple[list[EvidenceUnit], list[Correction]]:
    """Speech units with the names of the slide on screen spelled as it shows them."""
    shown = {
        slide.index: "\n".join(slide.texts(notes=False, pictures=True)) for slide in deck.slides
    }
    fixed, corrections, deck_terms = [], [], set(terms)
    for unit in units:
        if unit.slide in shown and unit.start is not None:
            text, found = correct_on_screen(
                unit.text, unit.start, unit.slide, shown[unit.slide], deck_terms
            )
            unit = unit.model_copy(update={"text": text}) if found else unit
            corrections += found
        fixed.append(unit)
    return fixed, corrections


def judges_words(transcript: Transcript) -> bool:
    """Whether an LLM judges the words recognition doubted: in English speech recognised
    (where the rule was measured); a subtitle file is a person's transcript."""
    return transcript.source == "asr" and transcript.language == "en"


def build_evidence(
    transcript: Transcript,
    deck: Deck | None,
    timeline: Timeline | None,
    terms: list[str],
    opts: EvidenceOptions,
    listed: list[Replacement] = (),
    llm: LLM | None = None,
) -> Evidence:
    """`terms` is the vocabulary the transcription was steered with (glossary + deck);
    `listed` are the library's corrections, applied to the transcript first; `llm` judges
    the words recognition doubted (without one, their probability alone)."""
    transcript, corrections = replaced(transcript, list(listed))
    units = speech_units(transcript, timeline, opts)
    if deck is not None:
        units, on_screen = corrected_by_slides(units, deck, terms)
        corrections += on_screen
    warning = ""
    if transcript.source == "asr":
        heard = [word for segment in transcript.segments for word in segment.words]
        judge = llm if judges_words(transcript) else None
        units, warning = marked_uncertain(units, deck, terms, heard, judge)
    if deck is not None:
        units += slide_units(deck)
    return Evidence(
        warnings=[warning] if warning else [],
        language=transcript.language,
        units=units,
        glossary=first_occurrences(terms, units, timeline),
        corrections=corrections,
    )
