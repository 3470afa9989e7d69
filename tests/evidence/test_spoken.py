from pipeline.evidence import build_evidence
from pipeline.evidence.options import EvidenceOptions
from pipeline.evidence.spoken import is_credits, is_recording_talk, without_fillers
from pipeline.schema import Segment, Transcript
from pipeline.transcript.punctuate import joint


def test_credits_and_fillers_are_not_content():
    assert is_credits("讲解/录制:王小明，剪辑/字幕:李华")
    assert is_credits("Subtitles by the community")
    assert not is_credits("我们先看字幕里的时间戳怎么对齐")  # the word alone is content
    assert without_fillers("嗯 我们先看调度器") == "我们先看调度器"
    assert without_fillers("哎呀这张图画得不太清楚") == "这张图画得不太清楚"
    assert without_fillers("嗯……啊") == ""
    assert without_fillers("啊这个问题") == "这个问题"
    assert without_fillers("Hello everyone, today I explain paging.") == "today I explain paging."
    assert without_fillers("大家好，我们来看推理框架") == "我们来看推理框架"
    assert without_fillers("hierarchical caching") == "hierarchical caching"  # "hi" is no word
    assert without_fillers("大家好像都用 vLLM") == "大家好像都用 vLLM"  # 好像: not a greeting


def test_spoken_chinese_clause_openers_and_particles_are_left_out():
    assert without_fillers("那这几个，其实都是开源的") == "这几个，都是开源的"
    assert without_fillers("那说实话，这一期讲 TGI啦，另外的话还有 vLLM") == (
        "这一期讲 TGI，另外还有 vLLM"
    )
    # "那" that points at something, and a condition's "的话", are words
    for said in ("那就是 TGI", "那些框架都开源", "那个调度器", "如果显存不够的话，就换出"):
        assert without_fillers(said) == said
    assert without_fillers("So that is it.") == "So that is it."


def test_talk_about_the_recording_is_not_content():
    for aside in (
        "这节课我录了三遍真不容易",
        "录个视频太难了",
        "这段讲得太快又NG了",
        "NG 了好多次",
        "这期内容有点水，看着图个乐",
        "觉得有用的话记得点赞",
        "欢迎大家在评论区指正",
        "please like and subscribe",
    ):
        assert is_recording_talk(aside), aside
    for content in (
        "我们录制一个 trace 看看调度",
        "我们要关注一下尾延迟",
        "它用的是发布订阅模式",
        "本期视频我们讲 KV cache",
        "PagedAttention 用 block table 管理显存",
        "这个 kernel 的 ping-pong 调度",
    ):
        assert not is_recording_talk(content), content


def test_unpunctuated_cues_are_joined_by_their_pauses():
    assert joint("我们先看调度器", "然后看显存", 0.1) == "，"
    assert joint("我们先看调度器", "然后看显存", 1.2) == "。"
    assert joint("我们先看 vLLM", "然后看显存", 0.1) is None  # a Latin end keeps its space
    assert joint("我们先看调度器。", "然后看显存", 0.1) is None


def test_a_chinese_lecture_becomes_punctuated_speech_without_credits():
    cues = [
        (0.0, 1.8, "讲解/录制:王小明，剪辑/字幕:李华"),
        (2.0, 4.0, "嗯 大家好我们来看推理框架"),
        (4.0, 6.0, "先看整体的架构"),
        (6.0, 6.5, "哎这段又NG了"),
        (7.5, 9.0, "再看 KV cache 怎么管理"),
    ]
    segments = [Segment(start=a, end=b, text=t) for a, b, t in cues]
    transcript = Transcript(source="subtitles", language="zh", duration=9.0, segments=segments)
    [unit] = build_evidence(transcript, None, None, [], EvidenceOptions()).units
    assert unit.text == "我们来看推理框架，先看整体的架构。再看 KV cache 怎么管理"
    assert unit.start == 2.0
