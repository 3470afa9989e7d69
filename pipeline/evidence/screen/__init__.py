"""The slide on screen corrects the speech: a short name Whisper heard as a near-miss
("FD8" while the slide shows FP8, "VRL" for veRL, "HDDP" for HTTP) takes the slide's
spelling, and so do a number and a word the slide binds to the same neighbour.

The transcript's own corrections (pipeline/transcript/corrections.py) work against the
whole deck. They leave names under six letters alone, because short names nearly spell
too many words. Here the slide shown at that moment narrows the candidates to a handful,
so a short name may be corrected, under rules that put precision first:

- the heard word is no English word (a hyphenated one is judged part by part: "sg-lane"
  is none), and it is not a term of the deck anywhere;
- the slide's name starts with the same letter, keeps the same digits, is at most one
  letter longer or shorter, and its letters or its sounds are close (rapidfuzz ratio, or
  the same metaphone: "HDDP" sounds as HTTP);
- a name heard as two to four words ("a real L" for AReaL) is corrected when one of the
  words is no English word and together they spell the name, or nearly;
- a number is corrected only for the one confusion speech recognition makes between
  numbers that sound alike, -teen and -ty ("Python 3.30" while the slide shows
  Python 3.13), when the word before it is the slide's word before its number and the
  heard number is nowhere on the slide; "120" may be wrong for 128, but it may be right;
- a word is corrected only where the slide shows the same number after the same
  neighbour: "input link 4096" while the slide shows "input length 4096", "at size 256"
  for "batch size 256". The heard word must be part of the slide's word or sound as its
  start, and must not be on that line of the slide;
- an acronym heard one letter off the slide's, before the word the slide has after it,
  takes the slide's ("the KB cache" while the slide shows "the KV cache"); the heard
  acronym is nowhere on the slide;
- a word that is no English word and nearly spells a word of the slide takes it, with the
  ending it was said with ("Smart Profetching" while the slide shows "Smart prefetch"):
  six letters or more, the same first and last two letters ("scheduler" is another word
  than the slide's "schedule"), a rapidfuzz ratio of 85 or more, one candidate only;
- a name with digits heard in two to four pieces ("Qwen 3, 8B" while the slide shows
  Qwen3-8B) takes the slide's form when the pieces spell it exactly, digits and all;
- a word framed by the slide's words takes the slide's word between them: "the DeepSeek
  KDI price" while the slide shows "DeepSeek API price". The heard word is no English word,
  no term of the deck and nowhere on the slide, and it is about as long as the slide's.
"""

from pipeline.evidence.screen.context import (
    acronyms_corrected,
    framed_corrected,
    numbers_corrected,
    words_corrected,
)
from pipeline.evidence.screen.spelling import (
    inflected_corrected,
    names_corrected,
    pieces_corrected,
    runs_corrected,
    slide_names,
)
from pipeline.evidence.screen.words import WORD
from pipeline.schema import Correction

__all__ = ["WORD", "correct_on_screen"]


def correct_on_screen(
    text: str, start: float, slide: int, shown: str, deck_terms: set[str]
) -> tuple[str, list[Correction]]:
    """`text` (one unit's speech) with the near-misses of the names, numbers and words on
    `shown` (the text of slide `slide`, on screen) replaced, and the corrections made."""
    corrections: list[Correction] = []
    names = slide_names(shown)
    text = names_corrected(text, start, slide, names, deck_terms, corrections)
    text = runs_corrected(text, start, slide, names, corrections)
    text = pieces_corrected(text, start, slide, names, corrections)
    text = numbers_corrected(text, start, slide, shown, corrections)
    text = words_corrected(text, start, slide, shown, corrections)
    text = framed_corrected(text, start, slide, shown, deck_terms, corrections)
    text = inflected_corrected(text, start, slide, shown, deck_terms, corrections)
    text = acronyms_corrected(text, start, slide, shown, corrections)
    return text, corrections
