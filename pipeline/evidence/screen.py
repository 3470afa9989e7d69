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

import re

from rapidfuzz import fuzz
from wordfreq import zipf_frequency

from pipeline.core.text import NUMBER, TECHNICAL
from pipeline.schema import Correction
from pipeline.transcript.corrections import COMMON_WORD, sound, squash

# A word as recognition writes it: letters and digits, joined by hyphens or dots ("FP8",
# "KV-K2", "v0.2"); an apostrophe's "s" is left apart.
WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*")
MIN_RATIO = 66  # "fd8" / "fp8" (one letter of three) is 66.7
NAME_MIN_CHARS = 3


def slide_names(text: str) -> set[str]:
    """The names a slide shows: words of technical spelling (FP8, veRL, AReaL, kimi-k2)."""
    return {
        w for w in WORD.findall(text) if TECHNICAL.search(w) and len(squash(w)) >= NAME_MIN_CHARS
    }


def is_english(word: str) -> bool:
    """An English word, or words joined by hyphens that each are ("low-overhead"); wordfreq
    scores "sg-lane" by its parts, so a hyphenated word is judged part by part."""
    parts = [part for part in word.lower().split("-") if part]
    if len(parts) == 1:
        return zipf_frequency(parts[0], "en") >= COMMON_WORD
    # "sg" is common as an abbreviation: a part of a compound must be a word of its own
    return all(len(p) >= 3 and zipf_frequency(p, "en") >= COMMON_WORD for p in parts)


def digits(word: str) -> str:
    return re.sub(r"\D", "", word)


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
RUN_GAP = re.compile(r"[ -]")  # the words of a run are apart by a space or a hyphen only
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


# Numbers speech recognition confuses because they sound alike: thirteen / thirty, …
SOUND_ALIKE = {f"1{d}": f"{d}0" for d in "3456789"}
SOUND_ALIKE |= {ty: teen for teen, ty in SOUND_ALIKE.items()}
NUMBER_AFTER = re.compile(r"\b([A-Za-z][A-Za-z0-9+-]*)[ :=]+(\d+(?:\.\d+)*)\b")
PHRASE = re.compile(r"\b([A-Za-z][A-Za-z-]*) ([A-Za-z][A-Za-z-]*)[ :=]+(\d+(?:\.\d+)*)\b")


def sounds_alike(heard: str, shown: str) -> bool:
    """Heard 3.30 for 3.13: the same parts but one, and that one a -teen / -ty pair."""
    a, b = heard.split("."), shown.split(".")
    if len(a) != len(b):
        return False
    differ = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    return len(differ) == 1 and SOUND_ALIKE.get(differ[0][0]) == differ[0][1]


def numbers_corrected(text: str, start: float, slide: int, shown: str, corrections: list) -> str:
    on_slide = set(NUMBER.findall(shown))
    after: dict[str, set[str]] = {}
    for word, number in NUMBER_AFTER.findall(shown):
        after.setdefault(word.lower(), set()).add(number)

    def replace(match: re.Match) -> str:
        word, heard = match.groups()
        candidates = [n for n in after.get(word.lower(), ()) if sounds_alike(heard, n)]
        if heard in on_slide or len(candidates) != 1:
            return match.group()
        corrections.append(correction(start, heard, candidates[0], slide))
        return match.group()[: match.start(2) - match.start()] + candidates[0]

    return NUMBER_AFTER.sub(replace, text)


def part_of(heard: str, shown: str) -> bool:
    """The heard word is in the slide's word ("at" in "batch"), or sounds as its start
    ("link" as "length")."""
    heard, shown = heard.lower(), shown.lower()
    said = sound(heard)
    return (len(heard) >= 2 and heard in shown) or (
        len(said) >= 2 and sound(shown).startswith(said)
    )


def words_corrected(text: str, start: float, slide: int, shown: str, corrections: list) -> str:
    phrases = [
        (match.groups(), {w.lower() for w in WORD.findall(line)})
        for line in shown.splitlines()
        for match in PHRASE.finditer(line)
    ]

    def replace(match: re.Match) -> str:
        said = match.groups()
        fixes = []
        for shown_words, line_words in phrases:
            if shown_words[2] != said[2]:
                continue
            same = [a.lower() == b.lower() for a, b in zip(said[:2], shown_words[:2], strict=True)]
            if same.count(True) != 1:
                continue
            i = same.index(False)
            if said[i].lower() not in line_words and part_of(said[i], shown_words[i]):
                fixes.append((i, shown_words[i]))
        if len(set(fixes)) != 1:
            return match.group()
        i, word = fixes[0]
        if word.istitle() and said[i].islower():  # "Batch size" opens the slide's line
            word = word.lower()
        corrections.append(correction(start, said[i], word, slide))
        words = list(said[:2])
        words[i] = word
        return f"{words[0]} {words[1]}" + match.group()[match.end(2) - match.start() :]

    return PHRASE.sub(replace, text)


ACRONYM_PAIR = re.compile(r"\b([A-Z][A-Z0-9]{1,3}) ([A-Za-z]{3,})\b")


def one_letter_off(heard: str, shown: str) -> bool:
    """The same length, first letter and digits, one letter apart: KB / KV."""
    return (
        len(heard) == len(shown)
        and heard[0] == shown[0]
        and sum(a != b for a, b in zip(heard, shown, strict=True)) == 1
        and digits(heard) == digits(shown)
    )


def acronyms_corrected(text: str, start: float, slide: int, shown: str, corrections: list) -> str:
    """An acronym heard one letter off the slide's, before the same word: "the KB cache"
    while the slide shows "the KV cache". Letters that sound alike are what speech
    recognition confuses; the word after it says which acronym was meant. The heard
    acronym must be nowhere on the slide."""
    pairs: dict[str, set[str]] = {}
    for match in ACRONYM_PAIR.finditer(shown):
        pairs.setdefault(match.group(2).lower(), set()).add(match.group(1))
    on_slide = set(WORD.findall(shown))

    def replace(match: re.Match) -> str:
        heard, word = match.groups()
        near = {a for a in pairs.get(word.lower(), ()) if one_letter_off(heard, a)}
        if heard in on_slide or len(near) != 1:
            return match.group()
        [acronym] = near
        corrections.append(correction(start, heard, acronym, slide))
        return f"{acronym} {word}"

    return ACRONYM_PAIR.sub(replace, text)


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


FRAMED_LENGTH = 2  # letters the heard word and the slide's may differ in length


def framed_corrected(
    text: str, start: float, slide: int, shown: str, deck_terms: set[str], corrections: list
) -> str:
    """A heard word between the two words that frame one word of the slide's line."""
    between: dict[tuple[str, str], set[str]] = {}
    for line in shown.splitlines():
        words = WORD.findall(line)
        for before, word, after in zip(words, words[1:], words[2:], strict=False):
            between.setdefault((before.lower(), after.lower()), set()).add(word)
    on_slide = {w.lower() for w in WORD.findall(shown)} | {squash(t) for t in deck_terms}
    spoken = list(WORD.finditer(text))
    out, done = [], 0
    for before, heard, after in zip(spoken, spoken[1:], spoken[2:], strict=False):
        gaps = (text[before.end() : heard.start()], text[heard.end() : after.start()])
        shown_words = between.get((before.group().lower(), after.group().lower()), set())
        word = heard.group()
        if (
            len(shown_words) != 1
            or heard.start() < done
            or not all(RUN_GAP.fullmatch(g) for g in gaps)
            or word.lower() in on_slide
            or squash(word) in on_slide
            or is_english(word)
        ):
            continue
        [name] = shown_words
        if abs(len(squash(word)) - len(squash(name))) > FRAMED_LENGTH:
            continue
        corrections.append(correction(start, word, name, slide))
        out += [text[done : heard.start()], name]
        done = heard.end()
    return "".join(out) + text[done:]


def correction(start: float, heard: str, shown: str, slide: int) -> Correction:
    score = round(fuzz.ratio(squash(heard), squash(shown)), 1)
    return Correction(start=start, original=heard, corrected=shown, score=score, slide=slide)


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
