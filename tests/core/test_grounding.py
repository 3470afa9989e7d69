from pathlib import Path

import yaml

from pipeline.core.grounding import (
    MIN_SUPPORT,
    invented_numbers,
    is_echo,
    is_fragment,
    mentions,
    missing_numbers,
    pair_support,
    prompt_lines,
    split_sentences,
    support,
    wrong_language_sentences,
)
from pipeline.core.prompts import REVISE_NOTE, load_prompt

UNIT = (
    "PagedAttention stores the KV cache in fixed-size blocks of 16 tokens, allocated only "
    "when a sequence needs them. Waste drops to under 4 percent."
)


def test_a_paraphrase_is_supported_and_an_added_benefit_is_not():
    assert support("The KV cache is stored in blocks of 16 tokens.", UNIT) >= 0.5
    added = "This lets AI systems answer complex queries faster for every user."
    assert support(added, UNIT) < MIN_SUPPORT


def test_support_in_chinese_uses_character_pairs():
    source = "预填充阶段是计算密集型的，解码阶段是访存密集型的。"
    assert support("解码阶段受访存限制，而预填充阶段是计算密集型。", source) >= 0.5
    assert support("推荐系统可以用于文本分类。", source) < 0.5


def test_chinese_said_in_other_words_is_supported_and_an_invented_claim_is_not():
    cases = yaml.safe_load((Path(__file__).parents[1] / "data" / "zh_support.yaml").read_text())

    def passing(measure, kind: str) -> int:
        pairs = [(s, case["said"]) for case in cases for s in case[kind]]
        return sum(measure(*pair) >= MIN_SUPPORT for pair in pairs)

    assert passing(support, "invented") == 0
    # character pairs alone reject most rephrasings; words let most of them through
    assert passing(pair_support, "rephrased") <= 12 < 18 <= passing(support, "rephrased")


def test_an_invented_or_rounded_number_is_found():
    assert invented_numbers("Waste drops below 4 percent in 16-token blocks.", UNIT) == []
    assert invented_numbers("Waste drops to 3.5 percent.", UNIT) == ["3.5"]


def test_a_year_said_short_in_chinese_is_the_same_year_written_out():
    assert invented_numbers("Paged KV caches spread in 2024.", "分页的KV缓存到24年才普及") == []
    assert invented_numbers("They spread in 2025.", "分页的KV缓存到24年才普及") == ["2025"]
    assert missing_numbers("24", "They spread in 2024.") == []
    assert missing_numbers("2024", "到24年才普及") == []
    assert missing_numbers("24", "24 GB of memory") == []
    assert missing_numbers("24", "in 2023") == ["24"]


def test_a_month_named_in_a_date_is_its_number_in_a_translation():
    assert missing_numbers("2025 5", "In May 2025, one node served 52.3k tokens/s.") == []
    assert missing_numbers("9", "v0.3 (Sept. 2024)") == []
    assert missing_numbers("1", "released in January") == []
    assert invented_numbers("2025年5月发布", "It was released in May 2025.") == []
    # "May" as a verb, or a word that starts like a month, is no date
    assert missing_numbers("5", "May I ask how fast it is?") == ["5"]
    assert missing_numbers("3", "Marching 2 steps ahead") == ["3"]


def test_prompt_lines_and_the_revise_note_are_echoes():
    lines = prompt_lines([load_prompt("rewrite_facts_en")])
    assert is_echo("The sentence states only what the item states: keep every number", lines)
    assert is_echo(REVISE_NOTE.format(findings="x") + " Blocks hold 16 tokens.", lines)
    assert not is_echo("Blocks hold 16 tokens each, so memory is handed out in pieces.", lines)


def test_a_chinese_prompt_line_said_back_is_an_echo_though_it_is_short_in_letters():
    lines = prompt_lines([load_prompt("translate_sentences_zh")])
    said_back = '把下面这一句翻译成简体中文：{ "name": "John Doe", "age": 30 }。'
    assert is_echo(said_back, lines)
    assert not is_echo("把缓存分成固定大小的块，按需分配给每个请求。", lines)


def test_sentences_in_the_wrong_language():
    english = "Blocks hold 16 tokens. 块大小是 16 个 token。"
    assert wrong_language_sentences(english, "en") == ["块大小是 16 个 token。"]
    chinese = "KV cache 被切分成块。The cache is split into blocks of sixteen tokens each."
    wrong = wrong_language_sentences(chinese, "zh", ["KV cache"])
    assert wrong == ["The cache is split into blocks of sixteen tokens each."]
    assert wrong_language_sentences("PagedAttention 把 KV cache 存进固定大小的块。", "zh") == []


def test_a_title_cut_out_of_a_longer_line_is_a_fragment():
    lines = ["A 13B model needs about 800 KB of KV cache for every B32 token"]
    assert is_fragment("KV cache for every B32", lines)
    assert not is_fragment("A 13B model needs about 800 KB of KV cache for every B32 token", lines)
    assert not is_fragment("KV cache", lines)  # a term is not a fragment
    assert not is_fragment("Why reserving memory wastes it", lines)
    # a slide title's part is whole, though an agenda slide lists it inside a longer line
    deck = [
        "Review: DeepSeek V3 Optimization and Large-Scale Deployment",
        "2025 Highlight: DeepSeek V3 Optimization",
    ]
    assert not is_fragment("DeepSeek V3 Optimization", deck)
    assert is_fragment("V3 Optimization and Large-Scale", deck)
    assert not is_fragment("2025 Highlight: DeepSeek V3 Optimization", deck)  # a whole line


def test_small_numbers_written_out_in_chinese_are_not_missing():
    assert missing_numbers("1 2 16", "不到一秒，两个请求，16 个 token") == []
    assert missing_numbers("1 16", "不到 0.5 秒") == ["1", "16"]


def test_a_short_name_is_a_word_not_a_substring():
    assert not mentions("we produce blocks", "UC") and mentions("UC Berkeley", "UC")
    assert mentions("我们用KV cache和预填充", "预填充")


def test_a_whole_part_of_a_slide_title_is_no_fragment():
    lines = ["Technique2: Faster Constrained Decoding"]
    assert not is_fragment("Faster Constrained Decoding", lines)
    assert is_fragment("Decoding with jump", ["Faster Constrained Decoding with jump forward"])


def test_an_abbreviation_ends_no_sentence():
    line = "Performance at (May. 2025) — 22.3k output token/s/node. It beats static vs. TGI."
    assert split_sentences(line) == [
        "Performance at (May. 2025) — 22.3k output token/s/node.",
        "It beats static vs. TGI.",
    ]
    assert split_sentences("It ran at 2.8x. 100 GPUs ran it.") == [
        "It ran at 2.8x.",
        "100 GPUs ran it.",
    ]


def test_the_reply_format_said_back_is_an_echo_and_json_in_prose_is_not():
    assert is_echo("Slime, 输出 JSON：{，一个 RL 训练框架", [])
    assert is_echo('Reply as JSON: {"text": the sentence}', [])
    assert not is_echo("约束解码让模型输出 JSON 格式的结果。", [])
    assert not is_echo('The schema is {"type": "object"}.', [])


def test_a_number_keeps_its_magnitude_in_whatever_digits():
    said = "One node served 52.3k prefill tokens/s on a 13B model."
    assert missing_numbers(said, "单节点每秒处理 5.23万 个预填充 token，模型为 130亿 参数。") == []
    assert missing_numbers(said, "A node served 52,300 tokens/s on a 13 billion model.") == []
    assert missing_numbers(said, "单节点每秒处理 52.3 个预填充 token，模型为 13B。") == ["52.3k"]
    assert invented_numbers("它每秒处理 5.23万 个 token。", said) == []
    assert invented_numbers("It served 52.3k tokens/s.", "It served 52.3 tokens/s.") == ["52.3k"]
