"""The deck stage: slides from a PPTX and/or PDF, with a picture of each slide for the site.

The PPTX is the primary source when there is one (it has bullet levels, notes and hidden
slides); a PDF of the same deck fills in text kept in pictures and gives the pictures.
Without a PDF, headless LibreOffice renders the PPTX when it is installed.
"""

import tempfile
from pathlib import Path

from pipeline import deck_pdf, deck_pptx
from pipeline.errors import StageFailure
from pipeline.schema import Deck, Provenance, Slide, TalkInputs
from pipeline.settings import DeckOptions
from pipeline.store import provenance, sha256_file

STAGE = "slides"
MB = deck_pptx.MB


def uses_libreoffice(talk: TalkInputs, opts: DeckOptions) -> bool:
    kinds = {p.suffix.lower() for p in talk.decks}
    return kinds == {".pptx"} and opts.libreoffice and deck_pptx.libreoffice() is not None


def deck_provenance(talk: TalkInputs, opts: DeckOptions) -> Provenance:
    options = {
        "thumbnail_width": str(opts.thumbnail_width),
        "libreoffice": str(uses_libreoffice(talk, opts)),
        "limits": f"{opts.max_mb}/{opts.max_unpacked_mb}/{opts.max_ratio}",
    }
    return provenance(STAGE, inputs={p.name: sha256_file(p) for p in talk.decks}, options=options)


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
            update["text"] = page.text
        if page and not slide.tables:
            update["tables"] = page.tables
        filled.append(slide.model_copy(update=update))
    return filled


def check_size(path: Path, opts: DeckOptions) -> None:
    size = path.stat().st_size
    if size == 0:
        raise StageFailure(STAGE, "deck file is empty", path)
    if size > opts.max_mb * MB:
        raise StageFailure(
            STAGE, f"deck is {size / MB:.0f} MB, over the {opts.max_mb:.0f} MB limit", path
        )


def read_pptx_checked(path: Path, opts: DeckOptions) -> list[Slide]:
    check_size(path, opts)
    deck_pptx.check_archive(path, int(opts.max_unpacked_mb * MB), opts.max_ratio)
    slides = deck_pptx.read_pptx(path)
    if not slides:
        raise StageFailure(STAGE, "deck has no slides", path)
    return slides


def scanned_warning(slides: list[Slide], source: str) -> list[str]:
    scanned = [str(s.index) for s in slides if s.scanned]
    if not scanned:
        return []
    return [
        f"{source}: page(s) {', '.join(scanned)} have no text layer (scanned?); "
        "each is kept as a picture only"
    ]


def read_deck(talk: TalkInputs, opts: DeckOptions, pictures_dir: Path) -> Deck:
    """Every deck of the talk as one Deck; slide pictures are written to `pictures_dir`."""
    pptx = [p for p in talk.decks if p.suffix.lower() == ".pptx"][:1]
    pdf = [p for p in talk.decks if p.suffix.lower() == ".pdf"][:1]
    warnings = [
        f"{p.name} ignored: one deck per format is read" for p in talk.decks if p not in pptx + pdf
    ]
    slides: list[Slide] = []
    if pptx:
        try:
            slides = read_pptx_checked(pptx[0], opts)
        except StageFailure as err:
            if not pdf:
                raise
            warnings.append(f"{err}; the PDF is used instead")
    used = pptx if slides else []
    with tempfile.TemporaryDirectory(prefix="talk2article-deck-") as tmp:
        source, origin = pdf[0] if pdf else None, "pdf"
        if slides and not pdf and uses_libreoffice(talk, opts):
            source, origin = _libreoffice_pdf(pptx[0], Path(tmp), opts, warnings), "libreoffice"
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
            pictures = deck_pdf.render_pages(
                source, pairing, pictures_dir, opts.thumbnail_width, talk.meta.deck_password
            )
    return Deck(
        sources=[p.name for p in used],
        slides=[s.model_copy(update={"thumbnail": pictures.get(s.index)}) for s in slides],
        thumbnails=origin if pictures else "none",
        warnings=warnings,
        provenance=deck_provenance(talk, opts),
    )


def _libreoffice_pdf(pptx: Path, tmp: Path, opts: DeckOptions, warnings: list[str]) -> Path | None:
    try:
        return deck_pptx.convert_to_pdf(pptx, tmp, opts.libreoffice_timeout_s)
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
        return deck_pdf.read_pdf(path, password)
    except StageFailure as err:
        if not has_pptx:
            raise
        warnings.append(f"{err}; slides are read from the PPTX alone, without pictures")
        return []
