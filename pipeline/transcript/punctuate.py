"""Chinese subtitles punctuated by the model, their words kept as the subtitles write them.

The subtitles of a Chinese lecture are mostly cues with no punctuation, one breath each;
cut at pauses alone, a sentence starts and stops mid-thought and a fact written from it
says half a thing. The model reads a run of cues and puts in commas and full stops: one
small job, checked by code. Only the marks it placed are carried onto the cues, aligned
character by character (difflib): a word it changed, added or dropped never is. A run
whose answer keeps too little of its characters keeps the pauses' punctuation.
"""

from difflib import SequenceMatcher

from pydantic import BaseModel, Field

from pipeline.core.prompts import Prompt
from pipeline.core.text import CJK_MARKS, has_cjk
from pipeline.llm.client import LLM, InvalidReply
from pipeline.llm.parallel import ordered_map
from pipeline.schema import Segment, Transcript

RUN_CHARS = 160  # characters of cues per call: about a minute of a lecture's speech
TOKENS_PER_CHAR = 1.6  # the 1.5B's tokens per Chinese character of its reply, marks and JSON
# An answer must keep this share of its run's characters, in order, for its marks to be
# carried: below it the model rewrote rather than punctuated.
MIN_KEPT = 0.9
# Subtitles with a mark on fewer than this share of their cues are unpunctuated (a
# punctuated transcript has one on nearly every cue; the lectures in ../shared none).
PUNCTUATED_CUES = 0.5


class PunctuatedReply(BaseModel):
    text: str = Field(min_length=1)


def unpunctuated(transcript: Transcript) -> bool:
    """Chinese subtitles with marks on fewer than PUNCTUATED_CUES of their cues."""
    cues = [s.text for s in transcript.segments if has_cjk(s.text)]
    marked = sum(any(m in cue for m in CJK_MARKS) for cue in cues)
    return transcript.source == "subtitles" and bool(cues) and marked < PUNCTUATED_CUES * len(cues)


def runs(segments: list[Segment]) -> list[list[int]]:
    """The segments' indices in runs of whole cues up to RUN_CHARS characters."""
    grouped: list[list[int]] = []
    size = RUN_CHARS
    for n, segment in enumerate(segments):
        length = len(segment.text.strip())
        if size + length > RUN_CHARS:
            grouped.append([])
            size = 0
        grouped[-1].append(n)
        size += length
    return grouped


def carried_marks(text: str, answer: str) -> dict[int, str]:
    """The marks of `answer` placed after characters of `text` (by the index of the
    character each follows), where the answer keeps at least MIN_KEPT of `text`'s
    characters; else none."""
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
        if block.b <= j < block.b + block.size
    }


def marked(segments: list[Segment], marks: dict[int, str]) -> list[Segment]:
    """The segments with `marks` put in after the characters they follow (indices into
    the segments' texts joined, stripped), none doubled."""
    out, offset = [], 0
    for segment in segments:
        text = segment.text.strip()
        written = ""
        for k, char in enumerate(text):
            written += char
            mark = marks.get(offset + k)
            following = text[k + 1 : k + 2]
            if mark and char not in CJK_MARKS and not (following and following in CJK_MARKS):
                written += mark
        offset += len(text)
        out.append(segment.model_copy(update={"text": written}))
    return out


def punctuated_run(segments: list[Segment], llm: LLM, prompt: Prompt) -> list[Segment]:
    """A run of cues with the marks the model placed; as they were when it answered
    nothing that keeps them. An outage (EndpointError) is raised."""
    text = "".join(s.text.strip() for s in segments)
    tokens = int(len(text) * TOKENS_PER_CHAR) + 32
    try:
        answer = llm.complete(prompt.render(text=text), PunctuatedReply, tokens).text
    except InvalidReply:
        return segments
    return marked(segments, carried_marks(text, answer))


def punctuate(transcript: Transcript, llm: LLM, prompt: Prompt) -> Transcript:
    """Unpunctuated Chinese subtitles with the model's commas and full stops; any other
    transcript as it is."""
    if not unpunctuated(transcript):
        return transcript
    segments = transcript.segments
    done = ordered_map(
        lambda run: punctuated_run([segments[n] for n in run], llm, prompt),
        runs(segments),
        llm.slots,
    )
    return transcript.model_copy(
        update={"segments": [s for run in done for s in run], "punctuated": True}
    )
