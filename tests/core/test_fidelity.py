"""The translation checks against seeded faults, with the real bundled embeddings."""

import pytest

from pipeline.core.fidelity import expansions, spelled_before, unfaithful

EN = (
    "When every request reserves the maximum length, 60 to 80 percent of KV cache memory is "
    "wasted. PagedAttention instead keeps the KV cache in 16-token blocks handed out on demand."
)
ZH = (
    "当每个请求都预留最大长度时，60 到 80% 的 KV cache 内存被浪费。"
    "PagedAttention 则把 KV cache 存进按需分配的 16 个 token 的块中。"
)


def test_a_faithful_translation_passes_both_ways():
    assert unfaithful(EN, ZH, "zh") == []
    assert unfaithful(ZH, EN, "en") == []


@pytest.mark.parametrize(
    "placeholder",
    [
        "这一段的译文。",
        "分页",
        "为每个请求预留最大长度会浪费内存。",
    ],  # a stand-in, a title, half of it
)
def test_a_placeholder_or_a_truncated_translation_fails(placeholder):
    assert unfaithful(EN, placeholder, "zh")


def test_an_expansion_the_source_does_not_give_is_a_finding():
    source = "我们用 RAG 把相关文档放进模型的上下文，再让模型回答问题。"
    invented = (
        "We put the relevant documents into the model's context with RAG (Reactive Augmented "
        "Generation) and let it answer."
    )
    assert expansions(invented, source) == ["RAG (Reactive Augmented Generation)"]
    assert any("explains RAG" in f for f in unfaithful(source, invented, "en"))
    given = "RAG (Retrieval Augmented Generation) 把文档放进上下文。"
    assert expansions("RAG (Retrieval Augmented Generation) puts documents in.", given) == []


def test_an_acronym_spelled_out_before_its_brackets_is_an_expansion_too():
    text = "It switches between Multi-Layer Attention (MLA) and Multi-Head Attention (MHA)."
    assert spelled_before(text) == [
        ("MLA", "Multi-Layer Attention"),
        ("MHA", "Multi-Head Attention"),
    ]
    said = "DeepSeek V3 switches between MLA and MHA, multi-head attention."
    assert expansions(text, said) == ["MLA (Multi-Layer Attention)"]
    # not an expansion: the words are not its initials
    assert spelled_before("Model Deployment Orchestration (OME) is an operator.") == []
    # a translation from Chinese may spell out what the Chinese writes in Chinese
    assert expansions(text, "它在多层注意力（MLA）和多头注意力（MHA）之间切换。") == []


def test_an_acronym_after_words_that_are_not_its_initials_is_a_finding():
    source = "DeepSeek uses MLA, multi-head latent attention, not multi-head attention."
    wrong = "DeepSeek replaces it with Multi-Head Attention (MLA)."
    assert expansions(wrong, source) == ["MLA (Multi-Head Attention)"]
    assert expansions("It uses Multi-Head Latent Attention (MLA).", source) == []
    # words that are not one letter each, or another first letter: no spelling at all
    assert expansions("It runs on the SGLang Runtime (SRT).", "the SRT") == []
    assert expansions("Model Deployment Orchestration (OME) is an operator.", "OME") == []
    # the source's own words stand, right or wrong
    assert expansions(wrong, "It is Multi-head attention (MLA).") == []
