"""Translation per ledger sentence: each sentence translated into the other language in
one call each (pipeline.llm.rounds), the house terminology written by code, and every
translation checked against the sentence it translates alone (numbers, names kept,
meaning, no English word left in Chinese but names and kept terms, voice, length). A
fact whose translation fails twice is left out of both articles (they print the same
facts); a heading, title or summary keeps its best answer, marked. A sentence whose
rewrite took two calls is translated in one: three calls a sentence at most; a sentence
left out in its own language is not translated. Of the talk's terms a Chinese
translation is asked to keep only the names in Latin letters: English words ("refactor",
"model deployment orchestration") are translated. An English title-case heading is given
in sentence case (a small model keeps every capitalised word).
"""

from functools import partial

from pipeline.core import terminology
from pipeline.core.checks import sentence_case, translation_checks
from pipeline.core.grounding import name_parts
from pipeline.core.prompts import Prompt
from pipeline.ledger.facts import named
from pipeline.llm.client import LLM
from pipeline.llm.rounds import Job, written
from pipeline.schema.ledger import COMPOSED, LedgerSentence


def in_house_terms(text: str, lang: str, names: list[str]) -> str:
    """Chinese with the house's forms: word-by-word forms replaced, English words of
    Chinese-only terms put in Chinese (code does it; a small model keeps forgetting)."""
    if lang != "zh":
        return text
    text, _ = terminology.with_house_forms(text)
    text, _ = terminology.with_chinese_forms(text, names)
    return text


def checked(answer: str, source: str, lang: str, names: list[str], fact: bool) -> list:
    return translation_checks(in_house_terms(answer, lang, names), source, lang, names, fact)


def translation_job(
    sentence: LedgerSentence, source_lang: str, target_lang: str, names: list[str], kept: list[str]
) -> Job | None:
    """The job of translating one sentence; None for one left out or empty in its own
    language. `names` are the talk's own (deck terms), kept as written; `kept` their name
    parts."""
    own = sentence.text(source_lang)
    if own is None or own.left_out or not own.text:
        return None
    source = own.text
    return Job(
        id=sentence.id,
        line=sentence_case(source) if source_lang == "en" else source,
        check=partial(
            checked, source=source, lang=target_lang, names=names, fact=sentence.kind == "fact"
        ),
        values={"terms": named(source, kept), "glossary": terminology.guide(source, target_lang)},
        retry=own.calls < 2,  # three calls a sentence at most
        keep_best=sentence.kind in COMPOSED,
    )


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
    kept = [part for name in names for part in name_parts(name)]  # once, not per sentence
    jobs = [translation_job(s, source_lang, target_lang, names, kept) for s in sentences]
    jobs = [job for job in jobs if job is not None]
    done = written(jobs, llm, prompt) if jobs else {}
    translated = []
    for sentence in sentences:
        if (text := done.get(sentence.id)) is not None:
            update = {"text": in_house_terms(text.text, target_lang, names)}
            sentence = sentence.model_copy(update={target_lang: text.model_copy(update=update)})
        translated.append(sentence)
    return translated
