"""Chinese text as the site writes it."""

import opencc

from pipeline.schema import Segment


def to_simplified(segments: list[Segment]) -> list[Segment]:
    """Whisper often writes Mandarin in Traditional characters, and Chinese subtitles (Big5
    files) come in them; the site uses Simplified."""
    converter = opencc.OpenCC("t2s")
    return [
        s.model_copy(
            update={
                "text": converter.convert(s.text),
                "words": [
                    w.model_copy(update={"text": converter.convert(w.text)}) for w in s.words
                ],
            }
        )
        for s in segments
    ]
