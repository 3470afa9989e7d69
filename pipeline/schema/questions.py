"""An article's companion in questions and answers (the questions stage)."""

from pydantic import Field

from pipeline.schema.article import Lang, Revision
from pipeline.schema.base import Contract, StageOutput


class QuestionAnswer(Contract):
    question: str = Field(description="one question a practitioner would ask")
    answer: str = Field(description="a few sentences from the article's claims")
    citations: list[str] = Field(description="evidence ids backing the answer")


class QuestionsText(Contract):
    """The companion in one language."""

    lang: Lang
    items: list[QuestionAnswer]


class Questions(StageOutput):
    """Both languages, with the same questions in the same order and the same citations."""

    en: QuestionsText
    zh: QuestionsText
    revisions: list[Revision] = Field(default_factory=list)

    def text(self, lang: str) -> QuestionsText:
        """The companion in `lang` ("zh"; anything else is the English one)."""
        return self.zh if lang == "zh" else self.en
