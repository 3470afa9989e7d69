"""Corrections by context: a heard number, word or acronym that the words around it on
the slide on screen name (see pipeline.evidence.screen)."""

import re

from pipeline.core.text import NUMBER
from pipeline.evidence.screen.words import RUN_GAP, WORD, correction, digits, is_english
from pipeline.transcript.corrections import sound, squash

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
