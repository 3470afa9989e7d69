"""Every relation the library states, checked against the articles it names: a glossary
entry's explanation and users, a path note's prerequisites (the named article explains
each term, this one uses it), its contrast (both explain the shared terms, each alone
explains its own) and its next article, a hub's threads. The library is built
so that these hold; the check is what guards a pinned paths file, a meetup file and any
later change, and what the knowledge-base benchmark counts. A relation that fails is
dropped from the site and recorded."""

from pipeline.library.glossary import Articles
from pipeline.schema.library import (
    Contrast,
    GlossaryTerm,
    Hub,
    Library,
    PathNote,
    ReadingPath,
    Relation,
    Thread,
)


def relation_findings(relation: Relation, reader: str, articles: Articles) -> list[str]:
    """Why "read `relation.slug` first, it explains its terms" does not hold for `reader`."""
    if found := articles.missing(relation.slug):
        return found
    findings = []
    for term in relation.terms:
        if not articles.explains(relation.slug, term):
            findings.append(f"says {relation.slug!r} explains {term!r}, which it never explains")
        if not articles.uses(reader, term):
            findings.append(f"says {reader!r} builds on {term!r}, which it never uses")
    return findings


def contrast_findings(contrast: Contrast, reader: str, articles: Articles) -> list[str]:
    """Why "read `reader` beside `contrast.slug`: both explain its shared terms, each
    explains its own" does not hold."""
    if found := articles.missing(contrast.slug):
        return found
    other = contrast.slug
    findings = [] if contrast.own or contrast.theirs else ["names no difference"]
    for term in contrast.shared:
        findings += [
            f"says {slug!r} explains {term!r}, which it never explains"
            for slug in (reader, other)
            if not articles.explains(slug, term)
        ]
    for term, by, not_by in [
        *((t, reader, other) for t in contrast.own),
        *((t, other, reader) for t in contrast.theirs),
    ]:
        if not articles.explains(by, term):
            findings.append(f"says {by!r} explains {term!r}, which it never explains")
        if articles.explains(not_by, term):
            findings.append(f"says only {by!r} of the two explains {term!r}; both do")
    return findings


def earlier_on(path: ReadingPath, slug: str) -> list[str]:
    """The articles the path puts before `slug` (none if it is not on the path)."""
    return path.talks[: path.talks.index(slug)] if slug in path.talks else []


def note_findings(note: PathNote, path: ReadingPath, articles: Articles) -> list[str]:
    """Why a path note does not hold: an article it names is not published or not on the
    path before it, or a prerequisite is not grounded."""
    if found := articles.missing(note.slug):
        return found
    findings = articles.missing(note.after)
    for relation in note.before:
        if relation.slug not in earlier_on(path, note.slug) and not articles.missing(relation.slug):
            findings.append(f"says to read {relation.slug!r} first, which the path puts later")
        findings += relation_findings(relation, note.slug, articles)
    if note.contrast:
        findings += contrast_findings(note.contrast, note.slug, articles)
    return findings


def term_findings(entry: GlossaryTerm, articles: Articles) -> list[str]:
    found = articles.missing(entry.explained.slug)
    if not found and not articles.explains(entry.explained.slug, entry.term):
        found.append(f"says {entry.explained.slug!r} explains it, which it never does")
    for slug in entry.used_by:
        found += articles.missing(slug) or (
            []
            if articles.uses(slug, entry.term)
            else [f"says {slug!r} uses it, which it never does"]
        )
    return found


def thread_findings(thread: Thread, articles: Articles) -> list[str]:
    findings = []
    if thread.explained_by and not articles.explains(thread.explained_by, thread.term):
        findings.append(f"says {thread.explained_by!r} explains {thread.term!r}; it does not")
    return findings + [
        f"says {slug!r} uses {thread.term!r}; it does not"
        for slug in thread.used_by
        if not articles.uses(slug, thread.term)
    ]


def hub_findings(hub: Hub, articles: Articles) -> list[str]:
    findings = [f for slug in hub.talks for f in articles.missing(slug)]
    return findings + [f for thread in hub.threads for f in thread_findings(thread, articles)]


def findings_of(library: Library, articles: Articles) -> list[str]:
    """Every ungrounded relation of the library, where it is and why."""
    found = [f"glossary {g.id}: {f}" for g in library.glossary for f in term_findings(g, articles)]
    for path in library.paths:
        for note in path.notes:
            found += [
                f"path {path.id}, {note.slug}: {f}" for f in note_findings(note, path, articles)
            ]
    return found + [f"hub {h.id}: {f}" for h in library.hubs for f in hub_findings(h, articles)]


def grounded(library: Library, articles: Articles) -> Library:
    """The library without what its checks reject: a glossary entry or a hub thread that
    fails, a path note's failing prerequisite (a note naming no published article goes
    whole); each recorded in `dropped`."""
    dropped = findings_of(library, articles)
    if not dropped:
        return library
    glossary = [g for g in library.glossary if not term_findings(g, articles)]
    paths = []
    for path in library.paths:
        notes = []
        for note in path.notes:
            if articles.missing(note.slug) or articles.missing(note.after):
                continue
            before = [
                r
                for r in note.before
                if r.slug in earlier_on(path, note.slug)
                and not relation_findings(r, note.slug, articles)
            ]
            contrast = note.contrast
            if contrast and contrast_findings(contrast, note.slug, articles):
                contrast = None
            notes.append(note.model_copy(update={"before": before, "contrast": contrast}))
        paths.append(path.model_copy(update={"notes": notes}))
    hubs = [
        hub.model_copy(
            update={
                "talks": [s for s in hub.talks if not articles.missing(s)],
                "threads": [t for t in hub.threads if not thread_findings(t, articles)],
            }
        )
        for hub in library.hubs
    ]
    return library.model_copy(
        update={
            "glossary": glossary,
            "paths": paths,
            "hubs": hubs,
            "dropped": library.dropped + dropped,
        }
    )
