from pipeline.article.typeset import typeset_text
from pipeline.core.grounding import wrong_language_sentences
from pipeline.core.text import (
    CHINESE_PROSE_SHARE,
    cjk_share,
    clock,
    command_spans,
    plain_text,
)


def test_chinese_share_counts_latin_terms_as_words():
    assert cjk_share("vLLM 使用 PagedAttention 管理 KV cache 的显存。") >= CHINESE_PROSE_SHARE
    assert cjk_share("The KV cache holds 缓存 entries for every token.") < CHINESE_PROSE_SHARE
    assert cjk_share("") == 0.0


def test_clock_for_citations_ids_and_subtitles():
    assert clock(75.9) == "01:15"
    assert clock(3725) == "1:02:05"
    assert clock(75.9, hours=True) == "00:01:15"
    assert clock(3723.456, hours=True, millis=",") == "01:02:03,456"
    assert clock(0.9996, hours=True, millis=".") == "00:00:01.000"


def test_markup_is_removed_but_angle_brackets_of_code_and_maths_stay():
    assert plain_text("<i>italic</i> cue<br/>") == "italic cue"
    assert plain_text("<svg/onload=alert(1)>x<SCRIPT src=y>alert(2)</SCRIPT>") == "x"
    assert plain_text("latency < 5 ms, vector<int>, a<b") == ("latency < 5 ms, vector<int>, a<b")


COMMAND = "python3 -m sglang.launch_server --model deepseek-ai/DeepSeek-V2 --tp 8"


def test_a_command_line_is_code_in_either_language():
    chinese = f"启动服务：{COMMAND} --trust-remote-code。然后 make 一下。"
    [(start, end)] = command_spans(chinese)  # "make" alone has no flag: no command
    assert chinese[start:end] == COMMAND + " --trust-remote-code"
    assert wrong_language_sentences(chinese, "zh") == []  # code, not an English sentence
    assert f"：`{COMMAND} --trust-remote-code`。" in typeset_text(chinese, "zh")
    english = f"Launch it with {COMMAND}. Then it serves."
    assert typeset_text(english, "en") == f"Launch it with `{COMMAND}`. Then it serves."
