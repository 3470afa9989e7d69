from pipeline.deck.vocabulary import MAX_TERMS, collect_terms
from pipeline.schema import Deck, Slide
from pipeline.transcript import whisper_prompt

DECK = Deck(
    sources=["d.pdf"],
    slides=[
        Slide(index=1, title="PagedAttention in vLLM", text="KV-cache blocks on one A100 GPU"),
        Slide(index=2, title="Results", text="The GPU is busy", notes="Mention the 13B model"),
    ],
)


def test_technical_terms_come_from_titles_text_and_notes_in_order():
    assert collect_terms(DECK, []) == ["PagedAttention", "vLLM", "KV-cache", "A100", "GPU", "13B"]


def test_glossary_comes_first_and_duplicates_are_dropped():
    terms = collect_terms(DECK, ["continuous batching", "vLLM", "kv cache"])
    assert terms[:4] == ["continuous batching", "vLLM", "kv cache", "PagedAttention"]
    assert terms.count("vLLM") == 1 and "KV-cache" not in terms


def test_terms_are_capped_and_prompt_is_optional():
    many = [f"Term{i}X" for i in range(100)]
    assert len(collect_terms(None, many)) == MAX_TERMS
    assert whisper_prompt([]) is None
    assert whisper_prompt(["vLLM", "GPU"]) == "Glossary: vLLM, GPU."
