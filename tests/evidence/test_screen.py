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
