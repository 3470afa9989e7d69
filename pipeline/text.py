"""Small text helpers shared by stages."""

import re

CJK = re.compile(r"[\u4e00-\u9fff]")
# rapidfuzz ratio at or above which two paragraphs say the same thing.
NEAR_DUPLICATE = 90
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def has_cjk(text: str) -> bool:
    return bool(CJK.search(text))


def cjk_share(text: str) -> float:
    """Share of CJK characters among letters (Latin terms inside Chinese are expected)."""
    letters = [c for c in text if c.isalpha()]
    return sum(1 for c in letters if CJK.match(c)) / len(letters) if letters else 0.0


def numbers(text: str) -> set[str]:
    return set(NUMBER.findall(text))


def shorten(text: str, words: int) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")
