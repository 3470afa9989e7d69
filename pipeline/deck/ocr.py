"""Text kept in a slide's pictures (a chart's legend and axis titles, a screenshot, a title
drawn as an image), read by RapidOCR: PP-OCRv4 models for Chinese and English that ship
inside the `rapidocr-onnxruntime` wheel, run by onnxruntime on the CPU (no download).

This text names what the speaker talks about while the picture is on screen ("Llama3.1-8B",
"DeepSeek-V2-Lite", "LLaVA" in a benchmark chart), so it corrects the speech the way the
slide's text layer does. It is not evidence: a chart's tick labels are numbers nobody said.
"""

import re
from functools import lru_cache

import pymupdf
from rapidfuzz import fuzz

MIN_SCORE = 0.9  # recognition confidence of a line kept
MIN_PICTURE_SHARE = 0.02  # of the page's area: smaller pictures are logos and icons
MIN_DRAWINGS = 20  # a chart drawn as vectors (its labels as outlines, not text) has more
# A page is read from a picture this wide (its longer side): on the real decks 1.5 times
# wider read no more names and cost 40% more time.
RENDER_SIDE_PX = 1000
# The detector scales a picture so its longer side is this: the default scales the shorter
# side up to 736 px, which costs twice the time on a slide for no more lines.
DETECT_SIDE_PX = 960
ALREADY_SAID = 90  # a line this close to the text layer's (partial ratio) adds nothing
GLYPHS = re.compile(r"[■□●○◆◇▪▫►▶•☆★]+")  # legend markers and icons read as text
LETTERS = re.compile(r"[A-Za-z\u4e00-\u9fff]{2}")


@lru_cache(maxsize=1)
def engine():
    """The OCR engine, loaded once per process (about half a second)."""
    from rapidocr_onnxruntime import RapidOCR  # heavy import, only where pictures are read

    return RapidOCR(det_limit_type="max", det_limit_side_len=DETECT_SIDE_PX)


def has_pictures(page: pymupdf.Page) -> bool:
    """Whether the page shows a picture big enough to hold text, or a drawn chart: a page
    of text alone says everything in its text layer (and costs seconds to read)."""
    area = page.rect.width * page.rect.height
    for info in page.get_image_info():
        box = pymupdf.Rect(info["bbox"]) & page.rect
        if not box.is_empty and box.width * box.height >= MIN_PICTURE_SHARE * area:
            return True
    return len(page.get_cdrawings()) >= MIN_DRAWINGS


def read_lines(png: bytes) -> list[str]:
    """The lines RapidOCR reads in a picture with confidence, legend markers removed."""
    found, _ = engine()(png, use_cls=False)  # slides are upright
    lines = []
    for _box, text, score in found or []:
        text = " ".join(GLYPHS.sub(" ", text).split())
        if float(score) >= MIN_SCORE and LETTERS.search(text):
            lines.append(text)
    return lines


def picture_text(page: pymupdf.Page, text_layer: str) -> str:
    """What the page's pictures and drawn charts say that its text layer does not, one
    line each, without repeats; "" for a page of text alone, or one whose picture cannot
    be rendered or read (the deck is read all the same)."""
    if not has_pictures(page):
        return ""
    zoom = RENDER_SIDE_PX / max(page.rect.width, page.rect.height)
    try:
        pixmap = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        read = read_lines(pixmap.tobytes("png"))
    except Exception:  # noqa: BLE001 - a picture that cannot be read only corrects nothing
        return ""
    lines: list[str] = []
    for line in read:
        said = fuzz.partial_ratio(line.lower(), text_layer.lower()) if text_layer else 0
        if line not in lines and said < ALREADY_SAID:
            lines.append(line)
    return "\n".join(lines)
