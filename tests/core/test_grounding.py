from pathlib import Path

import yaml

from pipeline.core.grounding import (
    MIN_SUPPORT,
    invented_numbers,
    is_echo,
    is_fragment,
    keeps_name,
    kept_terms,
    mentions,
    misbound_numbers,
    missing_numbers,
    pair_support,
    prompt_lines,
    split_sentences,
    support,
    unsupported_sentences,
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
    assert unsupported_sentences(f"Blocks hold 16 tokens. {added}", UNIT) == [added]


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
    assert missing_numbers({"24"}, "They spread in 2024.") == []
    assert missing_numbers({"2024"}, "到24年才普及") == []
    assert missing_numbers({"24"}, "24 GB of memory") == []
    assert missing_numbers({"24"}, "in 2023") == ["24"]


def test_a_month_named_in_a_date_is_its_number_in_a_translation():
    assert missing_numbers({"2025", "5"}, "In May 2025, one node served 52.3k tokens/s.") == []
    assert missing_numbers({"9"}, "v0.3 (Sept. 2024)") == []
    assert missing_numbers({"1"}, "released in January") == []
    assert invented_numbers("2025年5月发布", "It was released in May 2025.") == []
    # "May" as a verb, or a word that starts like a month, is no date
    assert missing_numbers({"5"}, "May I ask how fast it is?") == ["5"]
    assert missing_numbers({"3"}, "Marching 2 steps ahead") == ["3"]


def test_prompt_lines_and_the_revise_note_are_echoes():
    lines = prompt_lines([load_prompt("rewrite_facts_en")])
    assert is_echo("Each sentence states only what its own item states: keep every number", lines)
    assert is_echo(REVISE_NOTE.format(findings="x") + " Blocks hold 16 tokens.", lines)
    assert not is_echo("Blocks hold 16 tokens each, so memory is handed out in pieces.", lines)


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


def test_names_and_identifiers_stay_in_latin_letters_ordinary_terms_are_translated():
    terms = ["KV cache", "PagedAttention", "vLLM", "A100", "xgrammar", "prefix caching", "batching"]
    assert kept_terms(terms) == ["KV cache", "PagedAttention", "vLLM", "A100", "xgrammar"]


def test_chinese_text_keeps_the_names_of_terms():
    assert keeps_name("把 KV 缓存分成块", "KV cache")
    assert keeps_name("PagedAttention 把缓存分块", "PagedAttention")
    assert not keeps_name("分页注意力把缓存分块", "PagedAttention")
    assert not keeps_name("在 vLLMs 里", "vLLM")
    assert keeps_name("服务 LLM 的内存压力", "LLMs") and keeps_name("两块 GPU", "GPUs")
    assert not keeps_name("Serving LLM", "LLMs")  # English has the plural
    # a capital that is only the slide's typography: the same word in lower case or number
    assert keeps_name("each step gives a logit mask", "Logits Mask")
    assert keeps_name("它生成 logits 掩码", "Logits Mask")
    assert not keeps_name("it gives a mask", "Logits Mask")
    assert not keeps_name("served by sglang", "SGLang")  # a name's own spelling is exact


def test_a_chinese_term_is_no_name_to_keep():
    assert kept_terms(["预填充", "KV cache", "batching"]) == ["KV cache"]


def test_small_numbers_written_out_in_chinese_are_not_missing():
    assert missing_numbers({"1", "2", "16"}, "不到一秒，两个请求，16 个 token") == []
    assert missing_numbers({"1", "16"}, "不到 0.5 秒") == ["1", "16"]


def test_a_short_name_is_a_word_not_a_substring():
    assert not mentions("we produce blocks", "UC") and mentions("UC Berkeley", "UC")
    assert mentions("我们用KV cache和预填充", "预填充")


RELEASES = (
    "SGLang releases\n"
    "v0.1 (July 2024) — 5x higher throughput with automatic KV cache reuse\n"
    "v0.1 (July 2024) — 3x faster grammar-based constrained decoding\n"
    "v0.2 (Sept. 2024) — 3x higher throughput with a low-overhead CPU runtime"
)


def test_a_number_given_to_another_numbers_subject_is_misbound():
    assert misbound_numbers("Automatic KV cache reuse gave 3x higher throughput.", RELEASES) == [
        "3"
    ]
    assert misbound_numbers("It offered automatic KV cache reuse in v0.2.", RELEASES) == ["0.2"]


def test_numbers_with_their_own_subjects_are_bound():
    for sentence in (
        "v0.1 gave 5x higher throughput through automatic KV cache reuse.",
        "v0.1 added KV cache reuse (5x higher throughput) and 3x faster constrained decoding.",
        "In September 2024, v0.2 tripled throughput with a low-overhead CPU runtime.",
        "Startups save 3 million dollars.",  # unsupported, not misbound: another check's
    ):
        assert misbound_numbers(sentence, RELEASES) == [], sentence


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
