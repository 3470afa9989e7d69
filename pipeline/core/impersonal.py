"""Spoken English in the first person plural made impersonal by its grammar, before the
model sees it (the 1.5B copies a sentence nearly word for word, so a "we" it is given
comes back and the sentence fails the voice check).

A clause whose subject is "we" alone and whose verb has a plain object becomes passive
("we compress those paths" -> "those paths are compressed", "so we can change the order"
-> "so the order can be changed"). Where the parse leaves any doubt (a second verb sharing
the "we", a contracted modal, an object holding a clause or another "we") the clause is
left as said, and so is every other first person: such a sentence fails the voice check
and its fact is left out.
"""

import re

from lemminflect import getInflection

from pipeline.core.grammar import parse

# Verbs' dependents that make a passive of "we V O" something else than "O is V-ed by us":
# a second object, an object's predicate, a clause or infinitive, a particle.
NOT_PASSIVE = {"dative", "oprd", "xcomp", "ccomp", "prt", "acomp", "attr"}
OBJECT_AS_SUBJECT = {"it": "it", "them": "they", "this": "this", "that": "that"}  # as subjects
PLURAL_WORDS = {"they", "them", "these", "those"}
SPACE_BEFORE_MARK = re.compile(r"\s+([,.;:!?])")
SPACES = re.compile(r"\s{2,}")
WE = re.compile(r"\bwe\b", re.IGNORECASE)


def impersonal(text: str) -> str:
    """`text` with each clause "we V O" made passive; the text as given when it has none."""
    if not WE.search(text):
        return text
    doc = parse(text)
    pieces = [t.text_with_ws for t in doc]
    moved: set[int] = set()
    for token in doc:
        if token.lower_ == "we" and token.dep_ == "nsubj" and token.i not in moved:
            _passive(token, pieces, moved)
    return SPACE_BEFORE_MARK.sub(r"\1", SPACES.sub(" ", "".join(pieces))).strip()


def _object_of(verb):
    """The verb's one plain object after it, as a contiguous phrase without a comma or a
    "we"; None when the verb has none, or more than an object, or a second verb sharing
    its subject, or the object cannot be a subject."""
    objects = [c for c in verb.children if c.dep_ == "dobj"]
    shared = any(c.dep_ == "conj" and c.pos_ == "VERB" for c in verb.children)
    if len(objects) != 1 or shared or any(c.dep_ in NOT_PASSIVE for c in verb.children):
        return None
    head = objects[0]
    words = list(head.subtree)
    contiguous = [w.i for w in words] == list(range(words[0].i, words[-1].i + 1))
    inner = any(w.lower_ in (",", "we") for w in words)
    pronoun = inner or (head.pos_ == "PRON" and head.lower_ not in OBJECT_AS_SUBJECT)
    # "we call this X Y", "we keep it small": the object's predicate, parsed as an adverb
    predicate = any(c.dep_ == "advmod" and c.i == words[-1].i + 1 for c in verb.children)
    plain = contiguous and head.i > verb.i and not pronoun and not predicate
    return words if plain else None


def _be(verb, words) -> str | None:
    """The form of "be" the passive takes: after a modal "be", else by the verb's tense and
    the object's number; None for a verb with another auxiliary ("we have built")."""
    auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if auxes:  # a whole modal: "'ll" and "'d" would stand alone after the object
        modal = all(a.tag_ == "MD" and not a.text.startswith("'") for a in auxes)
        return "be" if modal else None
    head = next(w for w in words if w.head not in words or w.head == w)
    plural = (
        head.tag_ in ("NNS", "NNPS")
        or head.lower_ in PLURAL_WORDS
        or any(c.dep_ == "conj" for c in head.children)
    )
    if verb.tag_ == "VBD":
        return "were" if plural else "was"
    return {"VBP": "are" if plural else "is"}.get(verb.tag_)


def _passive(subject, pieces: list[str], moved: set[int]) -> None:
    """ "we V O ..." as "O be V-ed ...", in place, where the parse allows it; `moved` are
    the positions already rewritten."""
    verb = subject.head
    alone = not list(subject.children) and sum(c.dep_ == "nsubj" for c in verb.children) == 1
    words = _object_of(verb) if verb.pos_ == "VERB" and alone else None
    be = _be(verb, words) if words else None
    participle = getInflection(verb.lemma_, "VBN") if be else None
    if not participle:
        return
    if moved & {subject.i, verb.i, *(w.i for w in words)}:
        return
    phrase = "".join(w.text_with_ws for w in words).strip()
    phrase = OBJECT_AS_SUBJECT.get(phrase.lower(), phrase)
    if subject.is_sent_start and phrase[:1].islower() and words[0].lower_ == words[0].text:
        phrase = phrase[:1].upper() + phrase[1:]  # "the kernel" opens the sentence, "vLLM" stays
    pieces[subject.i] = f"{phrase} " if be == "be" else f"{phrase} {be} "
    pieces[verb.i] = f"{'be ' if be == 'be' else ''}{participle[0]}{verb.whitespace_}"
    for word in words:
        pieces[word.i] = ""
    moved |= {subject.i, verb.i, *(w.i for w in words)}
