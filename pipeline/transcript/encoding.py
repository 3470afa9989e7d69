"""The text encoding of a subtitle file: UTF-8 (with or without BOM), UTF-16/32, or a
legacy code page (GB18030/GBK and Big5 are common for Chinese subtitles).

BOMs and strict UTF-8 decide first; then charset-normalizer guesses from the lines that
hold non-ASCII bytes only. A subtitle file is mostly timestamps and numbers, ASCII in every
legacy encoding, and they drown the signal: on 200 characters of a real Chinese SRT in GBK
the whole file gave no guess, its text lines gave gb18030.
"""

import codecs
from pathlib import Path

from charset_normalizer import from_bytes

from pipeline.core.errors import StageFailure

BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# A guess is kept whatever charset-normalizer's "chaos" score: a wrong guess shows in the
# transcript, a refusal would leave the user with nothing.
ACCEPT_ANY_CHAOS = 1.0
# Short texts often decode cleanly in several code pages ("très" is clean in cp1250 and
# cp1252, and only one is right): among equally clean guesses, the more common wins.
COMMON = ("cp1252", "gb18030", "big5", "shift_jis", "euc_kr", "cp1251", "cp1250")
SAME_CHAOS = 0.01


def bom_encoding(data: bytes) -> str | None:
    return next((name for bom, name in BOMS if data.startswith(bom)), None)


def utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 text of mostly ASCII has a NUL in every other byte: odd bytes for LE."""
    head = data[:4096]
    if len(head) < 2 or head.count(0) < len(head) // 4:
        return None
    return "utf-16-le" if head[1::2].count(0) > head[0::2].count(0) else "utf-16-be"


def guessed_encoding(data: bytes) -> str | None:
    text_lines = b"\n".join(line for line in data.splitlines() if any(b >= 0x80 for b in line))
    guesses = from_bytes(text_lines, threshold=ACCEPT_ANY_CHAOS)
    if not guesses:
        return None
    cleanest = min(g.chaos for g in guesses)
    tied = [g.encoding for g in guesses if g.chaos <= cleanest + SAME_CHAOS]
    return next((name for name in COMMON if name in tied), tied[0])


def decode_text(data: bytes, path: Path) -> tuple[str, str]:
    """The text and the name of the encoding it was decoded from; an undecodable file is a
    StageFailure naming it."""
    encoding = bom_encoding(data) or utf16_without_bom(data)
    if encoding is None:
        try:
            return data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            encoding = guessed_encoding(data)
    if encoding is not None:
        try:
            return data.decode(encoding), encoding
        except (UnicodeDecodeError, LookupError):
            pass
    raise StageFailure(
        "cannot tell the text encoding of the file (not UTF-8, UTF-16 or a known code "
        "page); save it as UTF-8",
        path,
    )
