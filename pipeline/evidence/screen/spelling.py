"""Corrections by spelling: a heard word, or a run of heard words, whose letters or sounds
nearly spell a name or word of the slide on screen (see pipeline.evidence.screen)."""

import re

from rapidfuzz import fuzz

from pipeline.core.text import TECHNICAL
from pipeline.evidence.screen.words import RUN_GAP, WORD, correction, digits, is_english
from pipeline.transcript.corrections import sound, squash

MIN_RATIO = 66  # "fd8" / "fp8" (one letter of three) is 66.7
NAME_MIN_CHARS = 3


def slide_names(text: str) -> set[str]:
    """The names a slide shows: words of technical spelling (FP8, veRL, AReaL, kimi-k2)."""
    return {
        w for w in WORD.findall(text) if TECHNICAL.search(w) and len(squash(w)) >= NAME_MIN_CHARS
    }


def stands_for(heard: str, name: str) -> bool:
    said, shown = squash(heard), squash(name)
    return (
        said.removesuffix("s") != shown.removesuffix("s")  # "GPUs" is the slide's "GPU"
        and said[:1] == shown[:1]
        and digits(said) == digits(shown)
        and abs(len(said) - len(shown)) <= 1
        and (fuzz.ratio(said, shown) >= MIN_RATIO or sound(said) == sound(shown) != "")
    )


def names_corrected(
    text: str, start: float, slide: int, names: set[str], deck_terms: set[str], corrections: list
) -> str:
    known = {squash(t) for t in deck_terms} | {squash(n) for n in names}

    def replace(match: re.Match) -> str:
        heard = match.group()
        if squash(heard) in known or heard.isdigit() or is_english(heard):
            return heard
        candidates = [n for n in names if stands_for(heard, n)]
        if len(candidates) != 1:  # none, or a choice the slide cannot make
            return heard
        [name] = candidates
        corrections.append(correction(start, heard, name, slide))
        return name

    return WORD.sub(replace, text)


RUN_WORDS = (4, 3, 2)
RUN_MIN_CHARS = 5  # shorter names spell too many runs of words
RUN_NEAR_RATIO = 88  # "deep seek v2 light" / DeepSeek-V2-Lite is 89.7, "a real L" / AReaL 90.9


def spelled(word: str) -> bool:
    """A piece of a name heard in pieces that is no English word: "L" and "v2" are such
    pieces, "seek" is an English word."""
    if len(word) == 1:
        return word.lower() not in "ai"
    return any(ch.isdigit() for ch in word) or not is_english(word)


def run_stands_for(words: list[str], name: str) -> bool:
    """Two to four heard words that spell the slide's name, one of them no English word:
    "a real L" for AReaL, "deep seek v2 light" for DeepSeek-V2-Lite, never "moon cake".
    A heard word that is a name in its own right ("GLM4.5") was heard as one: "GLM4.5 and
    GLM4.6" is two names, whatever a slide picture read without spaces shows."""
    said, shown = squash("".join(words)), squash(name)
    if len(shown) < RUN_MIN_CHARS or not any(spelled(w) for w in words):
        return False
    if any(slide_names(w) for w in words):
        return False
    return said == shown or (
        said[:1] == shown[:1]
        and digits(said) == digits(shown)
        and abs(len(said) - len(shown)) <= 2
        and fuzz.ratio(said, shown) >= RUN_NEAR_RATIO
    )


def replaced_runs(
    text: str, token: re.Pattern, gap: re.Pattern, name_for, start: float, slide: int, corrections
) -> str:
    """`text` with each run of two to four tokens, apart by `gap`, that `name_for(pieces,
    heard)` names replaced by that name (the longest run first), and the corrections."""
    tokens = list(token.finditer(text))
    out, done, i = [], 0, 0
    while i < len(tokens):
        for count in RUN_WORDS:
            run = tokens[i : i + count]
            gaps = [text[a.end() : b.start()] for a, b in zip(run, run[1:], strict=False)]
            if len(run) < count or not all(gap.fullmatch(g) for g in gaps):
                continue
            heard = text[run[0].start() : run[-1].end()]
            if name := name_for([t.group() for t in run], heard):
                corrections.append(correction(start, heard, name, slide))
                out += [text[done : run[0].start()], name]
                done, i = run[-1].end(), i + count
                break
        else:
            i += 1
    return "".join(out) + text[done:]


def runs_corrected(text: str, start: float, slide: int, names: set[str], corrections: list) -> str:
    """Names heard as several words take the slide's form."""

    def name_for(words: list[str], heard: str) -> str | None:
        candidates = [n for n in names if run_stands_for(words, n)]
        return candidates[0] if len(candidates) == 1 else None

    return replaced_runs(text, WORD, RUN_GAP, name_for, start, slide, corrections)


# A model's name heard in pieces, its numbers apart: "Qwen 3, 8B" while the slide shows
# Qwen3-8B. Speech recognition puts a comma where the speaker paused, so a comma may part
# the pieces; they must then spell the name exactly, digits and all.
TOKEN = re.compile(r"[A-Za-z0-9]+(?:\.[0-9]+)*")
PIECE_GAP = re.compile(r",? |-")


def pieces_corrected(
    text: str, start: float, slide: int, names: set[str], corrections: list
) -> str:
    """Names with digits heard as two to four pieces take the slide's form."""
    numbered = {squash(n): n for n in names if digits(n) and not n.isdigit()}

    def name_for(pieces: list[str], heard: str) -> str | None:
        name = numbered.get(squash("".join(pieces)))
        # a piece that is a name of its own was heard whole ("GLM4.5 and GLM4.6")
        if not name or heard == name or any(slide_names(p) for p in pieces):
            return None
        return name if any(digits(p) for p in pieces) else None

    return replaced_runs(text, TOKEN, PIECE_GAP, name_for, start, slide, corrections)


INFLECTIONS = ("ing", "ed", "es", "s", "")
INFLECTED_MIN_CHARS = 6  # shorter words near-spell too many others
INFLECTED_RATIO = 85  # "profetching" / "prefetching" is 90.9


def inflected(word: str, suffix: str) -> str:
    """The slide's word with the heard word's ending: prefetch + ing, cache + ing -> caching."""
    if not suffix or word.lower().endswith(suffix):
        return word
    return (word[:-1] if suffix in ("ing", "ed") and word.endswith("e") else word) + suffix


def inflected_corrected(
    text: str, start: float, slide: int, shown: str, deck_terms: set[str], corrections: list
) -> str:
    """A heard word that is no English word and nearly spells a word of the slide, with the
    ending it was said with: "Smart Profetching" while the slide shows "Smart prefetch"."""
    shown_words = {w for w in WORD.findall(shown) if w.isalpha() and len(w) >= 5}
    known = {w.lower() for w in shown_words} | {squash(t) for t in deck_terms}

    def replace(match: re.Match) -> str:
        heard = match.group()
        short = len(heard) < INFLECTED_MIN_CHARS or not heard.isalpha()
        if short or heard.lower() in known or is_english(heard):
            return heard
        suffix = next(x for x in INFLECTIONS if heard.lower().endswith(x))
        near = {
            form
            for word in shown_words
            if (form := inflected(word.lower(), suffix))[:1] == heard[:1].lower()
            and abs(len(form) - len(heard)) <= 1
            and form[-2:] == heard[-2:].lower()  # "scheduler" is no "schedule" misheard
            and fuzz.ratio(form, heard.lower()) >= INFLECTED_RATIO
        }
        if len(near) != 1 or heard.lower() in near:  # "caching" is the slide's cache, said
            return heard
        [form] = near
        form = form.capitalize() if heard[0].isupper() else form
        corrections.append(correction(start, heard, form, slide))
        return form

    return WORD.sub(replace, text)
