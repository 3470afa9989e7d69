from pipeline.core.terminology import (
    guide,
    missing_forms,
    terms,
    violations,
    with_chinese_forms,
    with_house_forms,
    wrong_forms,
)

EN = (
    "The model worker returns the next token ids while the GPU runs, hiding the CPU "
    "overhead; at batch size 256 and input length 4096 throughput rises."
)
WORD_BY_WORD = (
    "模型工人在 GPU 运行时返回下一个令牌 ID，隐藏 CPU 垂直开销；"
    "批大小 256、输入链路 4096 时吞吐量上升。"
)
WRITTEN = (
    "model worker 在 GPU 运行时返回下一个 token 的 ID，隐藏 CPU 开销；"
    "批大小为 256、输入长度为 4096 时，吞吐量上升。"
)


def test_the_terminology_has_hundreds_of_consistent_entries():
    entries = terms()
    assert len(entries) >= 200
    right = {form for t in entries for form in t.forms()}
    wrong = {bad for t in entries for bad in t.never}
    assert not right & wrong  # no form is both right for one term and wrong for another
    assert len({t.en.lower() for t in entries}) == len(entries)


def test_word_by_word_chinese_is_found_and_written_chinese_passes():
    found = violations(WORD_BY_WORD, EN)
    assert any("'令牌' is not how 'token' is written" in f for f in found)
    assert any("'垂直开销'" in f for f in found)
    assert any("'input length' is written '输入长度'" in f for f in found)
    assert violations(WRITTEN, EN) == []


def test_a_chinese_text_alone_is_held_to_the_forms_it_never_uses():
    assert wrong_forms("每个令牌都要算注意力。") and not wrong_forms("每个 token 都要算注意力。")
    assert missing_forms("每个 token 都要算注意力。", "Every token needs attention.") == []


def test_the_translator_is_told_the_forms_both_ways():
    assert "overhead → 开销" in guide(EN, "zh") and "token → token" in guide(EN, "zh")
    assert "吞吐量 → throughput" in guide(WRITTEN, "en")
    assert guide("Thank you.", "zh") == ""  # nothing to say: the prompt leaves the line out


def test_word_by_word_forms_are_replaced_by_the_house_forms():
    fixed, made = with_house_forms(WORD_BY_WORD)
    assert "令牌" not in fixed and "垂直开销" not in fixed and "输入链路" not in fixed
    assert "CPU 开销" in fixed and "输入长度" in fixed
    assert "令牌 -> token" in made
    assert wrong_forms(fixed) == []


def test_chinese_writes_an_english_plural_of_capitals_singular():
    fixed, made = with_house_forms("服务 LLMs 需要 8 个GPUs，而 Outlines 和 H100s 不变。")
    assert fixed == "服务 LLM 需要 8 个GPU，而 Outlines 和 H100 不变。"
    assert made == ["LLMs -> LLM", "GPUs -> GPU", "H100s -> H100"]
    assert with_house_forms("Serving LLMs.") == ("Serving LLMs.", [])  # English as written
    kept = "见 github.com/org/LLMs/tree 和 NUM_GPUs=8。"  # an address, an identifier
    assert with_house_forms(kept) == (kept, [])


def test_an_english_word_left_for_a_chinese_only_term_takes_its_chinese_form():
    fixed, made = with_chinese_forms("KV-cache paging 让 throughput 提高了。")
    assert fixed == "KV-cache 分页让吞吐量提高了。"
    assert made == ["paging -> 分页", "throughput -> 吞吐量"]
    assert missing_forms(fixed, "KV-cache paging raises throughput.") == []


def test_a_word_inside_a_term_kept_in_latin_or_a_talk_s_name_stays():
    kept = "这是一个 pull request，用 Smart Prefetching 隐藏延迟。"
    assert with_chinese_forms(kept, ["Smart Prefetching"]) == (kept, [])
    assert with_chinese_forms("Paging keeps the GPU busy.") == ("Paging keeps the GPU busy.", [])


def test_a_term_said_only_inside_a_longer_one_is_written_by_writing_that_one():
    source = "Serving LLMs without wasting GPU memory."
    assert missing_forms("不浪费显存地服务 LLM。", source) == []
    alone = "Serving LLMs on a GPU without wasting GPU memory."
    assert missing_forms("不浪费显存地服务 LLM。", alone) == ["'GPU' is written 'GPU'"]


def test_a_longer_chinese_only_term_is_replaced_whole_not_its_last_word():
    assert with_chinese_forms("看 tail latency。")[0] == "看尾延迟。"
