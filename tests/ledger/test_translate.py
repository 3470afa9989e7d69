"""Translation per ledger sentence: checked against its own sentence, house terms by code."""

import json

from pipeline.core.checks import kept_names_check
from pipeline.core.prompts import load_prompt
from pipeline.ledger.translate import translate_sentences
from pipeline.schema.ledger import LedgerSentence, Written
from tests.llm_double import asked_item, scripted_llm

PROMPT = load_prompt("translate_sentences_zh")
EN = {
    "f-1": "PagedAttention hands out blocks of 16 tokens on demand.",
    "f-2": "Reserving the maximum length wastes 60 to 80 percent of the memory.",
}
ZH = {
    "f-1": "PagedAttention 按需分配 16 个 token 的块。",
    "f-2": "预留最大长度会浪费 60% 到 80% 的内存。",
}


def ledger() -> list[LedgerSentence]:
    return [
        LedgerSentence(id=i, kind="fact", source=i, units=["s-02"], en=Written(text=t))
        for i, t in EN.items()
    ]


def answering(zh: dict[str, str], given: dict[str, str] = EN):
    """An endpoint that translates each sentence `given` by id as `zh` does."""
    by_text = {text: zh[i] for i, text in given.items()}

    def reply(body: dict) -> str:
        return json.dumps({"text": by_text[asked_item(body)]})

    return reply


def test_each_sentence_is_translated_beside_its_source_and_verified():
    llm, endpoint = scripted_llm(answering(ZH))
    done = translate_sentences(ledger(), "en", "zh", llm, PROMPT, ["PagedAttention"])
    assert [s.zh.text for s in done] == list(ZH.values()) and all(s.zh.verified for s in done)
    assert [s.en.text for s in done] == list(EN.values()) and len(endpoint.requests) == 2


def test_an_english_word_left_in_chinese_is_caught_and_a_swapped_number_too():
    bad = {"f-1": ZH["f-1"], "f-2": "预留最大长度会 waste 60% 到 90% 的内存。"}
    llm, endpoint = scripted_llm(answering(bad))
    first, second = translate_sentences(ledger(), "en", "zh", llm, PROMPT, ["PagedAttention"])
    assert first.zh.verified and second.zh.left_out and len(endpoint.requests) == 3
    failed = {c.check: c.detail for c in second.zh.rejected}
    assert failed["language"] == "waste" and "90" in failed["numbers"]
    assert first.printed and not second.printed  # left out of both articles, not in English


def test_house_terms_are_written_by_code():
    said = {**ZH, "f-2": "预留最大长度会浪费 60% 到 80% 的显存令牌。"}
    llm, _ = scripted_llm(answering(said))
    _, second = translate_sentences(ledger(), "en", "zh", llm, PROMPT, [])
    assert "令牌" not in second.zh.text and "token" in second.zh.text


def test_a_name_inside_a_house_term_is_kept_by_the_terms_chinese_form():
    names = ["KV cache", "GPU", "batching"]
    source = "The KV cache eats GPU memory under continuous batching."
    assert kept_names_check("KV 缓存在连续批处理下占用显存。", source, names).passed
    lost = kept_names_check("缓存在连续批处理下占用内存。", source, names)
    assert not lost.passed and "GPU" in lost.detail and "KV" in lost.detail


def test_a_title_case_label_is_given_to_the_model_in_sentence_case():
    label = LedgerSentence(
        id="h-1", kind="heading", en=Written(text="Hierarchical KV Caching Integration")
    )
    given = {"h-1": "Hierarchical KV caching integration"}
    llm, endpoint = scripted_llm(answering({"h-1": "分层 KV 缓存集成"}, given))
    [done] = translate_sentences([label], "en", "zh", llm, PROMPT, [])
    assert "\nHierarchical KV caching integration\n" in endpoint.user_messages()[0]
    assert done.zh.verified and done.en.text == "Hierarchical KV Caching Integration"


def test_a_sentence_whose_rewrite_took_two_calls_is_translated_in_one():
    retried = [s.model_copy(update={"en": s.en.model_copy(update={"calls": 2})}) for s in ledger()]
    bad = {"f-1": "预留 waste。", "f-2": "预留 waste。"}
    llm, endpoint = scripted_llm(answering(bad))
    done = translate_sentences(retried, "en", "zh", llm, PROMPT, [])
    assert len(endpoint.requests) == 2 and all(s.zh.left_out for s in done)
    assert all(s.en.calls + s.zh.calls <= 3 for s in done)


def test_a_deck_phrase_of_english_words_is_translated_and_only_its_names_kept():
    source = LedgerSentence(
        id="f-3", kind="fact", en=Written(text="Model deployment orchestration runs on KV nodes.")
    )
    names = ["model deployment orchestration", "Hierarchical KV Caching"]
    given = {"f-3": source.en.text}
    left = {"f-3": "模型部署 orchestration 运行在 KV 节点上。"}
    llm, endpoint = scripted_llm(answering(left, given))
    [done] = translate_sentences([source], "en", "zh", llm, PROMPT, names)
    assert "保留英文原文：KV\n" in endpoint.user_messages()[0]  # the names alone, not phrases
    assert "orchestration" in next(c for c in done.zh.rejected if c.check == "language").detail
    llm, _ = scripted_llm(answering({"f-3": "模型部署编排运行在 KV 节点上。"}, given))
    [done] = translate_sentences([source], "en", "zh", llm, PROMPT, names)
    assert done.zh.verified


def test_a_heading_keeps_its_best_answer_marked_and_a_left_out_fact_is_not_translated():
    heading = LedgerSentence(id="h-1", kind="heading", en=Written(text="Paged memory"))
    failed = LedgerSentence(
        id="f-9", kind="fact", en=Written(text="Blocks.", left_out=True, calls=2)
    )
    answers = iter(["分页 memory", "分页的 memory 管理"])
    llm, endpoint = scripted_llm(lambda body: json.dumps({"text": next(answers)}))
    done_heading, done_fact = translate_sentences([heading, failed], "en", "zh", llm, PROMPT, [])
    assert len(endpoint.requests) == 2 and done_fact.zh is None and not done_fact.printed
    assert done_heading.zh.text == "分页 memory" and not done_heading.zh.left_out
    assert [c.check for c in done_heading.zh.rejected] == ["language"]  # marked for review
