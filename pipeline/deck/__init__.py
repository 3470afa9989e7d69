"""The deck stage (deck.json): slides from a PPTX and/or PDF, with a picture of each slide
for the site.

The PPTX is the primary source when there is one (it has bullet levels, notes and hidden
slides); a PDF of the same deck fills in text kept in pictures and gives the pictures.
Without a PDF, headless LibreOffice renders the PPTX when it is installed.
"""

import tempfile
from pathlib import Path

from pipeline.core.errors import StageFailure
from pipeline.core.formats import reader_of
from pipeline.core.text import plain_letters
from pipeline.deck import pdf, pptx
from pipeline.deck.options import DeckOptions
from pipeline.schema import Deck, Slide, Talk

MB = pptx.MB


def uses_libreoffice(decks: list[Path], opts: DeckOptions) -> bool:
    """A PPTX alone is rendered by LibreOffice, when it is installed and allowed."""
    readers = {reader_of(p, "deck") for p in decks}
    return readers == {"pptx"} and opts.libreoffice and pptx.libreoffice() is not None


def options_key(decks: list[Path], opts: DeckOptions) -> dict[str, object]:
    """The settings a deck.json depends on (the converter's timeout does not count)."""
    keyed = opts.model_dump(exclude={"libreoffice", "libreoffice_timeout_s"})
    return keyed | {"libreoffice": uses_libreoffice(decks, opts)}


def pair_pages(slides: list[Slide], pages: int, source: str, warnings: list[str]) -> dict[int, int]:
    """Slide index -> 0-based page of the PDF rendering of the same deck.

    A PDF export usually leaves hidden slides out, so it has one page per visible slide;
    some exports keep them. Any other page count means the PDF is another version.
    """
    visible = [s.index for s in slides if not s.hidden]
    if pages == len(slides):
        return {s.index: n for n, s in enumerate(slides)}
    if pages == len(visible):
        return {index: n for n, index in enumerate(visible)}
    warnings.append(
        f"{source} has {pages} pages but the PPTX has {len(slides)} slides "
        f"({len(visible)} visible); its pages are not used"
    )
    return {}


def fill_from_pdf(slides: list[Slide], pages: list[Slide], pairing: dict[int, int]) -> list[Slide]:
    """Text a PPTX keeps outside text frames (pictures of text, SmartArt) may be in the PDF."""
    filled = []
    for slide in slides:
        page = pages[pairing[slide.index]] if slide.index in pairing else None
        update = {}
        if page and not slide.title:
            update["title"] = page.title
        if page and not slide.text:
            update["text"], update["bullets"] = page.text, page.bullets
        if page and not slide.tables:
            update["tables"] = page.tables
        if page and not slide.picture_text:
            update["picture_text"] = page.picture_text
        filled.append(slide.model_copy(update=update))
    return filled


def check_size(path: Path, opts: DeckOptions) -> None:
    size = path.stat().st_size
    if size == 0:
        raise StageFailure("deck file is empty", path)
    if size > opts.max_mb * MB:
        raise StageFailure(f"deck is {size / MB:.0f} MB, over the {opts.max_mb:.0f} MB limit", path)


def read_pptx_checked(path: Path, opts: DeckOptions) -> list[Slide]:
    check_size(path, opts)
    pptx.check_archive(path, int(opts.max_unpacked_mb * MB), opts.max_ratio)
    slides = pptx.read_pptx(path)
    if not slides:
        raise StageFailure("deck has no slides", path)
    return slides


def scanned_warning(slides: list[Slide], source: str) -> list[str]:
    scanned = [str(s.index) for s in slides if s.scanned]
    if not scanned:
        return []
    return [
        f"{source}: page(s) {', '.join(scanned)} have no text layer (scanned?); "
        "each is kept as a picture only"
    ]


def plain_slide(slide: Slide) -> Slide:
    """The slide's text with styled letters plain (pipeline.core.text.plain_letters), so no
    styled or doubled glyph reaches a prompt or a page."""
    bullets = [b.model_copy(update={"text": plain_letters(b.text)}) for b in slide.bullets]
    texts = {
        field: plain_letters(getattr(slide, field))
        for field in ("title", "text", "notes", "picture_text")
    }
    tables = [plain_letters(table) for table in slide.tables]
    return slide.model_copy(update={**texts, "bullets": bullets, "tables": tables})


def read_deck(talk: Talk, opts: DeckOptions, pictures_dir: Path) -> Deck:
    """Every deck of the talk as one Deck; slide pictures are written to `pictures_dir`."""
    pptx_files = [p for p in talk.decks if reader_of(p, "deck") == "pptx"][:1]
    pdf_files = [p for p in talk.decks if reader_of(p, "deck") == "pdf"][:1]
    warnings = [
        f"{p.name} ignored: one deck per format is read"
        for p in talk.decks
        if p not in pptx_files + pdf_files
    ]
    slides: list[Slide] = []
    if pptx_files:
        try:
            slides = read_pptx_checked(pptx_files[0], opts)
        except StageFailure as err:
            if not pdf_files:
                raise
            warnings.append(f"{err}; the PDF is used instead")
    used = pptx_files if slides else []
    with tempfile.TemporaryDirectory(prefix="talk2article-deck-") as tmp:
        source, origin = pdf_files[0] if pdf_files else None, "pdf"
        if slides and not pdf_files and uses_libreoffice(talk.decks, opts):
            source, origin = (
                _libreoffice_pdf(pptx_files[0], Path(tmp), opts, warnings),
                "libreoffice",
            )
        pages = _read_pdf_pages(source, talk.meta.deck_password, opts, bool(slides), warnings)
        if not slides:  # the PDF alone
            slides = pages
            warnings += scanned_warning(slides, source.name)
        if pages and origin == "pdf":
            used = [*used, source]
        pairing = {}
        if pages:
            label = source.name if origin == "pdf" else "LibreOffice's PDF"
            pairing = pair_pages(slides, len(pages), label, warnings)
        slides = fill_from_pdf(slides, pages, pairing)
        pictures = {}
        if pairing:
            pictures = pdf.render_pages(
                source, pairing, pictures_dir, opts.thumbnail_width, talk.meta.deck_password
            )
    return Deck(
        sources=[p.name for p in used],
        slides=[
            plain_slide(s).model_copy(update={"thumbnail": pictures.get(s.index)}) for s in slides
        ],
        thumbnails=origin if pictures else "none",
        warnings=warnings,
    )


def _libreoffice_pdf(path: Path, tmp: Path, opts: DeckOptions, warnings: list[str]) -> Path | None:
    try:
        return pptx.convert_to_pdf(path, tmp, opts.libreoffice_timeout_s)
    except StageFailure as err:
        warnings.append(f"{err}; no slide pictures")
        return None


def _read_pdf_pages(
    path: Path | None,
    password: str | None,
    opts: DeckOptions,
    has_pptx: bool,
    warnings: list[str],
) -> list[Slide]:
    """The PDF's pages; beside a readable PPTX a bad PDF is only a warning."""
    if path is None:
        return []
    try:
        check_size(path, opts)
        return pdf.read_pdf(path, password, opts.ocr)
    except StageFailure as err:
        if not has_pptx:
            raise
        warnings.append(f"{err}; slides are read from the PPTX alone, without pictures")
        return []
