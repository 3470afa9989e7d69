import os
import stat

import pytest
from PIL import Image

from pipeline.core.errors import StageFailure
from pipeline.deck import read_deck
from pipeline.deck.options import DeckOptions
from pipeline.deck.pptx import libreoffice
from tests.decks import pdf_with_pages, pptx_with_slides, scanned_pdf, zip_bomb
from tests.helpers import DATA, EXAMPLE, talk_with

NO_LIBREOFFICE = DeckOptions(libreoffice=False)


def deck_of(tmp_path, decks, opts=NO_LIBREOFFICE, **meta):
    return read_deck(talk_with(EXAMPLE / "talk.mp4", decks, **meta), opts, tmp_path / "slides")


def test_pptx_wins_and_the_pdf_gives_pictures(tmp_path):
    deck = deck_of(tmp_path, [EXAMPLE / "slides.pdf", EXAMPLE / "slides.pptx"])
    assert deck.sources == ["slides.pptx", "slides.pdf"]
    assert deck.slides[0].notes  # notes come from the PPTX
    assert deck.thumbnails == "pdf" and not deck.warnings
    for slide in deck.slides:
        assert slide.thumbnail == f"slides/slide-{slide.index:03d}.jpg"
        assert (tmp_path / slide.thumbnail).stat().st_size > 1000


def test_pptx_alone_has_no_pictures_without_libreoffice(tmp_path):
    deck = deck_of(tmp_path, [EXAMPLE / "slides.pptx"])
    assert deck.thumbnails == "none"
    assert all(s.thumbnail is None for s in deck.slides)


def test_libreoffice_renders_a_pptx_alone(tmp_path, monkeypatch):
    """A stand-in `soffice` on PATH: checks the call we make and what we do with its PDF."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "soffice"
    fake.write_text(
        "#!/bin/sh\n"
        'case "$*" in *"--headless --convert-to pdf --outdir"*) ;; *) exit 2 ;; esac\n'
        'for last; do :; done\nout=$(echo "$*" | sed "s/.*--outdir \\([^ ]*\\) .*/\\1/")\n'
        f'cp "{EXAMPLE / "slides.pdf"}" "$out/$(basename "$last" .pptx).pdf"\n'
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    deck = deck_of(tmp_path, [EXAMPLE / "slides.pptx"], DeckOptions())
    assert deck.thumbnails == "libreoffice" and deck.sources == ["slides.pptx"]
    assert all((tmp_path / s.thumbnail).exists() for s in deck.slides)


def test_hidden_slides_pair_with_a_pdf_that_leaves_them_out(tmp_path):
    pptx = pptx_with_slides(tmp_path / "d.pptx", ["One", "Two", "Three"], hidden={2})
    pdf = pdf_with_pages(tmp_path / "d.pdf", ["One", "Three"])
    deck = deck_of(tmp_path, [pptx, pdf])
    assert [s.thumbnail for s in deck.slides] == [
        "slides/slide-001.jpg",
        None,
        "slides/slide-003.jpg",
    ]
    assert [s.index for s in deck.visible()] == [1, 3]


def test_a_pdf_of_another_version_is_not_paired(tmp_path):
    pptx = pptx_with_slides(tmp_path / "d.pptx", ["One", "Two", "Three"])
    pdf = pdf_with_pages(tmp_path / "d.pdf", ["One", "Two", "Three", "Four", "Five"])
    deck = deck_of(tmp_path, [pptx, pdf])
    assert deck.thumbnails == "none" and "5 pages" in deck.warnings[0]


def test_broken_pptx_falls_back_to_the_pdf(tmp_path):
    bomb = zip_bomb(tmp_path / "slides.pptx")
    deck = deck_of(tmp_path, [bomb, EXAMPLE / "slides.pdf"])
    assert deck.sources == ["slides.pdf"] and deck.thumbnails == "pdf"
    assert "zip bomb" in deck.warnings[0] and len(deck.slides) == 6


def test_broken_pdf_beside_a_good_pptx_is_a_warning(tmp_path):
    broken = tmp_path / "slides.pdf"
    broken.write_bytes(b"%PDF-1.7 nothing")
    deck = deck_of(tmp_path, [EXAMPLE / "slides.pptx", broken])
    assert deck.sources == ["slides.pptx"] and deck.thumbnails == "none"
    assert "cannot open PDF" in deck.warnings[0]


def test_scanned_pdf_is_a_warning_and_keeps_the_pictures(tmp_path):
    scan = scanned_pdf(tmp_path / "scan.pdf", DATA / "constrained_decoding.pdf")
    deck = deck_of(tmp_path, [scan])
    assert all(s.scanned and s.thumbnail for s in deck.slides)
    assert "no text layer" in deck.warnings[0]


def test_unusable_decks_name_the_file(tmp_path):
    with pytest.raises(StageFailure) as caught:
        deck_of(tmp_path, [zip_bomb(tmp_path / "bomb.pptx")])
    assert caught.value.file.endswith("bomb.pptx")
    empty = tmp_path / "empty.pdf"
    empty.touch()
    with pytest.raises(StageFailure, match="empty"):
        deck_of(tmp_path, [empty])
    with pytest.raises(StageFailure, match="over the"):
        deck_of(tmp_path, [DATA / "sglang-router.pdf"], DeckOptions(max_mb=0.1))
    with pytest.raises(StageFailure, match="over the 0 MB limit"):
        deck_of(tmp_path, [DATA / "powerpoint_sample.pptx"], DeckOptions(max_mb=0.01))


def test_real_deck_read_twice_is_identical(tmp_path):
    first = deck_of(tmp_path / "a", [DATA / "sglang-router.pdf"])
    second = deck_of(tmp_path / "b", [DATA / "sglang-router.pdf"])
    assert first.model_dump(exclude={"provenance"}) == second.model_dump(exclude={"provenance"})
    assert len(first.slides) == 23 and first.thumbnails == "pdf"


def test_pptx_without_slides_is_an_error(tmp_path):
    empty = pptx_with_slides(tmp_path / "empty.pptx", [])
    with pytest.raises(StageFailure, match="no slides"):
        deck_of(tmp_path, [empty])


@pytest.mark.skipif(
    libreoffice() is None, reason="LibreOffice is not installed (.ci/run installs it)"
)
def test_real_libreoffice_renders_a_real_pptx(tmp_path):
    deck = deck_of(tmp_path, [DATA / "powerpoint_sample.pptx"], DeckOptions())
    assert deck.thumbnails == "libreoffice" and not deck.warnings
    for slide in deck.slides:
        with Image.open(tmp_path / slide.thumbnail) as picture:
            assert picture.width == 960 and picture.getextrema()[0][0] < 100  # not blank


def test_a_slide_says_what_it_shows_markup_and_all(tmp_path):
    # Text, escaped where a page renders it (tests/site/test_hostile.py), never cut here.
    titles = ["<video> tags", "vector<int> &amp; more"]
    deck = deck_of(tmp_path, [pptx_with_slides(tmp_path / "d.pptx", titles)])
    assert [s.title for s in deck.slides] == titles


def test_styled_and_doubled_glyphs_of_a_text_layer_reach_no_page(tmp_path):
    from pipeline.core.text import plain_letters

    assert (
        plain_letters("sizeof 𝟖𝟖× 𝑮𝑮𝑷𝑷𝑼𝑼: 𝑰𝑰𝑵𝑵𝑻𝑻𝟒𝟒→𝑭𝑭𝑷𝑷𝟖𝟖，中文？")
        == "sizeof 8× GPU: INT4→FP8，中文？"
    )
    # a real deck whose text layer writes italic letters as mathematical symbols
    deck = deck_of(tmp_path, [DATA / "mlcengine.pdf"])
    said = "\n".join(f"{s.title}\n{s.text}\n{''.join(s.tables)}" for s in deck.slides)
    assert not any("\U0001d400" <= ch <= "\U0001d7ff" for ch in said)
