"""Every check is defined once and completely: a reviewer can read what its failure means
in both languages, and the model is told what to do when its sentence failed it."""

import pytest
from pydantic import ValidationError

from pipeline.llm.rounds import revise_note
from pipeline.schema import Check, SentenceCheck, Written
from pipeline.schema.checks import ARTICLE_CHECKS, SENTENCE_CHECKS


@pytest.mark.parametrize("name", [*SENTENCE_CHECKS, *ARTICLE_CHECKS])
def test_every_check_says_what_its_failure_means_in_both_languages(name):
    spec = SENTENCE_CHECKS.get(name) or ARTICLE_CHECKS[name]
    assert spec.problem("zh") and spec.problem("en") and spec.zh != spec.en


@pytest.mark.parametrize("name", SENTENCE_CHECKS)
def test_a_failed_sentence_check_gives_the_model_advice_on_its_retry(name):
    failed = Written(text="x", checks=[SentenceCheck(check=name, passed=False, detail="why")])
    assert f"{SENTENCE_CHECKS[name].advice} (why)" in revise_note(failed)


def test_a_check_the_registry_does_not_define_cannot_be_recorded():
    with pytest.raises(ValidationError):
        SentenceCheck(check="tone", passed=False)
    with pytest.raises(ValidationError):
        Check(name="tone", passed=False)


def test_only_article_checks_bear_on_trust():
    assert not any(spec.trust for spec in SENTENCE_CHECKS.values())
    assert {n for n, spec in ARTICLE_CHECKS.items() if spec.trust} == {
        "citations",
        "sentences_grounded",
        "no_prompt_echo",
    }
