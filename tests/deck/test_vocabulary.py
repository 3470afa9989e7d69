from pipeline.deck.vocabulary import MAX_TERMS, collect_terms
from pipeline.schema import Deck, Slide
from pipeline.transcript import MAX_PROMPT_TOKENS, whisper_hotwords

DECK = Deck(
    sources=["d.pdf"],
    slides=[
        Slide(index=1, title="PagedAttention in vLLM", text="KV-cache blocks on one A100 GPU"),
        Slide(index=2, title="Results", text="The GPU is busy", notes="Mention the 13B model"),
    ],
)
ROUTER = Deck(
    sources=["r.pdf"],
    slides=[
        Slide(index=1, title="Approximate Tree", text="We keep a radix tree on the router"),
        Slide(index=2, title="Evicting the Approximate Tree", text="The radix tree: LRU"),
        Slide(index=3, title="Fault Tolerance", text="Retry up to max_worker_retries times"),
        Slide(index=4, title="Written in Rust", text="Call torch.compile or pass --enable-overlap"),
        Slide(index=5, title="Benchmark", text="SGLang v0.4 serves Llama 70B 5x faster"),
    ],
)


def test_technical_terms_come_from_titles_text_and_notes():
    terms = collect_terms(DECK, [])
    assert {"PagedAttention", "vLLM", "KV-cache", "A100", "GPU"} <= set(terms)
    assert "13B" not in terms  # said as a number


def test_phrases_identifiers_and_names_numbers_left_out():
    terms = collect_terms(ROUTER, [])
    assert {"radix tree", "approximate tree", "LRU", "SGLang"} <= set(terms)
    assert {"max_worker_retries", "torch.compile", "--enable-overlap"} <= set(terms)
    assert not {"v0.4", "70B", "5x"} & set(terms)
    assert "Approximate Tree" not in terms  # a title's capitals are typography


def test_glossary_comes_first_and_duplicates_are_dropped():
    terms = collect_terms(DECK, ["continuous batching", "vLLM", "kv cache"])
    assert terms[:3] == ["continuous batching", "vLLM", "kv cache"]
    assert terms.count("vLLM") == 1 and "KV-cache" not in terms


def test_terms_are_capped_and_the_prompt_fits_its_token_budget():
    many = [f"Term{i}X" for i in range(100)]
    assert len(collect_terms(None, many)) == MAX_TERMS
    assert whisper_hotwords([]) is None
    assert whisper_hotwords(["vLLM", "GPU"]) == "vLLM, GPU"
    assert whisper_hotwords(["max_worker_retries", "/add_worker"]) == (
        "max worker retries, add worker"  # as said; corrections restore the spelling
    )
    words = len  # one token per character: a stand-in tokenizer
    hotwords = whisper_hotwords(many, words)
    assert len(hotwords) <= MAX_PROMPT_TOKENS < len(hotwords) + len(", Term99X")
    assert hotwords.startswith("Term0X, Term1X")  # most characteristic first


def test_a_chinese_deck_gives_its_repeated_labels_and_latin_names():
    deck = Deck(
        sources=["z.pdf"],
        slides=[
            Slide(index=1, title="推理引擎", text="vLLM 与 SGLang 的推理引擎\n显存"),
            Slide(index=2, title="显存管理", text="KV Cache 占用显存，分页管理"),
        ],
    )
    terms = collect_terms(deck, [])
    assert {"推理引擎", "显存", "vLLM", "SGLang", "KV"} <= set(terms)
    assert "分页管理" not in terms  # met once
