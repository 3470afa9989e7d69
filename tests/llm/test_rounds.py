"""A reply is the sentence itself: quotes around it go, quotes inside it stay."""

import pytest

from pipeline.llm.rounds import unquoted


@pytest.mark.parametrize(
    ("reply", "kept"),
    [
        ('"Prefix caching"', "Prefix caching"),
        ("「前缀缓存」", "前缀缓存"),
        ('"Prefix caching', "Prefix caching"),  # an unpaired quote at an edge
        ("Prefix caching”", "Prefix caching"),
        ('The engine is called "Mooncake".', 'The engine is called "Mooncake".'),
        ('"Fast" and "small" are both claimed.', '"Fast" and "small" are both claimed.'),
        ("It's fast.", "It's fast."),
        ("“KV cache” blocks are 16 tokens.", "“KV cache” blocks are 16 tokens."),
    ],
)
def test_a_reply_loses_only_the_quotes_around_it(reply, kept):
    assert unquoted(reply) == kept
