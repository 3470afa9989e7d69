"""`talk2article edit`: a reviewer's text for one sentence of a talk's article, kept in
edits.yaml in the talk's folder and applied by every later run (pipeline.edits)."""

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from flows.console import console
from flows.review_cli import Folders, Outputs, Reviewer, TalkArgument


def edit(
    talk: TalkArgument,
    sentence: Annotated[
        str, typer.Argument(help="The sentence's id, as the proofreading page shows it.")
    ],
    zh: Annotated[str, typer.Option("--zh", help="The sentence in Chinese.")] = "",
    en: Annotated[str, typer.Option("--en", help="The sentence in English.")] = "",
    drop: Annotated[
        bool, typer.Option("--drop", help="Take the sentence out of the article.")
    ] = False,
    reviewer: Reviewer = "",
    inputs: Folders = None,
    outputs: Outputs = None,
) -> None:
    """Correct one sentence of a talk's article (or drop it) for good.

    Give the sentence in Chinese, in English or both; given one, the model translates it
    into the other (one call, checked like any translation). The edit goes to edits.yaml
    in the talk's folder, bound to what the sentence is made from: every later run applies
    it without a model call, until that source changes (then the edit is stale and listed
    by `talk2article review`). A heading, the title and the summary are edited the same way.
    """
    from flows.talk import configured
    from pipeline.core.errors import StageFailure
    from pipeline.core.store import TalkStore
    from pipeline.edits import EditRefused, make_edit, record_edit
    from pipeline.llm.client import EndpointError
    from pipeline.schema import Ledger
    from pipeline.talk import talk_slug

    if not reviewer.strip():
        raise typer.BadParameter("give your name with --by (or TALK2ARTICLE_REVIEWER)")
    settings = configured(inputs, outputs)
    out = settings.outputs_dir / talk_slug(talk, settings.inputs_dir)
    ledger = TalkStore(out).read("ledger.json", Ledger)
    if ledger is None:
        fail(f"{talk}: no article to edit yet; run it first (talk2article run {talk})")
    texts = {"zh": zh, "en": en}
    try:
        made = make_edit(
            ledger, sentence, texts, reviewer.strip(), translating(settings, out), drop
        )
        path = record_edit(talk, made)
    except EditRefused as err:
        fail(str(err))
    except EndpointError as err:
        fail(f"the model could not translate it ({err}); give both --zh and --en, or try again")
    except (OSError, StageFailure) as err:
        fail(str(err))
    console.print(f"{sentence} by {made.by}, in {path}:\n{said_back(made)}", markup=False)
    console.print(f"the article follows at the next run (talk2article run {talk})", markup=False)


def said_back(made) -> str:
    """The edit as recorded, and any check its machine translation failed."""
    said = "dropped" if made.drop else f"zh: {made.zh}\nen: {made.en}"
    if made.translated and (failed := [c.check for c in made.checks if not c.passed]):
        said += f"\n(the {made.translated} translation failed its {', '.join(failed)} check)"
    return said


def translating(settings, out: Path):
    """A translator that starts the model only when asked to translate."""
    from pipeline.deck.vocabulary import collect_terms
    from pipeline.edits import translator
    from pipeline.ledger import LedgerPrompts
    from pipeline.llm.session import LLMSession
    from pipeline.schema import Deck, Talk

    def translate(sentence, given, into):
        deck_file = out / "deck.json"
        deck = Deck.model_validate_json(deck_file.read_text()) if deck_file.is_file() else None
        meta = Talk.model_validate_json((out / "talk.json").read_text()).meta
        prompts = LedgerPrompts.load(settings.prompts_dir)
        with LLMSession(settings.llm_setup) as session:
            vocabulary = collect_terms(deck, meta.glossary)
            return translator(session.get(), prompts, vocabulary)(sentence, given, into)

    return translate


def fail(message: str) -> None:
    console.print(f"[red]error[/red] {escape(message)}")
    raise typer.Exit(1)
