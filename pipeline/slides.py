"""Per-slide text from the deck: PPTX (titles, bullets, tables, speaker notes) and PDF."""

import zipfile
from pathlib import Path

import pymupdf
from pptx import Presentation
from pptx.exc import PackageNotFoundError

from pipeline.errors import StageFailure
from pipeline.schema import Deck, Provenance, Slide, TalkInputs
from pipeline.store import provenance, sha256_file

STAGE = "slides"


def deck_provenance(talk: TalkInputs) -> Provenance:
    return provenance(STAGE, inputs={p.name: sha256_file(p) for p in talk.decks})


def _shape_lines(shape) -> list[str]:
    if shape.has_text_frame:
        return [p.text.strip() for p in shape.text_frame.paragraphs if p.text.strip()]
    if getattr(shape, "has_table", False) and shape.has_table:
        return [" | ".join(c.text.strip() for c in row.cells) for row in shape.table.rows]
    return []


def read_pptx(path: Path) -> list[Slide]:
    try:
        presentation = Presentation(str(path))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as err:
        raise StageFailure(STAGE, f"cannot open PPTX: {err}", path) from err
    slides = []
    for index, slide in enumerate(presentation.slides, start=1):
        title_shape = slide.shapes.title
        title = title_shape.text.strip() if title_shape is not None else ""
        # Shape proxies are rebuilt on each access, so compare ids, not identity.
        title_id = title_shape.shape_id if title_shape is not None else None
        body = [
            line
            for shape in slide.shapes
            if shape.shape_id != title_id
            for line in _shape_lines(shape)
        ]
        notes = ""
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            notes = slide.notes_slide.notes_text_frame.text.strip()
        hidden = slide._element.get("show") == "0"
        slides.append(
            Slide(index=index, title=title, text="\n".join(body), notes=notes, hidden=hidden)
        )
    return slides


def _pdf_title(page: pymupdf.Page) -> str:
    """The largest-font line in the top part of the page, a fair proxy for the title."""
    best, best_size = "", 0.0
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            text = "".join(span["text"] for span in line["spans"]).strip()
            size = max((span["size"] for span in line["spans"]), default=0.0)
            if text and size > best_size + 0.5 and line["bbox"][1] < page.rect.height * 0.5:
                best, best_size = text, size
    return best


def read_pdf(path: Path) -> list[Slide]:
    try:
        document = pymupdf.open(path)
    except (pymupdf.FileDataError, RuntimeError) as err:
        raise StageFailure(STAGE, f"cannot open PDF: {err}", path) from err
    with document:
        if document.needs_pass:
            raise StageFailure(STAGE, "PDF is encrypted (password protected)", path)
        slides = []
        for index, page in enumerate(document, start=1):
            title = _pdf_title(page)
            lines = [ln.strip() for ln in page.get_text("text", sort=True).splitlines()]
            body = [ln for ln in lines if ln and ln != title]
            slides.append(Slide(index=index, title=title, text="\n".join(body)))
    return slides


def read_deck(talk: TalkInputs) -> Deck:
    """Read every deck of the talk; PPTX wins (it has notes), PDF fills in when alone."""
    pptx = [p for p in talk.decks if p.suffix.lower() == ".pptx"]
    pdf = [p for p in talk.decks if p.suffix.lower() == ".pdf"]
    by_source = {p: read_pptx(p) for p in pptx} | {p: read_pdf(p) for p in pdf}
    for path, slides in by_source.items():
        if not slides:
            raise StageFailure(STAGE, "deck has no slides", path)
    primary = (pptx or pdf)[:1]
    slides = by_source[primary[0]] if primary else []
    if pptx and pdf:
        slides = _fill_from_pdf(slides, by_source[pdf[0]])
    return Deck(
        sources=[p.name for p in by_source], slides=slides, provenance=deck_provenance(talk)
    )


def _fill_from_pdf(slides: list[Slide], pdf_slides: list[Slide]) -> list[Slide]:
    """Text a PPTX keeps outside text frames (pictures of text, SmartArt) may be in the PDF."""
    filled = []
    for slide, page in zip(slides, pdf_slides, strict=False):
        update = {}
        if not slide.title:
            update["title"] = page.title
        if not slide.text:
            update["text"] = page.text
        filled.append(slide.model_copy(update=update))
    return filled + slides[len(filled) :]
