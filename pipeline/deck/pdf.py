"""PDF decks (pymupdf): per page a title, text in reading order, tables, images, a picture."""

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from pipeline.core.errors import StageFailure
from pipeline.core.store import atomic_write_bytes
from pipeline.core.text import markdown_table
from pipeline.deck.ocr import picture_text
from pipeline.schema import Bullet, Slide

TITLE_ZONE = 0.5  # a title sits in the upper half of the page
# Lines of one item: font sizes within this, starts (or centres) within ALIGN_PT of each
# other, the next line at most WRAP_GAP font sizes below (they may overlap a little).
SAME_SIZE_PT = 0.6
ALIGN_PT = 6.0
ALIGN_SHARE = 0.3
WRAP_GAP = 0.8
OVERLAP = 0.3
MAX_LEVEL = 3
PAGE_NUMBER_LAG = 2
# A line on at least this share of the pages (and RUNNING_MIN_PAGES), at the same height
# within RUNNING_Y_PT, is a running header or footer.
RUNNING_SHARE = 0.5
RUNNING_MIN_PAGES = 3
RUNNING_Y_PT = 10
CHILD_GAP = 1.5  # a sub-bullet starts at most this many font sizes below the line above
# Bullet glyphs as PDF exports write them, alone on a line or leading it ("o" is Word's
# second-level bullet).
BULLET_GLYPHS = frozenset("•●○◦▪▫■□►▶➢✓–-*·o")
LEADING_GLYPH = re.compile(r"^[•●○◦▪▫■□►▶➢✓–*·-]\s+")
# A span that only marks a list item: a glyph, or an enumerator ("1.", "b)").
MARKER = re.compile(r"\s*(?:[•●○◦▪▫■□►▶➢✓–*·o-]|\d{1,2}[.)]|[a-z][.)])\s*")
MIN_TABLE_CELLS = 4  # smaller "tables" are layout boxes find_tables mistakes for tables
# find_tables costs ~0.15 s a page even on an empty one. Its default strategy builds cells
# from vector lines and rectangles, and the smallest 2x2 table (a frame, a row rule and a
# column rule) takes three drawing items, so pages with fewer cannot have a table.
MIN_TABLE_DRAWING_ITEMS = 3


@contextmanager
def open_pdf(path: Path, password: str | None = None) -> Iterator[pymupdf.Document]:
    """The opened PDF, or a StageFailure that says why it cannot be read."""
    try:
        document = pymupdf.open(path, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as err:
        raise StageFailure(f"cannot open PDF (corrupt or not a PDF): {err}", path) from err
    with document:
        if document.needs_pass:
            if not password:
                raise StageFailure(
                    "PDF is encrypted (password protected); "
                    "put its password in talk.yaml as deck_password",
                    path,
                )
            if not document.authenticate(password):
                raise StageFailure("PDF is encrypted and deck_password does not open it", path)
        if document.page_count == 0:
            raise StageFailure("deck has no pages", path)
        yield document


@dataclass
class Line:
    text: str
    size: float  # the largest font size on the line
    box: pymupdf.Rect
    text_x: float  # where its words start: after a bullet glyph or "1." set apart


@dataclass
class Item:
    """A title, a bullet or a paragraph: lines a slide wraps, joined back into one."""

    text: str
    size: float
    x: float  # where it starts: its bullet glyph, or its first line
    text_x: float  # where the words of its first line start (a wrapped line starts there)
    first: pymupdf.Rect
    last: pymupdf.Rect

    def continued_by(self, line: Line) -> bool:
        """Whether `line` is the next line of this item: the same font size, right below,
        aligned left or centred with its first line (a wrapped label in a diagram)."""
        gap = line.box.y0 - self.last.y1
        slack = max(ALIGN_PT, ALIGN_SHARE * line.size)  # a span may start with a space
        aligned = abs(line.box.x0 - self.text_x) <= slack or (
            abs((line.box.x0 + line.box.x1) - (self.first.x0 + self.first.x1)) <= 2 * slack
        )
        same_size = abs(line.size - self.size) <= SAME_SIZE_PT
        return same_size and aligned and -OVERLAP * line.size <= gap <= WRAP_GAP * line.size

    def add(self, line: Line) -> None:
        hyphenated = re.search(r"[A-Za-z]-$", self.text)
        self.text = self.text + ("" if hyphenated else " ") + line.text
        self.last = line.box


def _lines(page: pymupdf.Page) -> list[Line]:
    """Text lines in reading order with their largest font size and box."""
    lines = []
    for block in page.get_text("dict", sort=True)["blocks"]:
        for line in block.get("lines", []):
            spans = line["spans"]
            text = " ".join("".join(span["text"] for span in spans).split())
            if text:
                size = max(span["size"] for span in spans)
                words = [s for s in spans if s["text"].strip() and not MARKER.fullmatch(s["text"])]
                text_x = words[0]["bbox"][0] if words else line["bbox"][0]
                lines.append(Line(text, size, pymupdf.Rect(line["bbox"]), text_x))
    return lines


def _title(lines: list[Line], page_height: float) -> list[Line]:
    """The largest-font line in the upper part of the page (the first one on a tie), with
    the lines it wraps onto."""
    best: Line | None = None
    for line in lines:
        if line.box.y0 < page_height * TITLE_ZONE and (
            best is None or line.size > best.size + SAME_SIZE_PT
        ):
            best = line
    if best is None:
        return []
    title = Item(best.text, best.size, best.box.x0, best.text_x, best.box, best.box)
    found = [best]
    for line in lines[lines.index(best) + 1 :]:
        if not title.continued_by(line):
            break
        title.add(line)
        found.append(line)
    return found


def _items(lines: list[Line]) -> list[Item]:
    """Body lines as items: a bullet glyph (on its own line, as many PDF exports put it,
    or leading the text) starts one, and so does a line that does not continue the one
    before; wrapped lines are joined."""
    items: list[Item] = []
    glyph_x = None
    for line in lines:
        if line.text in BULLET_GLYPHS:
            glyph_x = line.box.x0
            continue
        text = line.text
        if lead := LEADING_GLYPH.match(text):
            text, glyph_x = text[lead.end() :], line.box.x0
        if glyph_x is None and items and items[-1].continued_by(line):
            items[-1].add(line)
            continue
        x = line.box.x0 if glyph_x is None else glyph_x
        items.append(Item(text, line.size, x, line.text_x, line.box, line.box))
        glyph_x = None
    return items


def _bullets(items: list[Item]) -> list[Bullet]:
    """Items with outline levels. An item is a level deeper than an open item when it
    starts right below the item before it, indented under the open one: a row of labels
    side by side, or a line far below, is no one's child."""
    open_items: list[Item] = []
    bullets = []
    for before, item in zip([None, *items], items, strict=False):
        close = before is not None and (
            -OVERLAP * item.size <= item.first.y0 - before.last.y1 <= CHILD_GAP * item.size
        )
        while open_items and not (
            close and item.x > open_items[-1].x + ALIGN_PT and item.x < open_items[-1].first.x1
        ):
            open_items.pop()
        bullets.append(Bullet(text=item.text, level=min(len(open_items), MAX_LEVEL)))
        open_items.append(item)
    return bullets


def _tables(page: pymupdf.Page) -> tuple[list[str], list[pymupdf.Rect]]:
    """Tables as Markdown, and their boxes so their text is not repeated as body lines."""
    found, boxes = [], []
    if sum(len(path["items"]) for path in page.get_cdrawings()) < MIN_TABLE_DRAWING_ITEMS:
        return found, boxes
    for table in page.find_tables().tables:
        rows = table.extract()
        if len(rows) * max((len(r) for r in rows), default=0) < MIN_TABLE_CELLS:
            continue
        found.append(markdown_table(rows))
        boxes.append(pymupdf.Rect(table.bbox))
    return found, boxes


def read_page(
    page: pymupdf.Page, index: int, running: set[tuple[str, int]], ocr: bool = False
) -> Slide:
    lines = _lines(page)
    title = _title(lines, page.rect.height)  # the same on many pages, and still a title
    tables, boxes = _tables(page)
    body = [
        line
        for line in lines
        if line not in title
        and running_key(line) not in running
        and not any(b.contains(line.box.tl + (line.box.br - line.box.tl) / 2) for b in boxes)
        and not is_page_number(line, index, page.rect.height)
    ]
    bullets = _bullets(_items(body))
    images = len(page.get_images(full=False))
    return Slide(
        index=index,
        title=" ".join(line.text for line in title),
        text="\n".join(b.text for b in bullets),
        bullets=bullets,
        tables=tables,
        images=images,
        scanned=not lines and images > 0,
        picture_text=picture_text(page, "\n".join(x.text for x in lines)) if ocr else "",
    )


def is_page_number(line: Line, index: int, page_height: float) -> bool:
    """A bare number near the page's own number in its lower half (a cover or an agenda
    may go unnumbered, so the printed number can lag the page's)."""
    return (
        line.text.isascii()
        and line.text.isdigit()
        and abs(int(line.text) - index) <= PAGE_NUMBER_LAG
        and line.box.y0 > page_height / 2
    )


def running_key(line: Line) -> tuple[str, int]:
    return line.text, round(line.box.y0 / RUNNING_Y_PT)


def running_lines(document: pymupdf.Document) -> set[tuple[str, int]]:
    """Lines at the same place on most pages: a running header or footer (the talk's
    title, the lab's name) says nothing about any one slide."""
    counts = Counter(key for page in document for key in {running_key(x) for x in _lines(page)})
    least = max(RUNNING_MIN_PAGES, RUNNING_SHARE * document.page_count)
    return {key for key, count in counts.items() if count >= least}


def read_pdf(path: Path, password: str | None = None, ocr: bool = False) -> list[Slide]:
    """The PDF's pages as slides; `ocr` reads the text of their pictures too."""
    with open_pdf(path, password) as document:
        running = running_lines(document)
        pages = enumerate(document, start=1)
        return [read_page(page, number, running, ocr) for number, page in pages]


def render_pages(
    path: Path,
    pages: dict[int, int],
    out_dir: Path,
    width: int,
    password: str | None = None,
) -> dict[int, str]:
    """JPEG pictures `width` pixels wide of PDF `pages` (slide index -> 0-based page).

    Returns slide index -> file path relative to the parent of `out_dir`.
    """
    written = {}
    with open_pdf(path, password) as document:
        for index, number in pages.items():
            page = document[number]
            zoom = width / page.rect.width
            pixmap = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
            name = f"slide-{index:03d}.jpg"
            atomic_write_bytes(out_dir / name, pixmap.tobytes("jpg", jpg_quality=80))
            written[index] = f"{out_dir.name}/{name}"
    return written
