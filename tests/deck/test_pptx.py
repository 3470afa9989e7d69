import tracemalloc
import zipfile

import pytest
import yaml

from pipeline.core.errors import StageFailure
from pipeline.deck.pptx import check_archive, read_pptx
from tests.decks import lying_zip_bomb, pptx_with_slides, zip_bomb
from tests.helpers import DATA, EXAMPLE, REPO

SOURCE = yaml.safe_load((REPO / "scripts" / "example_talk.yaml").read_text())["slides"]
MB = 1024 * 1024
LIMITS = {"max_unpacked": 1024 * MB, "max_ratio": 200.0}


def test_example_pptx_titles_bullets_and_notes():
    slides = read_pptx(EXAMPLE / "slides.pptx")
    assert [s.title for s in slides] == [s["title"] for s in SOURCE]
    assert [b.text for b in slides[1].bullets] == SOURCE[1]["bullets"]
    assert slides[1].text.splitlines() == SOURCE[1]["bullets"]
    assert slides[2].notes == SOURCE[2]["notes"]
    assert all(s.title not in s.text for s in slides)


def test_real_pptx_table_as_markdown_and_notes():
    slides = read_pptx(DATA / "powerpoint_sample.pptx")
    assert len(slides) == 3
    assert slides[0].title == "Test Table Slide"
    header, rule, *rows = slides[0].tables[0].splitlines()
    assert "Class1" in header and rule.startswith("| --- |") and len(rows) == 8
    assert slides[1].notes == "Some notes on the second slide."


def test_bullet_levels_and_hidden_slides(tmp_path):
    path = pptx_with_slides(tmp_path / "d.pptx", ["One", "Two", "Three"], hidden={2})
    slides = read_pptx(path)
    assert [s.hidden for s in slides] == [False, True, False]
    assert [(b.text, b.level) for b in slides[0].bullets] == [
        ("point of One", 0),
        ("detail of One", 1),
    ]


def test_corrupt_pptx_names_the_file(tmp_path):
    broken = tmp_path / "deck.pptx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(StageFailure) as caught:
        check_archive(broken, **LIMITS)
    assert caught.value.file == str(broken)


def test_encrypted_pptx_is_recognised(tmp_path):
    locked = tmp_path / "locked.pptx"  # Office encryption wraps the zip in an OLE container
    locked.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512)
    with pytest.raises(StageFailure, match="encrypted"):
        check_archive(locked, **LIMITS)


def test_zip_bomb_is_refused_before_unpacking(tmp_path):
    bomb = zip_bomb(tmp_path / "bomb.pptx")
    assert bomb.stat().st_size < MB
    with pytest.raises(StageFailure, match="zip bomb"):
        check_archive(bomb, **LIMITS)
    with pytest.raises(StageFailure, match="unpack to 20.0 MB, over the 10 MB"):
        check_archive(bomb, **(LIMITS | {"max_unpacked": 10 * MB}))


def test_real_pptx_passes_the_limits():
    check_archive(DATA / "powerpoint_sample.pptx", **LIMITS)
    check_archive(EXAMPLE / "slides.pptx", **LIMITS)


def test_a_zip_bomb_whose_headers_lie_is_refused_in_bounded_memory(tmp_path):
    bomb = lying_zip_bomb(tmp_path / "liar.pptx", megabytes=64)
    with zipfile.ZipFile(bomb) as archive:  # the declared sizes pass every limit
        assert sum(m.file_size for m in archive.infolist()) < MB
    tracemalloc.start()
    try:
        with pytest.raises(StageFailure, match="holds more than the 0.1 MB its header declares"):
            check_archive(bomb, **LIMITS)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * MB  # python-pptx would have inflated all 64 MB at once


def test_another_office_file_named_pptx_names_the_file(tmp_path):
    path = tmp_path / "slides.pptx"
    with zipfile.ZipFile(path, "w") as archive:  # a Word document's parts
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", "<w:document/>")
    with pytest.raises(StageFailure, match="not a presentation") as caught:
        read_pptx(path)
    assert caught.value.file == str(path)
