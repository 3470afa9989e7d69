"""Unpunctuated Chinese subtitles get the model's commas and full stops, never its words."""

import json

import httpx
import pytest

from pipeline.core.prompts import load_prompt
from pipeline.llm.client import EndpointError
from pipeline.schema import Segment, Transcript
from pipeline.transcript.punctuate import carried_marks, punctuate, runs, unpunctuated
from tests.llm_double import scripted_llm

PROMPT = load_prompt("punctuate_zh")
CUES = ["我们先看一下这个框架的性能", "然后做一个总结这个框架", "是开源的"]


def subtitles(*cues: str, source: str = "subtitles") -> Transcript:
    segments = [Segment(start=2.0 * n, end=2.0 * n + 2, text=c) for n, c in enumerate(cues)]
    return Transcript(language="zh", duration=6.0, segments=segments, source=source)


def reply(text: str) -> str:
    return json.dumps({"text": text}, ensure_ascii=False)


def test_the_models_marks_land_on_the_cues_and_a_word_it_changed_does_not():
    # the model wrote 那个 for 这个 and dropped nothing else: only its marks are kept
    llm, endpoint = scripted_llm(
        [reply("我们先看一下那个框架的性能，然后做一个总结。这个框架是开源的。")]
    )
    done = punctuate(subtitles(*CUES), llm, PROMPT)
    assert [s.text for s in done.segments] == [
        "我们先看一下这个框架的性能，",
        "然后做一个总结。这个框架",
        "是开源的",  # the run's end is where it was cut: a pause, not the model, decides
    ]
    assert done.punctuated and not done.fallbacks
    assert "".join(CUES) in endpoint.user_messages()[0]


def test_half_width_marks_count_and_a_number_keeps_its_point():
    text = "吞吐提升了2.5倍然后延迟降低"
    assert carried_marks(text, "吞吐提升了2.5倍,然后延迟降低.") == {8: "，", 14: "。"}


def test_an_answer_that_rewrites_the_cues_leaves_them_to_their_pauses_and_says_so():
    assert carried_marks("".join(CUES), "这是完全不同的一句话。") == {}
    llm, _ = scripted_llm([reply("框架很快。")])
    done = punctuate(subtitles(*CUES), llm, PROMPT)
    assert [s.text for s in done.segments] == [CUES[0] + "，", CUES[1] + "，", CUES[2]]
    assert done.fallbacks == [
        "transcript 00:00–00:06: punctuated at pauses (the model's answer did not keep the cues)"
    ]


def test_cues_are_sent_in_runs_of_whole_cues():
    cues = ["一" * 100, "二" * 50, "三" * 20, "四" * 200]
    assert runs(subtitles(*cues).segments) == [[0, 1], [2], [3]]


def test_punctuated_subtitles_and_recognised_speech_are_not_asked_about():
    llm, endpoint = scripted_llm([])
    written = subtitles("我们先看性能。", "然后做总结，", "它是开源的。")
    assert not unpunctuated(written) and punctuate(written, llm, PROMPT) == written
    assert not unpunctuated(subtitles(*CUES, source="asr"))
    japanese = subtitles(*CUES).model_copy(update={"language": "ja"})
    assert not unpunctuated(japanese)
    assert not endpoint.requests


def test_an_outage_fails_the_stage():
    llm, _ = scripted_llm(lambda body: httpx.Response(503), max_retries=1)
    with pytest.raises(EndpointError):
        punctuate(subtitles(*CUES), llm, PROMPT)
