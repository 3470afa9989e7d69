"""The benchmark's own text measures (evals/text.py)."""

from evals.text import keeps_name, kept_terms


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
