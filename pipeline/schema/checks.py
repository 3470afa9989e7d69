"""Every check the house runs, each defined once: what a failure means in a reviewer's
words (Chinese, English), the advice the model is given when its sentence failed it, and
whether a failure means the article may state what the talk did not (a trust check).

Sentence checks judge one sentence against its own source as it is written
(pipeline.core.checks, pipeline.core.voice, the questions' and headings' own); article
checks are the review's, over the whole article (pipeline.review). The names typed in
`SentenceCheck.check` and `Check.name` are this table's keys.
"""

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from pipeline.schema.base import Contract


@dataclass(frozen=True)
class CheckSpec:
    zh: str  # what a failure means, in the words a reviewer reads
    en: str
    advice: str = ""  # said to the model on its second try (sentence checks)
    trust: bool = False  # a failure: the article may state what the talk did not

    def problem(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


SENTENCE_CHECKS = {
    "numbers": CheckSpec(
        "数字与出处不符",
        "its numbers differ from its source's",
        "use exactly the numbers of the item",
    ),
    "names": CheckSpec(
        "名称与出处不符",
        "its names differ from its source's",
        "keep the names of the item exactly, add no other",
    ),
    "meaning": CheckSpec("意思与出处不符", "it says something else", "say what the item says"),
    "language": CheckSpec(
        "语言不对", "it is in the wrong language", "write every word in the language asked for"
    ),
    "voice": CheckSpec(
        "不是书面的陈述（有“我们”“你”、讲者或口语）",
        "not written as a statement (we, you, the speaker, speech)",
        "state the fact itself, with the system, method or result as the subject, in written "
        "language: no I, we, our or you, no word to the audience, no spoken opener, and not "
        "that the speaker, the talk or a slide says it",
    ),
    "length": CheckSpec(
        "长短与出处不相称",
        "it says much less or more than its source",
        "say all of the item and nothing more",
    ),
    "additions": CheckSpec(
        "加了出处没有的词",
        "it adds words its source lacks",
        "state only what the item and its slide's title say, with no word of your own beyond "
        "the verb the sentence needs",
    ),
    "sentence": CheckSpec(
        "不是完整的句子",
        "not one full sentence",
        "write one full sentence that states the fact (not a label, not a question, no "
        "semicolon, no colon, no exclamation) and ends with a full stop",
    ),
    "heading": CheckSpec(
        "不能作标题",
        "it cannot stand as a heading",
        "name the chapter's topic in a short noun phrase of your own, not a sentence, with "
        "no final punctuation",
    ),
}

ARTICLE_CHECKS = {
    "citations": CheckSpec(
        "段落缺少引用或引用了不存在的证据",
        "a paragraph cites nothing or unknown evidence",
        trust=True,
    ),
    "sentences_grounded": CheckSpec(
        "有句子的数字或名称不在它的出处中",
        "a sentence has a number or name its source lacks",
        trust=True,
    ),
    "no_prompt_echo": CheckSpec(
        "文中复述了写作提示", "the text repeats the writing prompt", trust=True
    ),
    "languages": CheckSpec("有句子不是该篇的语言", "a sentence is in the wrong language"),
    "no_duplicate_paragraphs": CheckSpec("有重复的段落", "a paragraph is repeated"),
    "no_repeated_sentences": CheckSpec("有重复的句子", "a sentence is repeated"),
    "terminology": CheckSpec("有术语没有按统一译法书写", "a term is not written in the house form"),
    "titles_not_fragments": CheckSpec("有标题是截断的幻灯片文字", "a heading is a cut slide line"),
    "headings_name_chapters": CheckSpec(
        "有章节标题只是角色名或与别的章节重复",
        "a chapter's heading is a role's name or another chapter's",
    ),
    "own_words": CheckSpec(
        "正文大段照搬转写原话", "much of the text is the transcript word for word"
    ),
}

CheckName = Literal[tuple(SENTENCE_CHECKS)]
ArticleCheckName = Literal[tuple(ARTICLE_CHECKS)]


class SentenceCheck(Contract):
    """One general check of a sentence against its own source."""

    check: CheckName
    passed: bool
    detail: str = Field("", description="what differs: the numbers, names or score")
    added: list[str] = Field(default_factory=list, description="numbers, names or words it added")
