"""An article's companion in questions and answers (the questions stage).

An answer is stored as the ledger sentences it is made of, never as text: wherever it is
shown, it is composed from the ledger at hand (the edited one, with the reviewers' text),
so a reviewer's edit of a sentence reaches the answer, and a dropped sentence leaves it."""

from pydantic import Field

from pipeline.schema.article import DraftParagraph, Lang, Revision
from pipeline.schema.base import Contract, StageOutput
from pipeline.schema.ledger import Ledger


class QuestionAnswer(Contract):
    question: str = Field(description="one question a practitioner would ask")
    sentences: list[str] = Field(
        min_length=1, description="the ids of the ledger sentences its answer is, in order"
    )

    def answer(self, ledger: Ledger, lang: str) -> DraftParagraph:
        """The answer as `ledger` says it in `lang`: its sentences the ledger still prints,
        joined like a paragraph, citing their evidence (empty when none is left)."""
        printed = {s.id for s in ledger.sentences if s.printed}
        return ledger.paragraph([i for i in self.sentences if i in printed], lang)


class QuestionsText(Contract):
    """The companion in one language."""

    lang: Lang
    items: list[QuestionAnswer]


class Questions(StageOutput):
    """Both languages, with the same questions in the same order, answered by the same
    sentences."""

    en: QuestionsText
    zh: QuestionsText
    revisions: list[Revision] = Field(default_factory=list)

    def text(self, lang: str) -> QuestionsText:
        """The companion in `lang` ("zh"; anything else is the English one)."""
        return self.zh if lang == "zh" else self.en

    def answered(self, ledger: Ledger, lang: str) -> list[tuple[str, DraftParagraph]]:
        """Each question in `lang` with its answer as `ledger` says it; a question whose
        sentences have all left the article (a reviewer dropped them) is not asked."""
        pairs = [(item.question, item.answer(ledger, lang)) for item in self.text(lang).items]
        return [(question, answer) for question, answer in pairs if answer.text]
