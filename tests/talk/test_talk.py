import shutil

import pytest

from pipeline.core.errors import StageFailure
from pipeline.core.formats import INPUT_FORMATS
from pipeline.talk import discover_talks, read_talk, talk_slug


def test_example_talk_is_classified(example_talk):
    talk = read_talk(example_talk, "t")
    assert talk.media.name == "talk.mp4"
    assert sorted(p.name for p in talk.decks) == ["slides.pdf", "slides.pptx"]
    assert talk.meta.language == "en" and talk.meta.title


def test_folder_without_media_names_the_folder(tmp_path):
    (tmp_path / "slides.pdf").write_bytes(b"%PDF")
    with pytest.raises(StageFailure) as caught:
        read_talk(tmp_path, "t")
    assert caught.value.file == str(tmp_path)
    assert "no recording" in caught.value.message


def test_unsupported_file_type_names_the_file_and_the_suffixes_of_the_table(example_talk):
    (example_talk / "notes.docx").write_bytes(b"x")
    with pytest.raises(StageFailure) as caught:
        read_talk(example_talk, "t")
    assert caught.value.file.endswith("notes.docx")
    assert caught.value.message.startswith("unsupported file type '.docx'; expected a recording")
    assert all(suffix in caught.value.message for suffix in INPUT_FORMATS)
    assert "a deck (.pptx, .pdf), subtitles (.srt, .vtt, .json, .bcc)" in caught.value.message


@pytest.mark.parametrize("suffix", INPUT_FORMATS)
def test_each_suffix_of_the_table_is_the_input_its_kind_says_in_any_case(tmp_path, suffix):
    (path := tmp_path / f"input{suffix.upper()}").write_bytes(b"x")
    kind = INPUT_FORMATS[suffix].kind
    if kind != "recording":
        (tmp_path / "talk.wav").write_bytes(b"x")
    talk = read_talk(tmp_path, "t")
    found = {
        "recording": talk.media,
        "subtitles": talk.subtitles,
        "deck": (talk.decks or [None])[0],
    }
    assert found[kind] == path


def test_two_recordings_are_refused(example_talk):
    shutil.copy(example_talk / "talk.mp4", example_talk / "other.mp3")
    with pytest.raises(StageFailure, match="more than one recording"):
        read_talk(example_talk, "t")


def test_invalid_talk_yaml_names_the_file(example_talk):
    (example_talk / "talk.yaml").write_text("title: [unclosed\n")
    with pytest.raises(StageFailure) as caught:
        read_talk(example_talk, "t")
    assert caught.value.file.endswith("talk.yaml")


def test_unknown_talk_yaml_field_is_an_error(example_talk):
    (example_talk / "talk.yaml").write_text("titel: typo\n")
    with pytest.raises(StageFailure, match="talk.yaml"):
        read_talk(example_talk, "t")


def test_discover_talks_finds_nested_folders(tmp_path):
    for name in ("a", "group/b"):
        (tmp_path / name).mkdir(parents=True)
        (tmp_path / name / "talk.wav").write_bytes(b"")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.wav").write_bytes(b"")
    (tmp_path / "group" / "meetup.yaml").write_text("name: M\n")  # a meetup is no talk
    assert [p.relative_to(tmp_path).as_posix() for p in discover_talks(tmp_path)] == [
        "a",
        "group/b",
    ]


def test_a_talk_is_named_by_its_path_under_inputs(tmp_path):
    inputs = tmp_path / "inputs"
    assert talk_slug(inputs / "a" / "x", inputs) == "a/x"
    assert talk_slug(inputs / "b" / "x", inputs) == "b/x"
    assert talk_slug(tmp_path / "elsewhere" / "x", inputs) == "x"


def test_an_outputs_folder_inside_inputs_is_not_a_talk(tmp_path):
    inputs = tmp_path / "inputs"
    for folder in ("talk", "outputs/talk"):
        (inputs / folder).mkdir(parents=True)
        (inputs / folder / "talk.mp3").write_bytes(b"x")
    assert discover_talks(inputs) == [inputs / "outputs" / "talk", inputs / "talk"]
    assert discover_talks(inputs, inputs / "outputs") == [inputs / "talk"]


def test_a_link_to_a_file_outside_the_folder_is_refused_and_never_read(example_talk, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("title: root:x:0:0:root:/root:/bin/bash\n")
    (example_talk / "talk.yaml").unlink()
    (example_talk / "talk.yaml").symlink_to(secret)
    with pytest.raises(StageFailure) as caught:
        read_talk(example_talk, "t")
    assert caught.value.file.endswith("talk.yaml") and "outside the talk folder" in str(
        caught.value
    )
    assert "root" not in caught.value.message


def test_talk_yaml_sizes_are_bounded_and_values_never_echoed(example_talk):
    (example_talk / "talk.yaml").write_text(
        f"title: {'x' * 400}\nvideo_url: 'javascript:alert(1)'\n"
    )
    with pytest.raises(StageFailure) as caught:
        read_talk(example_talk, "t")
    assert "title" in caught.value.message and "video_url" in caught.value.message
    assert "xxx" not in caught.value.message and "alert" not in caught.value.message
    (example_talk / "talk.yaml").write_text("title: " + "x" * 70_000 + "\n")
    with pytest.raises(StageFailure, match="larger than 64 KB"):
        read_talk(example_talk, "t")


def test_a_title_is_kept_as_written_markup_and_all(example_talk):
    # Text, escaped where a page renders it (tests/site/test_hostile.py), never cut here.
    (example_talk / "talk.yaml").write_text("title: 'vector<int> and <video> tags'\n")
    assert read_talk(example_talk, "t").meta.title == "vector<int> and <video> tags"


def test_an_impossible_date_names_the_file_and_the_field(example_talk):
    (example_talk / "talk.yaml").write_text("date: 2026-13-45\n")
    with pytest.raises(StageFailure) as caught:
        read_talk(example_talk, "t")
    assert caught.value.file == str(example_talk / "talk.yaml")
    assert caught.value.message.startswith("talk.yaml is not valid: date: ")
