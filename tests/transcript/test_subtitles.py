import json

import pytest

from pipeline.core.errors import StageFailure
from pipeline.schema import Segment, Transcript
from pipeline.talk import read_talk
from pipeline.transcript.subtitles import read_subtitles, to_srt, to_vtt
from tests.helpers import DATA

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


def test_a_suffix_the_table_gives_no_subtitle_reader_is_refused_not_read_as_vtt(tmp_path):
    (path := tmp_path / "talk.txt").write_text("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n")
    with pytest.raises(StageFailure) as caught:
        read_subtitles(path, "en")
    assert caught.value.file == str(path)
    assert (
        caught.value.message == "'.txt' is not read as subtitles; expected .srt, .vtt, .json, .bcc"
    )


def test_the_suffix_chooses_the_reader_in_any_case(tmp_path):
    (path := tmp_path / "TALK.SRT").write_text(SRT.replace("1\n", "", 1))  # no cue number
    transcript = read_subtitles(path, "en")
    assert transcript.segments[0].text == "KV cache paging keeps memory busy."
    assert "read by its timing lines" in transcript.warnings[0]  # the SRT reader's repair


def test_ingest_picks_up_a_subtitle_file(example_talk):
    (example_talk / "talk.srt").write_text(SRT)
    assert read_talk(example_talk, "t").subtitles == example_talk / "talk.srt"


DISORDERED_SRT = """2
00:00:15,000 --> 00:00:20,000
Said at fifteen.

1
00:00:00,000 --> 00:00:05,000
The talk's first sentence.

3
00:00:10,000 --> 00:00:04,000
Inverted.
"""


def test_disordered_srt_is_sorted_repaired_and_reported(tmp_path):
    (path := tmp_path / "talk.srt").write_text(DISORDERED_SRT)
    transcript = read_subtitles(path, "en")
    assert transcript.segments[0].text == "The talk's first sentence."
    assert transcript.segments[0].start == 0.0
    assert all(s.end > s.start for s in transcript.segments)
    assert transcript.duration == 20.0  # the last end, not the last cue's in the file
    assert "-->" not in to_srt(transcript).replace(" --> ", "")
    assert "00:00:10,000 --> 00:00:04,000" not in to_srt(transcript)
    assert len(transcript.warnings) == 2


def test_cues_after_the_recording_are_dropped(tmp_path):
    # jfk.flac is 11 s long; a cue at 1:00:00 is not of this recording.
    srt = SRT.replace("00:01:02,250 --> 00:01:04,000", "01:00:00,000 --> 01:00:02,000")
    (path := tmp_path / "talk.srt").write_text(srt)
    transcript = read_subtitles(path, "en", DATA / "jfk.flac")
    assert [s.text for s in transcript.segments] == ["KV cache paging keeps memory busy."]
    assert transcript.duration == pytest.approx(11.0, abs=0.1)
    assert "cue(s) 2 started after the recording ends" in transcript.warnings[0]


def test_an_unreadable_recording_beside_subtitles_is_a_warning(tmp_path):
    (path := tmp_path / "talk.srt").write_text(SRT)
    (video := tmp_path / "talk.mp4").write_bytes(b"not a video")
    transcript = read_subtitles(path, "en", video)
    assert len(transcript.segments) == 2
    assert "talk.mp4" in transcript.warnings[0] and "without it" in transcript.warnings[0]


def test_markup_in_cue_text_is_cleaned_before_webvtt_strips_it(tmp_path):
    vtt = (
        "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n"
        "<script>alert(1)</script>A <b>vector&lt;int&gt;</b> holds ids\n\n"
        "00:00:03.000 --> 00:00:05.000\n<style>p {}</style>when a < b\n"
    )
    (path := tmp_path / "talk.vtt").write_text(vtt)
    assert [s.text for s in read_subtitles(path, None).segments] == [
        "A vector<int> holds ids",
        "when a < b",
    ]
    (srt := tmp_path / "talk.srt").write_text(SRT.replace("KV cache", "vector<int> cache"))
    assert read_subtitles(srt, None).segments[0].text.startswith("vector<int> cache")


def test_gbk_subtitles_are_read_and_their_encoding_recorded(tmp_path):
    srt = (
        "1\n00:00:01,000 --> 00:00:03,000\n大家好，今天我们讲推理框架的总体情况\n\n"
        "2\n00:00:03,000 --> 00:00:06,000\n首先看显存怎么管理，然后看调度\n"
    )
    (path := tmp_path / "talk.srt").write_bytes(srt.encode("gbk"))
    transcript = read_subtitles(path, None)
    assert transcript.encoding == "gb18030" and transcript.language == "zh"
    assert transcript.segments[1].text == "首先看显存怎么管理，然后看调度"
    assert "decoded as gb18030" in transcript.warnings[0]


def test_traditional_chinese_subtitles_come_out_simplified(tmp_path):
    srt = (
        "1\n00:00:01,000 --> 00:00:03,000\n這個框架的調度器負責記憶體管理與批次處理\n\n"
        "2\n00:00:03,000 --> 00:00:06,000\n首先看顯存怎麼管理，然後看調度\n"
    )
    (path := tmp_path / "talk.srt").write_bytes(srt.encode("big5"))
    transcript = read_subtitles(path, None)
    assert transcript.encoding == "big5"
    assert transcript.segments[0].text == "这个框架的调度器负责记忆体管理与批次处理"


def test_youtube_auto_captions_become_clean_segments(tmp_path):
    vtt = """WEBVTT
Kind: captions
Language: en

00:00:00.000 --> 00:00:02.350 align:start position:0%

so<00:00:00.320><c> today</c><00:00:00.640><c> we're</c><00:00:00.880><c> going</c>

00:00:02.350 --> 00:00:02.360 align:start position:0%
so today we're going


00:00:02.360 --> 00:00:05.000 align:start position:0%
so today we're going
to<00:00:02.600><c> talk</c><00:00:03.000><c> about</c><00:00:03.500><c> batching</c>

00:00:05.000 --> 00:00:05.010 align:start position:0%
to talk about batching


00:00:05.010 --> 00:00:08.000 align:start position:0%
to talk about batching
and<00:00:05.300><c> paged</c><00:00:05.800><c> attention</c>
"""
    (path := tmp_path / "talk.en.vtt").write_text(vtt)
    transcript = read_subtitles(path, None)
    assert transcript.language == "en"  # from the VTT header
    assert [s.text for s in transcript.segments] == [
        "so today we're going",
        "to talk about batching",
        "and paged attention",
    ]
    assert [(w.text, w.start) for w in transcript.segments[2].words] == [
        ("and", 5.01),
        ("paged", 5.3),
        ("attention", 5.8),
    ]


def test_bilibili_bcc_json_is_read_as_subtitles(tmp_path):
    bcc = {
        "font_size": 0.4,
        "background_alpha": 0.5,
        "Stroke": "none",
        "body": [
            {"from": 0.5, "to": 2.0, "sid": 1, "location": 2, "content": "大家好，今天讲推理框架"},
            {"from": 2.0, "to": 4.5, "sid": 2, "location": 2, "content": "首先看 KV cache 的管理"},
        ],
    }
    (path := tmp_path / "talk.json").write_text(json.dumps(bcc, ensure_ascii=False))
    assert read_talk(tmp_path, "t").subtitles == path
    transcript = read_subtitles(path, None)
    assert [(s.start, s.end) for s in transcript.segments] == [(0.5, 2.0), (2.0, 4.5)]
    assert transcript.language == "zh" and transcript.duration == 4.5


def test_json_that_is_not_bcc_is_a_clear_error(tmp_path):
    (path := tmp_path / "talk.json").write_text('{"events": []}')
    with pytest.raises(StageFailure, match="not Bilibili subtitles"):
        read_subtitles(path, None)


def test_srt_without_cue_numbers_is_read_by_its_timing_lines(tmp_path):
    srt = (
        "00:00:00,500 --> 00:00:05,000\nFirst line.\n"
        "00:00:05,500 --> 00:00:10,500\nThe answer is\n42\n\n"
        "7\n00:00:11,000 --> 00:00:12,000\nLast.\n"
    )
    (path := tmp_path / "talk.srt").write_text(srt)
    transcript = read_subtitles(path, "en")
    assert [s.text for s in transcript.segments] == ["First line.", "The answer is 42", "Last."]
    assert "read by its timing lines" in transcript.warnings[0]


def test_an_empty_subtitle_file_says_so(tmp_path):
    (path := tmp_path / "talk.srt").write_bytes(b"\xef\xbb\xbf\n")
    with pytest.raises(StageFailure, match="the subtitle file is empty"):
        read_subtitles(path, None)


def bilingual_bcc(tmp_path):
    lines = [
        ("我们把显存分成固定大小的块", "We split GPU memory into fixed-size blocks"),
        ("每个块存十六个 token", "Each block holds sixteen tokens"),
    ]
    body = [
        {"from": 3.0 * i, "to": 3.0 * i + 3, "content": f"{zh}\n{en}"}
        for i, (zh, en) in enumerate(lines)
    ]
    (path := tmp_path / "talk.json").write_text(json.dumps({"body": body}, ensure_ascii=False))
    return path


def test_bilingual_cues_keep_the_talks_language(tmp_path):
    path = bilingual_bcc(tmp_path)
    chinese = read_subtitles(path, "zh")
    assert [s.text for s in chinese.segments] == [
        "我们把显存分成固定大小的块",
        "每个块存十六个 token",
    ]
    english = read_subtitles(path, "en")
    assert english.segments[1].text == "Each block holds sixteen tokens"
    unknown = read_subtitles(path, None)
    assert "two languages" in unknown.warnings[0]
    assert "GPU memory" in unknown.segments[0].text  # both kept without a language


def test_bcc_times_before_zero_or_inverted_are_repaired(tmp_path):
    body = [
        {"from": 3.0, "to": 1.0, "content": "倒过来的字幕"},
        {"from": -1, "to": 2, "content": "负的时间"},
    ]
    (path := tmp_path / "talk.bcc").write_text(json.dumps({"body": body}, ensure_ascii=False))
    transcript = read_subtitles(path, None)
    assert [(s.start, s.text) for s in transcript.segments] == [
        (0.0, "负的时间"),
        (3.0, "倒过来的字幕"),
    ]
    assert all(s.end > s.start for s in transcript.segments)
