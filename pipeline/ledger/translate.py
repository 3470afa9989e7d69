"""Translation per ledger sentence: each sentence translated into the other language in
one call each (pipeline.ledger.rounds), the house terminology written by code, and every
translation checked against the sentence it translates alone (numbers, names kept,
meaning, no English word left in Chinese but names and kept terms, voice, length). Two
failed answers leave the one with fewer failures, marked as a fallback: a sentence is
small enough to mark, so there is no chain of smaller pieces to fall back to. A sentence
whose rewrite took two calls is translated in one: three calls a sentence at most. When
every answer states another fact, the sentence stands in its own language, marked. Of
the talk's terms a Chinese translation is asked to keep only the names in Latin letters:
English words ("refactor", "model deployment orchestration") are translated. An English
title-case label is given in sentence case (a small model keeps every capitalised word).
"""

from functools import partial

from pipeline.core import terminology
from pipeline.core.checks import sentence_case, translation_checks
from pipeline.core.grounding import name_parts
from pipeline.core.prompts import Prompt
from pipeline.ledger.facts import named
from pipeline.ledger.rounds import Job, written
from pipeline.llm.client import LLM
from pipeline.schema.ledger import LedgerSentence, Written


def in_house_terms(text: str, lang: str, names: list[str]) -> str:
    """Chinese with the house's forms: word-by-word forms replaced, English words of
    Chinese-only terms put in Chinese (code does it; a small model keeps forgetting)."""
    if lang != "zh":
        return text
    text, _ = terminology.with_house_forms(text)
    text, _ = terminology.with_chinese_forms(text, names)
    return text


def checked(answer: str, source: str, lang: str, names: list[str]) -> list:
    return translation_checks(in_house_terms(answer, lang, names), source, lang, names)


def best_try(tries: list[Written], source: str, lang: str, names: list[str]) -> Written:
    """Of two failed answers, the one with fewer failed checks (the first on a tie), marked;
    when each states another fact (`Written.unfaithful`), the sentence as it is in its own
    language stands in, marked: a faithful sentence a reviewer translates, not a changed
    number a reader believes."""
    marked = [t.model_copy(update={"fallback": True}) for t in tries]
    faithful = [t for t in marked if not t.unfaithful]
    if not faithful:
        checks = checked(source, source=source, lang=lang, names=names)
        return Written(text=source, checks=checks, fallback=True, rejected=marked[-1].failed())
    best = min(faithful, key=lambda t: (not t.text, len(t.failed())))
    update = {"text": in_house_terms(best.text, lang, names), "rejected": best.failed()}
    return best.model_copy(update=update)


def translate_sentences(
    sentences: list[LedgerSentence],
    source_lang: str,
    target_lang: str,
    llm: LLM,
    prompt: Prompt,
    names: list[str],
) -> list[LedgerSentence]:
    """Each sentence with its text in `target_lang` beside the one in `source_lang`;
    `names` are the talk's own (deck terms), kept as written."""
    jobs, kept = [], [part for name in names for part in name_parts(name)]
    for sentence in sentences:
        source = sentence.text(source_lang).text
        values = {"terms": named(source, kept), "glossary": terminology.guide(source, target_lang)}
        jobs.append(
            Job(
                id=sentence.id,
                line=sentence_case(source) if source_lang == "en" else source,
                check=partial(checked, source=source, lang=target_lang, names=names),
                fallback=partial(best_try, source=source, lang=target_lang, names=names),
                values=values,
                retry=sentence.text(source_lang).calls < 2,  # three calls a sentence at most
            )
        )
    done = written(jobs, llm, prompt)
    translated = []
    for sentence in sentences:
        text = done[sentence.id]
        if not text.fallback:
            text = text.model_copy(update={"text": in_house_terms(text.text, target_lang, names)})
        translated.append(sentence.model_copy(update={target_lang: text}))
    return translated
