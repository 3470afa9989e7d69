from pipeline.schema import Segment
from pipeline.transcript.corrections import correct_terms

TERMS = ["PagedAttention", "continuous batching", "prefix caching", "GPU", "vLLM"]


def seg(text: str, start: float = 12.0) -> Segment:
    return Segment(start=start, end=start + 3, text=text)


def corrected(text: str, terms: list[str]) -> tuple[str, list[tuple[str, str]]]:
    segments, corrections = correct_terms([seg(text)], terms)
    return segments[0].text, [(c.original, c.corrected) for c in corrections]


def test_near_spellings_of_terms_are_corrected_and_recorded():
    segments, corrections = correct_terms(
        [seg("Page detention stores blocks, and continuous matching schedules them.")], TERMS
    )
    assert segments[0].text == (
        "PagedAttention stores blocks, and continuous batching schedules them."
    )
    assert [(c.original, c.corrected, c.start) for c in corrections] == [
        ("Page detention", "PagedAttention", 12.0),
        ("continuous matching", "continuous batching", 12.0),
    ]


def test_variants_are_rewritten_to_the_decks_spelling():
    terms = ["SGLang", "xgrammar", "max_worker_retries", "BFCL", "KV cache"]
    text, changes = corrected(
        "SG-Lang and X grammar retry max worker retries times on B F C L with the kv-cache.",
        terms,
    )
    assert text == "SGLang and xgrammar retry max_worker_retries times on BFCL with the KV cache."
    assert len(changes) == 5


def test_near_misses_across_word_boundaries_are_matched_by_sound():
    text, _ = corrected(
        "It runs on flashing fur and keeps rate extremes.", ["FlashInfer", "radix trees"]
    )
    assert text == "It runs on FlashInfer and keeps radix trees."


def test_a_hyphenated_mishearing_is_judged_as_one_word():
    # wordfreq scores "sg-ling" as the common "sg" and "ling"; as one word it is none
    text, _ = corrected("The integration into sg-ling is on the way.", ["SGLang"])
    assert text == "The integration into SGLang is on the way."
    plain = "A light-weight model."
    assert corrected(plain, ["LightLLM"]) == (plain, [])


def test_plurals_keep_their_s():
    text, _ = corrected("We ran 400 J Sun schemas.", ["JSON schema"])
    assert text == "We ran 400 JSON schemas."


def test_right_spellings_and_ordinary_words_are_left_alone():
    text = "With prefix caching and PagedAttention the GPU pages memory."
    assert corrected(text, TERMS) == (text, [])
    # Case alone is not a variant for plain words: "outlines" may be the ordinary word.
    ordinary = "The outlines of a plan, some rust on the gate and the grammar of an essay."
    assert corrected(ordinary, ["Outlines", "Rust", "xgrammar", "load balancer"]) == (ordinary, [])


def test_runs_do_not_start_with_a_function_word_or_cross_a_clause():
    text = "We use a load balancer. Is it balanced? Our router is."
    assert corrected(text, ["load balancers", "Balancer"]) == (text, [])


def test_short_terms_are_never_fuzzy_matched():
    text = "The CPU and the GPS are fine."
    assert corrected(text, TERMS) == (text, [])


def test_latin_terms_inside_chinese_speech_get_the_decks_spelling():
    text = "我们用 SG-Lang 部署，kv-cache 放在显存里。"
    assert corrected(text, ["SGLang", "KV cache"]) == (
        "我们用 SGLang 部署，KV cache 放在显存里。",
        [("SG-Lang", "SGLang"), ("kv-cache", "KV cache")],
    )


def test_words_a_term_holds_whole_were_said_as_meant():
    terms = ["invalid tokens", "XGrammar", "LLM serving frameworks", "logit mask"]
    said = "Only valid tokens pass, grammars compile, serving framework, logic mask."
    assert corrected(said, terms) == (
        "Only valid tokens pass, grammars compile, serving framework, logit mask.",
        [("logic mask.", "logit mask")],
    )
