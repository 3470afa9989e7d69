"""Chinese subtitles punctuated, their words kept as the subtitles write them.

The subtitles of a Chinese lecture are mostly cues with no punctuation, one breath each;
cut at pauses alone, a sentence starts and stops mid-thought and a fact written from it
says half a thing. The model reads a run of cues and copies it with commas and full stops:
one small job, checked by code. Only the marks it placed are carried onto the cues,
aligned character by character (difflib); a word it changed, added or dropped never is.
Where a run ends (our cut, not a sentence's end) and across a run whose answer kept too
little of it (listed in the transcript's fallbacks), the pause between two cues decides:
a long one ends a sentence, a short one a clause (`joint`, also what joins recognised
Chinese speech that came without punctuation).
"""

import re
import unicodedata
from difflib import SequenceMatcher

from pydantic import BaseModel, Field

from pipeline.core.prompts import Prompt
from pipeline.core.text import CJK_CHARS, CJK_MARKS, clock, has_cjk
from pipeline.llm.client import LLM, InvalidReply
from pipeline.llm.parallel import ordered_map
from pipeline.schema import Segment, Transcript

# Characters of cues per call: about 25 s of a lecture's speech (zh-inference-frameworks,
# 2026-12-06: ~390 characters a minute), a reply of 100-135 tokens; chosen, not tuned.
RUN_CHARS = 160
# Reply tokens per Chinese character, with room: the bundled model's replies took 0.65-0.85
# (zh-inference-frameworks, 2026-12-06).
TOKENS_PER_CHAR = 1.2
REPLY_OVERHEAD_TOKENS = 32  # the JSON around the text
# An answer must keep this share of its run's characters, in order, for its marks to be
# carried: below it the model rewrote rather than punctuated (zh-inference-frameworks,
# 2026-12-06: 43 of its 50 runs kept 0.96-1.0; the other 7 answered the prompt's example).
MIN_KEPT = 0.9
# A mark is carried only from a stretch of at least this many characters in common: one or
# two characters matched by chance (an answer that first copied the prompt's example) place
# nothing. Set by hand, not measured.
MIN_BLOCK = 3
# Subtitles with a mark on fewer than this share of their cues are unpunctuated: a typed
# transcript has one on nearly every cue, the two lectures in ../shared on none.
PUNCTUATED_CUES = 0.5
SENTENCE_PAUSE_S = 0.6  # a pause this long between two cues ends a sentence
CJK_END = re.compile(f"[{CJK_CHARS}]$")
CJK_START = re.compile(f"^[{CJK_CHARS}]")
# A half-width mark the model may write in Chinese, not inside a number or a Latin name
HALF_WIDTH = re.compile(r"(?<![0-9A-Za-z])[,.?!;:]|[,.?!;:](?![0-9A-Za-z])")
FULL_WIDTH = dict(zip(",.?!;:", "，。？！；：", strict=True))


UNKEPT = "the model's answer did not keep the cues"


class PunctuatedReply(BaseModel):
    text: str = Field(min_length=1)


def joint(before: str, after: str, pause_s: float) -> str | None:
    """The punctuation between two unpunctuated Chinese cues, from the pause between them;
    None when either side is not Chinese or already punctuated."""
    if not (CJK_END.search(before) and CJK_START.search(after)):
        return None
    return "。" if pause_s >= SENTENCE_PAUSE_S else "，"


def unpunctuated(transcript: Transcript) -> bool:
    """Chinese subtitles with marks on fewer than PUNCTUATED_CUES of their cues."""
    cues = [s.text for s in transcript.segments if has_cjk(s.text)]
    marked = sum(any(m in cue for m in CJK_MARKS) for cue in cues)
    chinese = transcript.source == "subtitles" and transcript.language == "zh"
    return chinese and bool(cues) and marked < PUNCTUATED_CUES * len(cues)


def runs(segments: list[Segment]) -> list[list[int]]:
    """The segments' indices in runs of whole cues up to RUN_CHARS characters."""
    grouped: list[list[int]] = []
    size = 0
    for n, segment in enumerate(segments):
        length = len(segment.text.strip())
        if not grouped or size + length > RUN_CHARS:
            grouped.append([])
            size = 0
        grouped[-1].append(n)
        size += length
    return grouped


def carried_marks(text: str, answer: str) -> dict[int, str]:
    """The marks of `answer` placed after characters of `text` (by the index of the
    character each follows), where the answer keeps at least MIN_KEPT of `text`'s
    characters; else none."""
    answer = HALF_WIDTH.sub(lambda m: FULL_WIDTH[m.group()], answer)
    bare, after = [], {}
    for char in answer:
        if char in CJK_MARKS:
            if bare:
                after[len(bare) - 1] = char
        elif not char.isspace():
            bare.append(char)
    chars = [(k, c) for k, c in enumerate(text) if not c.isspace()]
    matcher = SequenceMatcher(None, [c for _, c in chars], bare, autojunk=False)
    blocks = matcher.get_matching_blocks()
    if not chars or sum(b.size for b in blocks) < MIN_KEPT * len(chars):
        return {}
    return {
        chars[block.a + j - block.b][0]: mark
        for j, mark in after.items()
        for block in blocks
        if block.size >= MIN_BLOCK and block.b <= j < block.b + block.size
    }


def is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("P")


def marked(segments: list[Segment], marks: dict[int, str]) -> list[Segment]:
    """The segments with `marks` put in after the characters they follow (indices into
    the segments' texts joined, stripped), never beside a mark already there."""
    out, offset = [], 0
    for segment in segments:
        text, written = segment.text.strip(), ""
        for k, char in enumerate(text):
            written += char
            following = text[k + 1 : k + 2]
            if (mark := marks.get(offset + k)) and not is_mark(char):
                written += "" if following and is_mark(following) else mark
        offset += len(text)
        out.append(segment.model_copy(update={"text": written}))
    return out


def run_marks(segments: list[Segment], llm: LLM, prompt: Prompt) -> dict[int, str] | None:
    """The marks the model placed inside a run of cues (none after its last character:
    that is where the run was cut); None when it answered nothing that keeps the cues.
    An outage (EndpointError) is raised."""
    text = "".join(s.text.strip() for s in segments)
    tokens = int(len(text) * TOKENS_PER_CHAR) + REPLY_OVERHEAD_TOKENS
    try:
        answer = llm.complete(prompt.render(text=text), PunctuatedReply, tokens).text
    except InvalidReply:
        return None
    marks = carried_marks(text, answer)
    marks.pop(len(text) - 1, None)
    return marks or None


def with_pauses(segments: list[Segment], ends: set[int]) -> list[Segment]:
    """The segments, those in `ends` closed by the punctuation their pause calls for."""
    out = list(segments)
    for n in sorted(ends):
        if n + 1 < len(out) and (
            mark := joint(out[n].text, out[n + 1].text, out[n + 1].start - out[n].end)
        ):
            out[n] = out[n].model_copy(update={"text": out[n].text + mark})
    return out


def punctuate(transcript: Transcript, llm: LLM, prompt: Prompt) -> Transcript:
    """Unpunctuated Chinese subtitles with the model's commas and full stops inside each
    run of cues and the pauses' between runs; any other transcript as it is."""
    if not unpunctuated(transcript):
        return transcript
    segments, grouped = transcript.segments, runs(transcript.segments)
    found = ordered_map(
        lambda run: run_marks([segments[n] for n in run], llm, prompt), grouped, llm.slots
    )
    done, by_pauses, fallbacks = [], set(), list(transcript.fallbacks)
    for run, marks in zip(grouped, found, strict=True):
        done += marked([segments[n] for n in run], marks or {})
        by_pauses |= {run[-1]} if marks else set(run)
        if marks is None:
            span = f"{clock(segments[run[0]].start)}–{clock(segments[run[-1]].end)}"
            fallbacks.append(f"transcript {span}: punctuated at pauses ({UNKEPT})")
    return transcript.model_copy(
        update={
            "segments": with_pauses(done, by_pauses),
            "punctuated": True,
            "fallbacks": fallbacks,
        }
    )
