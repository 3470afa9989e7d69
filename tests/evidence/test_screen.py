from pipeline.evidence.screen import correct_on_screen

SLIDE = (
    "DeepSeek V3 Optimization\nDeepGEMM (FP8 matrix multiplication)\nveRL, AReaL\n128-GPU cluster"
)


def corrected(text: str, slide: str = SLIDE, deck_terms=frozenset()) -> tuple[str, list]:
    fixed, corrections = correct_on_screen(text, 30.0, 4, slide, set(deck_terms))
    return fixed, [(c.original, c.corrected, c.slide, c.start) for c in corrections]


def test_a_short_name_heard_wrong_takes_the_slides_spelling():
    assert corrected("DeepGEMM runs the FD8 matrix multiplications.") == (
        "DeepGEMM runs the FP8 matrix multiplications.",
        [("FD8", "FP8", 4, 30.0)],
    )
    assert corrected("frameworks such as VRL integrate it")[0] == (
        "frameworks such as veRL integrate it"
    )


def test_precision_first_nothing_else_changes():
    for said in (
        "the GPU and the CPU",  # GPU and CPU differ in their first letter
        "on an A100 and an H200",  # other digits, other first letters
        "a cluster of 120 GPUs",  # numbers are never corrected; GPUs is the slide's GPU
        "the free tier",  # English words are themselves
    ):
        assert corrected(said) == (said, [])
    assert corrected("we use FD8 here", deck_terms={"FD8"})[1] == []  # a deck term is itself
    assert corrected("FD8", slide="FP8 or FB8 weights")[1] == []  # two names: no choice


def test_a_hyphenated_mishearing_is_judged_by_its_parts():
    slide = "Thanks to Ziyi, the xgrammar integration with SGLang is on the way"
    assert corrected("The integration into sg-lane is on the way.", slide=slide)[1] == [
        ("sg-lane", "SGLang", 4, 30.0)
    ]
    assert corrected("a low-overhead runtime", slide="LOW-OVERHEAD CPU")[1] == []


def test_a_name_that_sounds_as_the_slides_takes_its_spelling():
    slide = "A faster HTTP server\nTokenizer in a separate process"
    assert corrected("It makes HDDP calls to a faster HDTP server.", slide=slide) == (
        "It makes HTTP calls to a faster HTTP server.",
        [("HDDP", "HTTP", 4, 30.0), ("HDTP", "HTTP", 4, 30.0)],
    )


def test_a_teen_heard_as_a_ty_takes_the_slides_number():
    slide = "Free threading\nPython 3.13 removes the GIL"
    assert corrected("With Python 3.30 the GIL is optional.", slide=slide) == (
        "With Python 3.13 the GIL is optional.",
        [("3.30", "3.13", 4, 30.0)],
    )
    for said in (
        "Python 3.12 still had the GIL",  # not a pair that sounds alike: may be right
        "a cluster of 30 nodes",  # not the slide's word before its number
    ):
        assert corrected(said, slide=slide) == (said, [])
    # the heard number is on the slide too: it may be right
    assert corrected("Python 3.30", slide="Python 3.13 and Python 3.30")[1] == []


def test_a_word_next_to_the_slides_number_takes_the_slides_word():
    slide = "Benchmark\nBatch size 256, input length 4096, output length 16"
    assert corrected("At size 256, input link 4096 and output link 16.", slide=slide) == (
        "Batch size 256, input length 4096 and output length 16.",
        [("At", "Batch", 4, 30.0), ("link", "length", 4, 30.0), ("link", "length", 4, 30.0)],
    )
    assert corrected("measured at size 256", slide=slide)[0] == "measured batch size 256"
    for said in (
        "input link 2048",  # another number: the slide does not bind it
        "input tokens 4096",  # nothing of "length" in "tokens"
        "with size 256",  # "with" is no part of "batch"
    ):
        assert corrected(said, slide=slide) == (said, [])


def test_a_name_heard_as_several_words_takes_the_slides_form():
    slide = "RL integration\nveRL, AReaL, slime\nDeepSeek-V2-Lite on Mooncake"
    assert corrected("frameworks such as a real L integrate it", slide=slide) == (
        "frameworks such as AReaL integrate it",
        [("a real L", "AReaL", 4, 30.0)],
    )
    assert corrected("on deep seek v2 light it stays under a second", slide=slide)[0] == (
        "on DeepSeek-V2-Lite it stays under a second"
    )
    for said in (
        "a real life example",  # English words only: no name heard in pieces
        "the moon cake store",  # Mooncake is no technical spelling on the slide
        "it is a real, L-shaped curve",  # a comma is no gap inside a name
    ):
        assert corrected(said, slide=slide) == (said, [])
    # a slide picture read by OCR lost its spaces; the names were heard right, one by one
    said = "it trains GLM4.5 and GLM4.6 at scale"
    assert corrected(said, slide="Powers large-scale training for GLM4.5andGLM4.6") == (said, [])


def test_a_model_name_heard_in_pieces_takes_the_slides_form():
    slide = "slime achieves 100% reproducible RL training on Qwen3-8B"
    assert corrected("training on Qwen 3, 8B.", slide=slide) == (
        "training on Qwen3-8B.",
        [("Qwen 3, 8B", "Qwen3-8B", 4, 30.0)],
    )
    # pieces that do not spell it exactly, and the name as shown, stay
    for said in ("training on Qwen 3, 7B.", "training on Qwen3-8B.", "Qwen 3 and 8 GPUs"):
        assert corrected(said, slide=slide) == (said, [])


def test_a_word_framed_by_the_slides_words_takes_the_slides_word():
    slide = "Performance at (May. 2025)\n5x cheaper than DeepSeek API price"
    assert corrected("five times cheaper than the DeepSeek KDI price.", slide=slide) == (
        "five times cheaper than the DeepSeek API price.",
        [("KDI", "API", 4, 30.0)],
    )
    for said in (
        "than the DeepSeek list price",  # an English word may be what was said
        "than the DeepSeek KDI cost",  # framed on one side only
        "than the DeepSeek Kubernetes price",  # much longer than the slide's word
    ):
        assert corrected(said, slide=slide) == (said, [])
    assert corrected("the DeepSeek KDI price", slide=slide, deck_terms={"KDI"})[1] == []


def test_a_misheard_word_takes_the_slides_word_with_the_ending_it_was_said_with():
    slide = "Smart prefetch & write policies hide transfer latency\nwe schedule requests"
    assert corrected("Smart Profetching Hides, the Transfer Latency.", slide=slide) == (
        "Smart Prefetching Hides, the Transfer Latency.",
        [("Profetching", "Prefetching", 4, 30.0)],
    )
    for said in (
        "we are prefetching and caching it",  # said right: the slide's word with an ending
        "the scheduling loop",  # an English word may be what was said
        "the wrute policies",  # five letters: too short to judge
        "the scheduler overlaps",  # rare, but another word than the slide's "schedule"
    ):
        assert corrected(said, slide=slide) == (said, [])


def test_an_acronym_heard_one_letter_off_takes_the_slides_before_the_same_word():
    slide = "PagedAttention: the KV cache in fixed-size blocks\nCPU memory holds the rest"
    assert corrected("PagedAttention stores the KB cache in blocks.", slide=slide) == (
        "PagedAttention stores the KV cache in blocks.",
        [("KB", "KV", 4, 30.0)],
    )
    for said in (
        "the GPU memory fills up",  # not the same first letter: G is no C misheard
        "a KB of cache",  # not before the slide's word
        "the BV cache",  # not the same first letter
    ):
        assert corrected(said, slide=slide) == (said, [])
    assert corrected("the KB cache", slide=slide + "\n800 KB per token") == ("the KB cache", [])
