"""Cues from the wild: order, broken ends, overlaps, markup, rolling auto-captions."""

from pipeline.transcript.cues import clean_line, make_cue, segments_of, timed_words


def cue(number, start, end, *lines):
    return make_cue(number, start, end, list(lines))


def test_markup_is_removed_before_any_library_strips_it():
    assert clean_line("First <script>alert(1)</script>point") == "First point"
    assert clean_line("<style>p {color: red}</style>styled") == "styled"
    assert clean_line("vector<int> and a < b, <i>said</i>") == "vector<int> and a < b, said"
    assert clean_line("{\\an8}<font color='#fff'>top</font> &amp; bottom") == "top & bottom"
    assert clean_line("<v Ada>Hello</v> <c.yellow>there</c>") == "Hello there"


def test_cues_are_sorted_and_inverted_ends_fixed_with_warnings():
    cues = [
        cue(1, 15.0, 20.0, "Said at fifteen."),
        cue(2, 0.0, 5.0, "Said first."),
        cue(3, 10.0, 4.0, "Inverted end."),
    ]
    segments, warnings = segments_of(cues, None)
    assert [s.text for s in segments] == ["Said first.", "Inverted end.", "Said at fifteen."]
    assert all(s.end > s.start for s in segments)
    assert segments[1].end <= 15.0  # never past the next cue
    assert any("cue(s) 2 started before" in w for w in warnings)
    assert any("cue(s) 3 ended at or before their start" in w for w in warnings)


def test_overlaps_are_cut_and_equal_starts_merged():
    cues = [
        cue(1, 0.0, 6.0, "One."),
        cue(2, 4.0, 8.0, "Two."),
        cue(3, 4.0, 9.0, "Two, continued."),
    ]
    segments, warnings = segments_of(cues, None)
    assert [(s.start, s.end, s.text) for s in segments] == [
        (0.0, 4.0, "One."),
        (4.0, 9.0, "Two. Two, continued."),
    ]
    assert any("1 overlapped the next cue" in w for w in warnings)
    assert any("3 started with the cue before; merged" in w for w in warnings)


def test_cues_after_the_recording_are_dropped_and_ends_cut():
    cues = [cue(1, 0.0, 5.0, "In."), cue(2, 58.0, 64.0, "Last."), cue(3, 3600.0, 3602.0, "Typo.")]
    segments, warnings = segments_of(cues, 62.0)
    assert [(s.text, s.end) for s in segments] == [("In.", 5.0), ("Last.", 62.0)]
    assert any("3 started after the recording ends (01:02); dropped" in w for w in warnings)


def test_clean_subtitles_need_no_repair():
    cues = [cue(1, 0.0, 2.0, "Yes."), cue(2, 2.0, 3.0, "Yes."), cue(3, 3.0, 5.0, "Next.")]
    segments, warnings = segments_of(cues, None)
    assert [s.text for s in segments] == ["Yes.", "Yes.", "Next."] and warnings == []


def test_inline_timestamps_time_each_word():
    words = timed_words("so<00:00:01.500><c> today</c><00:00:02.000><c> we</c>", 1.0, 3.0)
    assert [(w.start, w.end, w.text) for w in words] == [
        (1.0, 1.5, "so"),
        (1.5, 2.0, "today"),
        (2.0, 3.0, "we"),
    ]


def test_rolling_auto_captions_keep_each_line_once_with_word_times():
    # YouTube's auto-captions: each cue repeats the line before and times its new words;
    # 10 ms cues between them hold only the finished line.
    cues = [
        cue(1, 0.0, 2.35, " ", "so<00:00:00.320><c> today</c><00:00:00.640><c> we</c>"),
        cue(2, 2.35, 2.36, "so today we", " "),
        cue(3, 2.36, 5.0, "so today we", "talk<00:00:03.000><c> about</c><00:00:03.500><c> KV</c>"),
        cue(4, 5.0, 5.01, "talk about KV", " "),
        cue(5, 5.01, 8.0, "talk about KV", "cache<00:00:05.500><c> paging</c>"),
    ]
    segments, warnings = segments_of(cues, None)
    assert [s.text for s in segments] == ["so today we", "talk about KV", "cache paging"]
    assert [w.start for w in segments[1].words] == [2.36, 3.0, 3.5]
    assert warnings == ["rolling auto-captions: 5 cues unrolled into 3, each line kept once"]


def test_cumulative_rolling_cues_keep_what_each_adds():
    cues = [
        cue(1, 0.0, 1.0, "we batch"),
        cue(2, 1.0, 2.0, "we batch requests"),
        cue(3, 2.0, 3.0, "we batch requests by length"),
        cue(4, 3.0, 4.0, "we batch requests by length and wait"),
    ]
    segments, _ = segments_of(cues, None)
    assert [s.text for s in segments] == ["we batch", "requests", "by length", "and wait"]
