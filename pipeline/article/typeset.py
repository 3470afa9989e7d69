"""House typesetting of article text (../shared/style.md): Simplified characters, a space
between Chinese and Latin letters or digits (autocorrect-py), a space between a number and
its unit, code identifiers in backticks; and Markdown that shows text as text.
"""

import re
from functools import lru_cache

import opencc
from autocorrect_py import format as autocorrect

from pipeline.core.text import UNIT, command_spans, markdown_text

NUMBER_UNIT = re.compile(rf"(?<![A-Za-z\d.])(\d+(?:\.\d+)?)({UNIT})(?![A-Za-z\d/])")
DECADE = re.compile(r"(?:1[89]|20)\d0")  # "the 1990s" is no duration
# Code identifiers: snake_case names, calls and command-line flags.
IDENTIFIER = re.compile(
    r"(?<![A-Za-z\d_`.-])"
    r"(?:[A-Za-z_][A-Za-z\d_]*_[A-Za-z\d_]+(?:\(\))?|[A-Za-z_][A-Za-z\d_.]*\(\)|--[a-z][a-z\d-]+)"
    r"(?![A-Za-z\d_`])"
)
CODE_SPAN = re.compile(r"(`[^`]+`)")


@lru_cache(maxsize=1)
def simplified() -> opencc.OpenCC:
    return opencc.OpenCC("t2s")


def in_code_spans(text: str) -> str:
    """Command lines, and identifiers outside code spans, wrapped in backticks."""
    if "`" not in text:
        for start, end in reversed(command_spans(text)):
            text = f"{text[:start]}`{text[start:end]}`{text[end:]}"
    parts = CODE_SPAN.split(text)
    return "".join(
        part if k % 2 else IDENTIFIER.sub(lambda m: f"`{m.group()}`", part)
        for k, part in enumerate(parts)
    )


def escaped(text: str) -> str:
    """Markdown that shows the text as it is: outside code spans, characters that would be
    markup are escaped (a "[x](javascript:...)" in a talk stays text, never a link)."""
    parts = CODE_SPAN.split(text)
    return "".join(part if k % 2 else markdown_text(part) for k, part in enumerate(parts))


def spaced_units(text: str) -> str:
    def space(m: re.Match) -> str:
        number, unit = m.groups()
        return m.group() if unit == "s" and DECADE.fullmatch(number) else f"{number} {unit}"

    return NUMBER_UNIT.sub(space, text)


def typeset_plain(text: str, lang: str) -> str:
    """Front matter and other plain-text fields: the house typesetting, no Markdown."""
    text = spaced_units(" ".join(text.split()))
    return autocorrect(simplified().convert(text)) if lang == "zh" else text


def typeset_text(text: str, lang: str) -> str:
    """Plain text as typeset Markdown: identifiers in backticks, the rest escaped."""
    return escaped(typeset_plain(in_code_spans(text), lang))
