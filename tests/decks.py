"""Builders of small decks for tests: each shows one property, made on the fly."""

import struct
import zipfile
from pathlib import Path

import pymupdf
from pptx import Presentation


def pdf_with_pages(path: Path, texts: list[str]) -> Path:
    document = pymupdf.open()
    for text in texts:
        page = document.new_page()
        page.insert_text((72, 90), text, fontsize=28)
    document.save(path)
    return path


def pdf_with_layout(path: Path, pages: list[list[tuple[str, float, float, float]]]) -> Path:
    """Pages of (text, x, baseline y, font size) lines, placed as a slide exporter would:
    wrapped lines, bullet glyphs on lines of their own, labels side by side."""
    document = pymupdf.open()
    for lines in pages:
        page = document.new_page(width=960, height=540)
        for text, x, y, size in lines:
            page.insert_text((x, y), text, fontsize=size, fontname="helv")
    document.save(path)
    return path


def pptx_with_slides(path: Path, titles: list[str], hidden: set[int] = frozenset()) -> Path:
    presentation = Presentation()
    for number, title in enumerate(titles, start=1):
        slide = presentation.slides.add_slide(presentation.slide_layouts[1])
        slide.shapes.title.text = title
        body = slide.placeholders[1].text_frame
        body.text = f"point of {title}"
        sub = body.add_paragraph()
        sub.text = f"detail of {title}"
        sub.level = 1
        if number in hidden:
            slide._element.set("show", "0")
    presentation.save(path)
    return path


def zip_bomb(path: Path, megabytes: int = 20) -> Path:
    """A valid-looking PPTX whose one media member inflates ~1000x."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("ppt/media/image1.png", b"\0" * (megabytes * 1024 * 1024))
    return path


def lying_zip_bomb(path: Path, megabytes: int = 64, declared: int = 100 * 1024) -> Path:
    """A zip bomb whose headers lie: its media member holds `megabytes` of zeros but both
    its local and its central header declare `declared` bytes."""
    zip_bomb(path, megabytes)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        member = archive.getinfo("ppt/media/image1.png")
    size = struct.pack("<I", member.file_size)
    for at in range(len(data) - 4):
        if data[at : at + 4] == size:
            data[at : at + 4] = struct.pack("<I", declared)
    path.write_bytes(bytes(data))
    return path


def zero_page_pdf(path: Path) -> Path:
    path.write_bytes(
        b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
        b"2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n"
        b"trailer << /Root 1 0 R >>\n%%EOF\n"
    )
    return path


def scanned_pdf(path: Path, source: Path) -> Path:
    """Each page of `source` as a picture only, like a scanner's output."""
    document = pymupdf.open()
    with pymupdf.open(source) as original:
        for page in original:
            picture = page.get_pixmap(dpi=50)
            document.new_page(width=page.rect.width, height=page.rect.height).insert_image(
                page.rect, pixmap=picture
            )
    document.save(path)
    return path


def pdf_with_table(path: Path, rows: list[list[str]]) -> Path:
    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((72, 80), "Results", fontsize=28)
    x0, y0, w, h = 72, 120, 120, 30
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            cell = pymupdf.Rect(x0 + c * w, y0 + r * h, x0 + (c + 1) * w, y0 + (r + 1) * h)
            page.draw_rect(cell, color=(0, 0, 0), width=1)
            page.insert_text((cell.x0 + 5, cell.y0 + 20), value, fontsize=11)
    document.save(path)
    return path
