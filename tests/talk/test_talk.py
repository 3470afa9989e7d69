import shutil

import pytest

from pipeline.errors import StageFailure
from pipeline.ingest import discover_talks, ingest


def test_example_talk_is_classified(example_talk):
    talk = ingest(example_talk)
    assert talk.media.name == "talk.mp4"
    assert sorted(p.name for p in talk.decks) == ["slides.pdf", "slides.pptx"]
    assert talk.meta.language == "en" and talk.meta.title


def test_folder_without_media_names_the_folder(tmp_path):
    (tmp_path / "slides.pdf").write_bytes(b"%PDF")
    with pytest.raises(StageFailure) as caught:
        ingest(tmp_path)
    assert caught.value.error.stage == "ingest"
    assert caught.value.error.file == str(tmp_path)
    assert "no recording" in caught.value.error.message


def test_unsupported_file_type_names_the_file(example_talk):
    (example_talk / "notes.docx").write_bytes(b"x")
    with pytest.raises(StageFailure) as caught:
        ingest(example_talk)
    assert caught.value.error.file.endswith("notes.docx")
    assert ".docx" in caught.value.error.message


def test_two_recordings_are_refused(example_talk):
    shutil.copy(example_talk / "talk.mp4", example_talk / "other.mp3")
    with pytest.raises(StageFailure, match="more than one recording"):
        ingest(example_talk)


def test_invalid_talk_yaml_names_the_file(example_talk):
    (example_talk / "talk.yaml").write_text("title: [unclosed\n")
    with pytest.raises(StageFailure) as caught:
        ingest(example_talk)
    assert caught.value.error.file.endswith("talk.yaml")


def test_unknown_talk_yaml_field_is_an_error(example_talk):
    (example_talk / "talk.yaml").write_text("titel: typo\n")
    with pytest.raises(StageFailure, match="talk.yaml"):
        ingest(example_talk)


def test_discover_talks_finds_nested_folders(tmp_path):
    for name in ("a", "group/b"):
        (tmp_path / name).mkdir(parents=True)
        (tmp_path / name / "talk.wav").write_bytes(b"")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.wav").write_bytes(b"")
    assert [p.relative_to(tmp_path).as_posix() for p in discover_talks(tmp_path)] == [
        "a",
        "group/b",
    ]
