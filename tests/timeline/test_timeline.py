import av
import numpy as np
import pytest

from pipeline.deck import read_deck
from pipeline.deck.options import DeckOptions
from pipeline.schema import Segment, Slide, TimelineSpan, Transcript
from pipeline.timeline import build_timeline, fill_gaps, pictures
from pipeline.timeline.frames import frame_matches, frame_path
from pipeline.timeline.options import TimelineOptions
from pipeline.timeline.speech import monotonic_path, text_spans, tokens
from tests.helpers import DATA, EXAMPLE, share_on_right_slide, talk_with, truth_transcript
from tests.videos import share_right, slide_video

OPTS = TimelineOptions()


@pytest.fixture(scope="module")
def example_deck(tmp_path_factory):
    root = tmp_path_factory.mktemp("talk")
    talk = talk_with(EXAMPLE / "talk.mp4", [EXAMPLE / "slides.pptx", EXAMPLE / "slides.pdf"])
    return root, read_deck(talk, DeckOptions(libreoffice=False), root / "slides")


def test_example_video_frames_find_the_slide_on_screen(example_deck):
    root, deck = example_deck
    talk = talk_with(EXAMPLE / "talk.mp4")
    timeline = build_timeline(talk, truth_transcript(), deck, root, OPTS)
    assert {s.method for s in timeline.spans} == {"frame"}
    assert [s.slide for s in timeline.spans] == [1, 2, 3, 4, 5, 6]
    assert share_on_right_slide(timeline.spans) >= 0.95
    assert timeline.frames_sampled > 90 and min(s.confidence for s in timeline.spans) > 0.9


def test_without_video_speech_is_aligned_to_slide_text(example_deck):
    root, deck = example_deck
    timeline = build_timeline(talk_with(DATA / "jfk.flac"), truth_transcript(), deck, root, OPTS)
    assert timeline.frames_sampled == 0 and {s.method for s in timeline.spans} == {"text"}
    assert share_on_right_slide(timeline.spans) >= 0.8
    slides = [s.slide for s in timeline.spans]
    assert slides == sorted(slides)  # talks go forward through the deck


def test_spans_are_in_order_and_do_not_overlap(example_deck):
    root, deck = example_deck
    timeline = build_timeline(talk_with(DATA / "jfk.flac"), truth_transcript(), deck, root, OPTS)
    for before, after in zip(timeline.spans, timeline.spans[1:], strict=False):
        assert before.end <= after.start + 1e-6 and before.start <= before.end


def test_frames_matching_no_slide_leave_a_gap():
    similarity = np.array([[0.99, 0.7], [0.2, 0.1], [0.3, 0.95], [0.6, 0.98]])
    matches = frame_matches(similarity, similarity, [1, 2], OPTS)
    assert matches[1] is None
    assert matches[0] == (1, 0.99) and matches[2][0] == 2


def test_a_single_odd_frame_between_two_of_the_same_slide_is_smoothed():
    similarity = np.array([[0.99, 0.5], [0.5, 0.99], [0.99, 0.5]])
    assert [m[0] for m in frame_matches(similarity, similarity, [1, 2], OPTS)] == [1, 1, 1]


def test_text_alignment_fills_only_the_time_frames_left_open():
    frames = [TimelineSpan(slide=1, start=0, end=10, method="frame", confidence=1)]
    frames.append(TimelineSpan(slide=3, start=20, end=30, method="frame", confidence=1))
    text = [TimelineSpan(slide=2, start=0, end=30, method="text", confidence=0.5)]
    filled = fill_gaps(frames, text)
    assert [(s.slide, s.start, s.end, s.method) for s in filled] == [
        (1, 0, 10, "frame"),
        (2, 10, 20, "text"),
        (3, 20, 30, "frame"),
    ]


def test_monotonic_path_never_goes_back_and_resists_one_off_matches():
    scores = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0.2]], dtype=np.float32)
    assert monotonic_path(scores, 0.5) == [0, 1, 2, 2]
    one_off = np.array([[1, 0, 0], [0, 0.3, 0], [1, 0, 0]], dtype=np.float32)
    assert monotonic_path(one_off, 0.5) == [0, 0, 0]


def test_chinese_text_is_matched_by_character_pairs():
    assert tokens("显存被占满 KV cache") == ["kv", "cache", "显存", "存被", "被占", "占满"]


def test_text_path_handles_chinese_slides():
    slides = [
        Slide(index=1, title="问题：KV 缓存占满显存", text="预留最大长度浪费六到八成"),
        Slide(index=2, title="分页注意力", text="固定大小的块，按需分配"),
        Slide(index=3, title="前缀缓存", text="相同的系统提示共享块"),
    ]
    spoken = [
        (0, 5, "今天讲显存为什么被 KV 缓存占满。"),
        (5, 9, "预留最大长度会浪费很多。"),
        (9, 14, "分页注意力把缓存切成固定大小的块。"),
        (14, 18, "块是按需分配的。"),
        (18, 23, "前缀缓存让相同的系统提示共享块。"),
    ]
    transcript = Transcript(
        language="zh",
        duration=23,
        segments=[Segment(start=a, end=b, text=t) for a, b, t in spoken],
    )
    spans = text_spans(transcript, slides, OPTS)
    assert [(s.slide, s.start) for s in spans] == [(1, 0.0), (2, 9), (3, 18)]


def test_unreadable_video_frames_fall_back_to_text_with_a_warning(example_deck, monkeypatch):
    def broken(*_args, **_kwargs):
        raise av.InvalidDataError(1094995529, "Invalid data found when processing input")

    monkeypatch.setattr(pictures, "sample_frames", broken)
    root, deck = example_deck
    timeline = build_timeline(talk_with(EXAMPLE / "talk.mp4"), truth_transcript(), deck, root, OPTS)
    assert "talk.mp4: video frames unreadable" in timeline.warnings[0]
    assert {s.method for s in timeline.spans} == {"text"}


def test_slides_beside_the_speaker_are_found_in_a_real_deck(tmp_path):
    """A real deck of one template with animation builds, shown at 75% size beside a
    camera box, with full-frame camera shots between: the layout is found, the camera
    matches no slide, and every slide is placed."""
    source = DATA / "sglang-router.pdf"
    deck = read_deck(talk_with(source, [source]), DeckOptions(libreoffice=False), tmp_path / "s")
    shown = deck.slides[8:16]  # "Constructing/Evicting Approximate Tree": builds of one picture
    truth = slide_video(tmp_path / "v.mp4", [tmp_path / s.thumbnail for s in shown], 4.0, 2, True)
    spans, sampled = frame_path(tmp_path / "v.mp4", shown, tmp_path, truth[-1][2], OPTS)
    truth = [(shown[n - 1].index, start, end) for n, start, end in truth]
    assert share_right(truth, spans) >= 0.9
    gaps = zip(truth, truth[1:], strict=False)
    cameras = [(end, start) for (_, _, end), (_, start, _) in gaps if start > end]
    assert cameras  # the camera shots: no slide span may cover one
    assert not any(s.start < b and s.end > a + 1 for a, b in cameras for s in spans)
