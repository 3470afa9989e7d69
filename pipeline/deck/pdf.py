"""PDF decks (pymupdf): per page a title, text in reading order, tables, images, a picture."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pymupdf

from pipeline.errors import StageFailure
from pipeline.schema import Slide
from pipeline.store import atomic_write_bytes
from pipeline.text import markdown_table

TITLE_ZONE = 0.5  # a title sits in the upper half of the page
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


def _lines(page: pymupdf.Page) -> list[tuple[str, float, pymupdf.Rect]]:
    """Text lines in reading order with their largest font size and box."""
    lines = []
    for block in page.get_text("dict", sort=True)["blocks"]:
        for line in block.get("lines", []):
            text = "".join(span["text"] for span in line["spans"]).strip()
            if text:
                size = max(span["size"] for span in line["spans"])
                lines.append((text, size, pymupdf.Rect(line["bbox"])))
    return lines


def _title(lines: list[tuple[str, float, pymupdf.Rect]], page_height: float) -> str:
    """The largest-font line in the upper part of the page (the first one on a tie)."""
    best, best_size = "", 0.0
    for text, size, box in lines:
        if size > best_size + 0.5 and box.y0 < page_height * TITLE_ZONE:
            best, best_size = text, size
    return best


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


def read_page(page: pymupdf.Page, index: int) -> Slide:
    lines = _lines(page)
    title = _title(lines, page.rect.height)
    tables, boxes = _tables(page)
    body = [
        text
        for text, _, box in lines
        if text != title and not any(b.contains(box.tl + (box.br - box.tl) / 2) for b in boxes)
    ]
    images = len(page.get_images(full=False))
    return Slide(
        index=index,
        title=title,
        text="\n".join(body),
        tables=tables,
        images=images,
        scanned=not lines and images > 0,
    )


def read_pdf(path: Path, password: str | None = None) -> list[Slide]:
    with open_pdf(path, password) as document:
        return [read_page(page, number) for number, page in enumerate(document, start=1)]


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
