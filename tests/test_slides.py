import pymupdf
import pytest
import yaml

from pipeline.errors import StageFailure
from pipeline.slides import read_deck, read_pdf, read_pptx
from tests.helpers import DATA, EXAMPLE, REPO, talk_with

SOURCE = yaml.safe_load((REPO / "scripts" / "example_talk.yaml").read_text())["slides"]


def test_example_pptx_titles_bullets_and_notes():
    slides = read_pptx(EXAMPLE / "slides.pptx")
    assert [s.title for s in slides] == [s["title"] for s in SOURCE]
    assert slides[1].text.splitlines() == SOURCE[1]["bullets"]
    assert slides[2].notes == SOURCE[2]["notes"]
    assert all(s.title not in s.text for s in slides)


def test_example_pdf_titles_by_font_size():
    slides = read_pdf(EXAMPLE / "slides.pdf")
    assert [s.title for s in slides] == [s["title"] for s in SOURCE]
    assert "16 tokens" in slides[2].text


def test_real_pptx_with_table_and_notes():
    slides = read_pptx(DATA / "powerpoint_sample.pptx")
    assert len(slides) == 3
    assert slides[0].title == "Test Table Slide" and "|" in slides[0].text
    assert slides[1].notes == "Some notes on the second slide."


def test_real_pdf_deck_has_text_on_every_page():
    slides = read_pdf(DATA / "constrained_decoding.pdf")
    assert len(slides) == 8
    assert all(s.index == i for i, s in enumerate(slides, start=1))
    assert "Constrained" in slides[0].title + slides[0].text


def test_deck_prefers_pptx_and_records_both_sources():
    deck = read_deck(
        talk_with(EXAMPLE / "talk.mp4", [EXAMPLE / "slides.pdf", EXAMPLE / "slides.pptx"])
    )
    assert deck.sources == ["slides.pptx", "slides.pdf"]
    assert deck.slides[0].notes  # notes come from the PPTX
    assert set(deck.provenance.inputs) == {"slides.pdf", "slides.pptx"}


def test_corrupt_pptx_names_the_file(tmp_path):
    broken = tmp_path / "deck.pptx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(StageFailure) as caught:
        read_pptx(broken)
    assert caught.value.error.file == str(broken) and caught.value.error.stage == "slides"


def test_corrupt_pdf_names_the_file(tmp_path):
    broken = tmp_path / "deck.pdf"
    broken.write_bytes(b"%PDF-1.7\n garbage without objects")
    with pytest.raises(StageFailure) as caught:
        read_pdf(broken)
    assert caught.value.error.file == str(broken)


def test_encrypted_pdf_is_a_clear_error(tmp_path):
    locked = tmp_path / "locked.pdf"
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "secret")
    document.save(locked, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="pw")
    with pytest.raises(StageFailure, match="encrypted"):
        read_pdf(locked)
