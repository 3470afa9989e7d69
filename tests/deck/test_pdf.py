import pymupdf
import pytest
import yaml
from PIL import Image

from pipeline.core.errors import StageFailure
from pipeline.deck.pdf import read_pdf, render_pages
from tests.decks import pdf_with_layout, pdf_with_table, scanned_pdf, zero_page_pdf
from tests.helpers import DATA, EXAMPLE, REPO

SOURCE = yaml.safe_load((REPO / "scripts" / "example_talk.yaml").read_text())["slides"]


def test_example_pdf_titles_by_font_size_and_body_without_title():
    slides = read_pdf(EXAMPLE / "slides.pdf")
    assert [s.title for s in slides] == [s["title"] for s in SOURCE]
    assert "16 tokens" in slides[2].text
    assert all(s.title not in s.text.splitlines() for s in slides)


@pytest.mark.parametrize(
    ("name", "pages", "first_title"),
    [
        ("sglang-router.pdf", 23, "Cache-Aware Load Balancer in SGLang"),
        ("constrained_decoding.pdf", 8, None),
    ],
)
def test_real_decks_have_a_title_on_every_page(name, pages, first_title):
    slides = read_pdf(DATA / name)
    assert [s.index for s in slides] == list(range(1, pages + 1))
    assert all(s.title for s in slides)
    assert not any(s.scanned for s in slides)
    if first_title:
        assert slides[0].title == first_title
    assert sum(s.images for s in slides) > 0  # both decks have screenshots and diagrams


def test_real_deck_body_text_is_in_reading_order():
    slide = read_pdf(DATA / "sglang-router.pdf")[1]
    assert slide.title == "The Problems"
    lines = slide.text.splitlines()
    assert len(lines) > 3 and all(line.strip() for line in lines)


def test_ruled_table_becomes_markdown_and_leaves_the_body(tmp_path):
    rows = [["model", "tokens/s"], ["7B", "2400"], ["13B", "1300"]]
    slide = read_pdf(pdf_with_table(tmp_path / "t.pdf", rows))[0]
    assert slide.title == "Results"
    assert slide.tables == ["| model | tokens/s |\n| --- | --- |\n| 7B | 2400 |\n| 13B | 1300 |"]
    assert "2400" not in slide.text


def test_pages_render_to_web_size_pictures(tmp_path):
    written = render_pages(
        DATA / "constrained_decoding.pdf", {1: 0, 2: 1}, tmp_path / "slides", 480
    )
    assert written == {1: "slides/slide-001.jpg", 2: "slides/slide-002.jpg"}
    with Image.open(tmp_path / "slides" / "slide-002.jpg") as picture:
        assert picture.width == 480 and picture.format == "JPEG"
    assert not list((tmp_path / "slides").glob(".*.tmp"))


def test_scanned_pages_are_flagged_not_dropped(tmp_path):
    slides = read_pdf(scanned_pdf(tmp_path / "scan.pdf", EXAMPLE / "slides.pdf"))
    assert len(slides) == len(SOURCE)
    assert all(s.scanned and s.images == 1 and not s.text for s in slides)


def test_corrupt_pdf_names_the_file(tmp_path):
    broken = tmp_path / "deck.pdf"
    broken.write_bytes(b"%PDF-1.7\n garbage without objects")
    with pytest.raises(StageFailure) as caught:
        read_pdf(broken)
    assert caught.value.file == str(broken)


def test_zero_page_pdf_is_an_error(tmp_path):
    with pytest.raises(StageFailure, match="no pages"):
        read_pdf(zero_page_pdf(tmp_path / "empty.pdf"))


def encrypted(tmp_path):
    locked = tmp_path / "locked.pdf"
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "secret roadmap", fontsize=20)
    document.save(locked, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="pw")
    return locked


def test_encrypted_pdf_asks_for_the_password(tmp_path):
    with pytest.raises(StageFailure, match="encrypted.*deck_password"):
        read_pdf(encrypted(tmp_path))
    with pytest.raises(StageFailure, match="does not open it"):
        read_pdf(encrypted(tmp_path), password="wrong")


def test_encrypted_pdf_opens_with_the_password(tmp_path):
    assert read_pdf(encrypted(tmp_path), password="pw")[0].title == "secret roadmap"


FOOTED = [("Our Lab - Meetup 2024", 40, 520, 10)]  # a running footer on every page
LAYOUT = [
    ("Compressing the state machine allows", 60, 60, 36),
    ("decoding multiple tokens", 60, 102, 36),
    ("-", 60, 160, 20),  # a glyph on a line of its own, as many exports write it
    ("v0.1 (July 2024)", 80, 160, 20),
    ("-", 100, 186, 20),
    ("5x higher throughput with automatic KV", 120, 186, 20),
    ("cache reuse", 120, 208, 20),
    ("-", 100, 234, 20),
    ("3x faster constrained decoding", 120, 234, 20),
    ("- v0.2 (Sept. 2024)", 60, 270, 20),
    ("OpenAI JSON Mode", 60, 330, 18),  # a row of labels: siblings, not a hierarchy
    ("Copilot Code Generation", 340, 330, 18),
    ("2", 900, 520, 10),  # the page number
]


def test_pdf_bullets_are_items_with_levels_titles_whole_and_footers_gone(tmp_path):
    pages = [[("Cover", 60, 60, 36), *FOOTED], LAYOUT + FOOTED, [("End", 60, 60, 36), *FOOTED]]
    deck = pdf_with_layout(tmp_path / "d.pdf", pages)
    slide = read_pdf(deck)[1]
    assert slide.title == "Compressing the state machine allows decoding multiple tokens"
    assert [(b.level, b.text) for b in slide.bullets] == [
        (0, "v0.1 (July 2024)"),
        (1, "5x higher throughput with automatic KV cache reuse"),
        (1, "3x faster constrained decoding"),
        (0, "v0.2 (Sept. 2024)"),
        (0, "OpenAI JSON Mode"),
        (0, "Copilot Code Generation"),
    ]
    assert slide.text.splitlines()[1] == "5x higher throughput with automatic KV cache reuse"


def test_hyphenated_wraps_join_without_a_space(tmp_path):
    lines = [
        ("Title", 60, 60, 36),
        ("efficient cross-", 60, 160, 20),
        ("tier caching", 60, 184, 20),
    ]
    assert read_pdf(pdf_with_layout(tmp_path / "d.pdf", [lines]))[0].text == (
        "efficient cross-tier caching"
    )


@pytest.mark.models
def test_pictures_and_drawn_charts_are_read_and_text_alone_is_not():
    slides = read_pdf(DATA / "constrained_decoding.pdf", ocr=True)
    chart, example = slides[6].picture_text, slides[4].picture_text  # vector chart, screenshot
    assert "Llama3.1-8B" in chart and "DeepSeek-V2-Lite" in chart
    assert "LLaVA" in example.splitlines()
    assert "Benchmark Result" not in chart  # the text layer says it already
    assert not any(s.picture_text for s in read_pdf(EXAMPLE / "slides.pdf", ocr=True))
    assert not any(s.picture_text for s in read_pdf(DATA / "constrained_decoding.pdf"))
