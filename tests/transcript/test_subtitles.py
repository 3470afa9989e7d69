import pytest

from pipeline.errors import StageFailure
from pipeline.schema import Segment, Transcript
from pipeline.talk import read_talk
from pipeline.transcript.subtitles import read_subtitles, to_srt, to_vtt

SRT = """1
00:00:01,000 --> 00:00:03,500
KV cache paging
keeps memory busy.

2
00:01:02,250 --> 00:01:04,000
Thank you.
"""


def test_srt_becomes_a_transcript_with_exact_times(tmp_path):
    (path := tmp_path / "talk.srt").write_text(SRT)
    transcript = read_subtitles(path, "en")
    assert transcript.source == "subtitles" and transcript.language == "en"
    assert [(s.start, s.end, s.text) for s in transcript.segments] == [
        (1.0, 3.5, "KV cache paging keeps memory busy."),
        (62.25, 64.0, "Thank you."),
    ]


def test_vtt_round_trip(tmp_path):
    (path := tmp_path / "talk.srt").write_text(SRT)
    (vtt := tmp_path / "talk.vtt").write_text(to_vtt(read_subtitles(path, None)))
    again = read_subtitles(vtt, None)
    assert [s.start for s in again.segments] == [1.0, 62.25] and again.language == "unknown"


def test_writers_use_the_standard_time_formats():
    transcript = Transcript(
        language="en",
        duration=5,
        segments=[Segment(start=3723.456, end=3724.0, text="hi")],
    )
    assert to_srt(transcript).startswith("1\n01:02:03,456 --> 01:02:04,000\nhi\n")
    assert to_vtt(transcript).startswith("WEBVTT\n\n01:02:03.456 --> 01:02:04.000\nhi\n")


def test_broken_subtitles_name_the_file(tmp_path):
    (path := tmp_path / "talk.vtt").write_text("not a subtitle file")
    with pytest.raises(StageFailure) as caught:
        read_subtitles(path, None)
    assert caught.value.file == str(path)


def test_ingest_picks_up_a_subtitle_file(example_talk):
    (example_talk / "talk.srt").write_text(SRT)
    assert read_talk(example_talk, "t").subtitles == example_talk / "talk.srt"
