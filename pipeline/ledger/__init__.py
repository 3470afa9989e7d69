"""The sentence ledger (../shared/design.md): the article as a list of sentences, each
made from one source and checked against that source alone.

    sources.py    the evidence cut into fact sources: a slide line, a table row, a sentence said
    rounds.py     sentences written by the model in batches, each answer checked on its own
    facts.py      a fact sentence per source, in the talk's language
    translate.py  each ledger sentence in the other language, house terms written by code

The general checks are pipeline.core.checks; the contract is pipeline.schema.ledger.
Selection, ordering, leads and headings, and the stage that writes ledger.json come next
(issue 41): until then the draft stage still writes the articles.
"""
