"""What the model is given of a spoken "we": the same fact, without the speaker."""

import pytest

from pipeline.core.impersonal import impersonal


@pytest.mark.parametrize(
    ("said", "given"),
    [
        # a verb with a plain object: the object is the subject, the tense and number kept
        (
            "We compress those paths, so the engine decodes faster.",
            "Those paths are compressed, so the engine decodes faster.",
        ),
        (
            "For DeepSeek V3 we combined several kernels.",
            "For DeepSeek V3 several kernels were combined.",
        ),
        (
            "So we can change the order of computation.",
            "So the order of computation can be changed.",
        ),
        ("We measured it with a batch size of 1.", "It was measured with a batch size of 1."),
        (
            "We implemented an FP8 GEMM and an FP8 KV cache.",
            "An FP8 GEMM and an FP8 KV cache were implemented.",
        ),
        # no plain object (an infinitive, the object's own predicate, an auxiliary): as said
        ("We plan to refactor the memory pool.", "We plan to refactor the memory pool."),
        ("We call this jump forward.", "We call this jump forward."),
        ("We've built a radix tree.", "We've built a radix tree."),
        # a doubt in the parse: a second verb on the same "we", a contracted modal
        ("We compress the paths and reuse them.", "We compress the paths and reuse them."),
        ("We'll fuse the kernels.", "We'll fuse the kernels."),
        # a capital only where the clause opens the sentence, a name as written
        ("It is slow. We fix the kernel.", "It is slow. The kernel is fixed."),
        ("We support vLLM kernels.", "vLLM kernels are supported."),
    ],
)
def test_a_spoken_we_with_an_object_is_made_passive(said, given):
    assert impersonal(said) == given


def test_the_speakers_i_our_and_a_text_without_we_are_left_as_said():
    for said in ("I maintain SGLang and I will look back at 2025.", "Our cache is full."):
        assert impersonal(said) == said
