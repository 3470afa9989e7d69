"""The timeline stage (timeline.json): which slide is on screen when.

Video frames are matched to the slide pictures (frames.py). Where there is no video, no
pictures, or frames that match no slide (the speaker's camera, a demo), the speech is
aligned to the slides' text instead, in slide order (speech.py).
"""

from collections.abc import Callable
from pathlib import Path

import av

from pipeline.schema import Deck, Talk, Timeline, TimelineSpan, Transcript
from pipeline.timeline.frames import frame_path
from pipeline.timeline.options import TimelineOptions
from pipeline.timeline.speech import text_spans


def fill_gaps(by_frames: list[TimelineSpan], by_text: list[TimelineSpan]) -> list[TimelineSpan]:
    """Frame spans, with the text path's spans cut to the time no frame span covers."""
    filled = list(by_frames)
    for span in by_text:
        cursor = span.start
        for covered in [*by_frames, None]:
            stop = span.end if covered is None else min(span.end, covered.start)
            if stop > cursor:
                filled.append(span.model_copy(update={"start": cursor, "end": stop}))
            if covered is not None:
                cursor = max(cursor, covered.end)
            if cursor >= span.end:
                break
    return sorted(filled, key=lambda s: s.start)


def build_timeline(
    talk: Talk,
    transcript: Transcript,
    deck: Deck | None,
    pictures_root: Path,
    opts: TimelineOptions,
    progress: Callable[[float, float], None] | None = None,
) -> Timeline:
    """`pictures_root` is the folder the deck's thumbnail paths are relative to."""
    slides = deck.visible() if deck else []
    pictured = [s for s in slides if s.thumbnail] if talk.media else []
    by_frames: list[TimelineSpan] = []
    sampled, warnings = 0, []
    if pictured:
        try:  # an audio-only recording samples no frames
            by_frames, sampled = frame_path(
                talk.media, pictured, pictures_root, transcript.duration, opts, progress
            )
        except (av.FFmpegError, OSError, ValueError) as err:
            warnings.append(f"{talk.media.name}: video frames unreadable ({err}); text only")
    return Timeline(
        spans=fill_gaps(by_frames, text_spans(transcript, slides, opts)),
        frames_sampled=sampled,
        warnings=warnings,
    )
