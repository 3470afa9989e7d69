"""Reviewers' edits (审校) applied to the article. edits.yaml in the talk's folder names
ledger sentences by id, each edit bound to a hash of what its sentence is made from: a
fact's source (the slide line, table row or sentence said, with its slide's title), or,
for a heading, the title or the summary, its own text as the model wrote it. An edit whose
source is unchanged replaces the sentence's text in both languages, or drops the sentence,
without a model call; an edit whose source changed, or whose sentence left the article,
is stale: listed for the reviewer, never applied. A sentence's last edit counts.
"""

import datetime as dt
from collections.abc import Callable
from pathlib import Path

from pipeline.core.store import sha256_bytes
from pipeline.core.yamlfile import read_yaml, update_yaml
from pipeline.ledger import LedgerPrompts
from pipeline.ledger.translate import translate_sentences
from pipeline.llm.client import LLM
from pipeline.schema.article import Lang
from pipeline.schema.edits import (
    MAX_EDIT_CHARS,
    MAX_NAME_CHARS,
    Edit,
    EditedLedger,
    Edits,
    StaleEdit,
)
from pipeline.schema.ledger import COMPOSED, Ledger, LedgerSentence, Written
from pipeline.talk import EDITS_FILE

# edits.yaml's limit: one edit per sentence (record_edit folds the others) of at most ~16 KB
# (two texts of 2,000 CJK characters and the originals), for 250 sentences.
MAX_EDITS_BYTES = 4 * 1024 * 1024


def source_text(ledger: Ledger, sentence: LedgerSentence) -> str:
    """What the sentence is made from: its fact source with its context, or its own text
    in the writing language when no single source says it."""
    if sentence.kind in COMPOSED or sentence.source is None:
        written = sentence.text(ledger.language)
        return written.text if written else ""
    source = next(s for s in ledger.sources if s.id == sentence.source)
    return f"{source.context}\n{source.text}"


def source_hash(ledger: Ledger, sentence: LedgerSentence) -> str:
    return sha256_bytes(source_text(ledger, sentence).encode())


def read_edits(folder: Path) -> list[Edit]:
    """The folder's edits, oldest first; StageFailure naming edits.yaml when it is broken."""
    path = folder / EDITS_FILE
    return read_yaml(path, Edits, {}, MAX_EDITS_BYTES).edits if path.is_file() else []


def record_edit(folder: Path, edit: Edit) -> Path:
    """Add an edit to the folder's edits.yaml, under its lock; a sentence's earlier edits
    are folded into this one (only a sentence's last edit counts), so the file holds one
    edit per sentence at most."""

    def add(file: Edits) -> Edits:
        return Edits(edits=list(last_edits([*file.edits, edit]).values()))

    return update_yaml(folder / EDITS_FILE, Edits, add, MAX_EDITS_BYTES)


def last_edits(edits: list[Edit]) -> dict[str, Edit]:
    """sentence id -> its last edit, in the order of those last edits."""
    last = {edit.sentence: edit for edit in edits}
    return {edit.sentence: edit for edit in edits if last[edit.sentence] is edit}


def edited(sentence: LedgerSentence, edit: Edit) -> LedgerSentence:
    """The sentence with the edit's text in both languages, the model's translation of
    the reviewer's text keeping its checks."""

    def text(lang: Lang) -> Written:
        checks = edit.checks if edit.translated == lang else []
        return Written(text=getattr(edit, lang), checks=checks, calls=0, edited_by=edit.by)

    return sentence.model_copy(update={"zh": text("zh"), "en": text("en")})


def apply_edits(ledger: Ledger, edits: list[Edit]) -> EditedLedger:
    """The ledger with every edit whose source is unchanged applied; the others stale."""
    sentences, applied, stale = ledger.by_id(), [], []
    for sentence_id, edit in last_edits(edits).items():
        sentence = sentences.get(sentence_id)
        if sentence is None:
            stale.append(StaleEdit(edit=edit, why="its sentence is no longer in the article"))
        elif source_hash(ledger, sentence) != edit.source:
            stale.append(StaleEdit(edit=edit, why="what the sentence is made from changed"))
        else:
            applied.append(edit)
            sentences[sentence_id] = sentence if edit.drop else edited(sentence, edit)
    kept = ledger.model_copy(update={"sentences": list(sentences.values())})
    result = kept.without({e.sentence for e in applied if e.drop}).marked()
    warnings = [f"stale edit of {s.edit.sentence} by {s.edit.by}: {s.why}" for s in stale]
    return EditedLedger(
        ledger=result, applied=applied, stale=stale, warnings=warnings, fallbacks=result.fallbacks
    )


class EditRefused(ValueError):
    """An edit that cannot be made: the message says why."""


Translate = Callable[[LedgerSentence, Lang, Lang], Written]


def translator(llm: LLM, prompts: LedgerPrompts, vocabulary: list[str]) -> Translate:
    """The reviewer's sentence translated as the ledger translates one: one call, checked
    against the sentence alone, the talk's names (`vocabulary`) kept."""

    def translate(sentence: LedgerSentence, given: Lang, into: Lang) -> Written:
        prompt = prompts.translate(into)
        done = translate_sentences([sentence], given, into, llm, prompt, vocabulary)
        return done[0].text(into)

    return translate


def translation(
    sentence: LedgerSentence, texts: dict[Lang, str], translate: Translate
) -> tuple[Lang, Written]:
    """The reviewer's one text translated into the other language: (that language, it)."""
    ((given, text),) = texts.items()
    into = "en" if given == "zh" else "zh"
    # a text that took two calls is translated in one (pipeline.ledger.translate)
    mine = sentence.model_copy(update={given: Written(text=text, calls=2)})
    return into, translate(mine, given, into)


def refuse_long(texts: dict[Lang, str], by: str) -> None:
    """EditRefused for a text or name longer than an edit holds, before any model call."""
    for lang, text in texts.items():
        if len(text) > MAX_EDIT_CHARS:
            raise EditRefused(
                f"the --{lang} text has {len(text)} characters; a sentence has at most "
                f"{MAX_EDIT_CHARS}"
            )
    if len(by) > MAX_NAME_CHARS:
        raise EditRefused(f"the name given with --by has more than {MAX_NAME_CHARS} characters")


def make_edit(
    ledger: Ledger,
    sentence_id: str,
    texts: dict[Lang, str],
    by: str,
    translate: Translate,
    drop: bool = False,
) -> Edit:
    """An edit of a sentence of the model's ledger: the reviewer's text in one language or
    both (one language given, the model translates it into the other: `translate`), or a
    drop. A heading, the title and the summary can be edited, not dropped."""
    sentence = ledger.by_id().get(sentence_id)
    if sentence is None:
        raise EditRefused(f"no sentence {sentence_id} in the article (see its proofreading page)")
    if drop and sentence.kind in COMPOSED:
        raise EditRefused(f"{sentence_id} is a {sentence.kind}: edit it, it cannot be dropped")
    texts = {lang: " ".join(text.split()) for lang, text in texts.items() if text.strip()}
    if not drop and not texts:
        raise EditRefused("give the new text (--zh and/or --en), or --drop")
    refuse_long(texts, by)
    translated, checks = None, []
    if not drop and len(texts) == 1:
        translated, answer = translation(sentence, texts, translate)
        if answer.left_out or not answer.text:
            raise EditRefused(
                f"the model's {translated} translation failed its checks twice; give the "
                "sentence in both languages (--zh and --en)"
            )
        texts[translated], checks = answer.text, answer.checks
    original = {lang: (w.text if (w := sentence.text(lang)) else "") for lang in ("zh", "en")}
    return Edit(
        sentence=sentence_id,
        source=source_hash(ledger, sentence),
        original_zh=original["zh"],
        original_en=original["en"],
        zh=None if drop else texts["zh"],
        en=None if drop else texts["en"],
        drop=drop,
        translated=translated,
        checks=checks,
        by=by,
        at=dt.datetime.now(dt.UTC),
    )
