"""Notes copied from speech are said again as written sentences before paragraphs are
written from them; a restatement that fails a check leaves the note as it was said."""

import json

from pipeline.draft import DraftPrompts, Writer, recased_words
from pipeline.schema import Claim, Evidence, EvidenceUnit
from tests.llm_double import PromptReplies, scripted_llm

SAID = (
    "So um basically what we do is we we keep the KV cache in blocks of 16 tokens, "
    "you know, handed out on demand."
)
EVIDENCE = Evidence(
    units=[
        EvidenceUnit(id="t-00:00:06", kind="transcript", text=SAID, start=6.0),
        EvidenceUnit(id="s-02", kind="slide", text="KV cache in blocks of 16 tokens", slide=2),
    ]
)
SPOKEN = Claim(statement=SAID, units=["t-00:00:06"], numbers=["16"], terms=["KV cache"])
WRITTEN = "The KV cache is kept in blocks of 16 tokens that are handed out on demand."


def restated(claim: Claim, *replies: str, evidence=EVIDENCE, terms=("KV cache",)):
    answers = PromptReplies(restate_en=[json.dumps({"text": r}) for r in replies])
    llm, endpoint = scripted_llm(answers)
    writer = Writer(llm, DraftPrompts.load(), evidence, list(terms), "en")
    return *writer.restated(claim), answers, endpoint


def test_a_note_copied_from_speech_is_said_again_as_a_written_sentence():
    claim, restatement, answers, endpoint = restated(SPOKEN, WRITTEN)
    assert claim.statement == WRITTEN and claim.units == SPOKEN.units
    assert claim.numbers == ["16"]
    assert (restatement.said, restatement.written, restatement.findings) == (SAID, WRITTEN, [])
    assert answers.asked == ["restate_en"]
    assert SAID in endpoint.user_messages()[0] and "KV cache" in endpoint.user_messages()[0]


def test_a_restatement_that_invents_a_number_twice_leaves_the_note_as_said():
    invented = WRITTEN.replace("16", "32")
    claim, restatement, _, endpoint = restated(SPOKEN, invented, invented)
    assert claim == SPOKEN
    assert restatement.written is None
    assert any("32" in f for f in restatement.findings)
    assert "32" in endpoint.requests[1]["messages"][0]["content"]  # the retry is told


def test_a_restatement_must_keep_the_notes_numbers_and_names():
    no_number = "The KV cache is kept in small blocks handed out on demand."
    no_name = "The cache is kept in blocks of 16 tokens that are handed out on demand."
    claim, restatement, _, _ = restated(SPOKEN, no_number, no_name)
    assert claim == SPOKEN
    assert any("16" in f for f in restatement.findings)
    assert any("'KV cache'" in f for f in restatement.findings)


def test_a_restatement_that_adds_is_asked_again():
    added = WRITTEN[:-1] + ", which is why the server can keep far more requests in one batch."
    claim, restatement, _, _ = restated(SPOKEN, added, WRITTEN)
    assert claim.statement == WRITTEN
    assert any("adds what was not said" in f for f in restatement.findings)


def test_notes_from_slides_or_in_their_own_words_are_not_restated():
    shown = Claim(statement="KV cache in blocks of 16 tokens", units=["s-02"], numbers=["16"])
    own = Claim(
        statement="Blocks of 16 tokens hold the KV cache and are given out when needed.",
        units=["t-00:00:06"],
        numbers=["16"],
    )
    for claim in (shown, own):
        kept, restatement, answers, _ = restated(claim)
        assert (kept, restatement, answers.asked) == (claim, None, [])


def test_a_restatement_keeps_the_speechs_spelling_of_a_name_no_deck_lists():
    said = "So we we run vLLM with blocks of 16 tokens, handed out on demand."
    evidence = Evidence(units=[EvidenceUnit(id="t-00:00:06", kind="transcript", text=said)])
    claim = Claim(statement=said, units=["t-00:00:06"], numbers=["16"])
    recased = "VLLM runs with blocks of 16 tokens."
    kept, restatement, _, _ = restated(claim, recased, recased, evidence=evidence, terms=())
    assert kept == claim and any("'VLLM'" in f and "'vLLM'" in f for f in restatement.findings)
    assert recased_words("So we run vLLM.", said) == []  # a sentence may start with a capital
    assert recased_words("We run vllm.", said) == [("vllm", "vLLM")]
