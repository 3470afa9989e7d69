import datetime as dt

import pytest

from pipeline.core.errors import StageFailure
from pipeline.library import build_library
from pipeline.library.glossary import (
    Articles,
    candidate_terms,
    defines,
    explanation,
    glossary_of,
    matches,
    term_id,
    term_key,
)
from pipeline.library.hubs import load_meetup
from pipeline.library.paths import load_paths, prerequisites, reading_order
from pipeline.library.relations import findings_of, grounded
from pipeline.library.talks import published_talks
from pipeline.schema.evidence import GlossaryEntry
from pipeline.schema.library import Contrast, Relation
from tests.library.shelf import BASICS, PREFIX, ROUTER, SWAP, shelve
from tests.site.published import publish


@pytest.mark.parametrize(
    "sentence, form",
    [
        ("PagedAttention splits the KV cache into blocks.", "PagedAttention"),
        ("The KV cache (one per request) holds keys and values.", "KV cache"),
        ("SGLang uses a scheduler called continuous batching.", "continuous batching"),
        ("The KV cache, a crucial component, consumes GPU memory.", "KV cache"),
        ("Prefix caching is used to share what requests have in common.", "prefix caching"),
        ("前缀缓存复用共享提示的 KV cache。", "前缀缓存"),
        ("这种做法称为 PagedAttention。", "PagedAttention"),
        ("Prefix caching identifies blocks by a hash of their tokens.", "prefix caching"),
    ],
)
def test_a_sentence_that_says_what_a_term_is_or_does_defines_it(sentence, form):
    assert defines(sentence, form)


@pytest.mark.parametrize(
    "sentence, form",
    [
        ("Every worker runs PagedAttention on its own GPU.", "PagedAttention"),
        ("Prefix caching reuses the KV cache of a shared prompt.", "KV cache"),
        ("每个 worker 都在自己的 GPU 上运行 PagedAttention。", "PagedAttention"),
        ("MLC LLM is a universal LLM engine.", "LLM"),  # part of another name
        ("Llama3 8B fp8 is used for speculative decoding.", "FP8"),
        ("JSON Schema is used for xgrammar.", "JSON schema"),  # a use, not what it is
        ("Logits Mask is produced by both xgrammar and outlines.", "Logits Mask"),  # by Y
    ],
)
def test_a_sentence_that_only_mentions_a_term_does_not_define_it(sentence, form):
    assert not defines(sentence, form)


def test_the_glossary_holds_the_terms_two_articles_use_and_one_explains(tmp_path):
    articles = Articles(shelve(tmp_path / "outputs", tmp_path / "inputs"))
    glossary = {g.term: g for g in glossary_of(articles)}
    # router: one article; Ada: the speaker; no term that no article explains
    assert sorted(glossary) == ["KV cache", "PagedAttention", "prefix caching"]
    paged = glossary["PagedAttention"]
    assert paged.id == "pagedattention" and paged.used_by == [BASICS, PREFIX, ROUTER]
    assert paged.explained.en == "PagedAttention splits the KV cache into blocks of 16 tokens."
    assert paged.explained.zh.startswith("PagedAttention 把 KV cache")
    assert paged.explained.citations == ["s-02"]
    prefix = glossary["prefix caching"]
    assert prefix.explained.slug == PREFIX and prefix.explained.zh.startswith("前缀缓存")
    assert term_id("KV cache") == "kv-cache"


def test_only_a_sentence_verified_in_both_languages_explains_a_term(tmp_path):
    [basics] = [t for t in shelve(tmp_path / "outputs", tmp_path / "inputs") if t.slug == BASICS]
    found = explanation(basics, "PagedAttention")
    assert found.en.startswith("PagedAttention splits") and found.zh.startswith("PagedAttention 把")
    defining = next(s for s in basics.ledger.sentences if s.en and s.en.text == found.en)
    defining.zh.left_out = True  # its translation failed its checks: left out
    assert explanation(basics, "PagedAttention") is None


def test_a_term_two_decks_spell_in_another_number_is_one_term(tmp_path):
    assert term_key("Logits Mask") == term_key("logit masks") == "logit mask"
    assert term_key("process") == "process" and term_key("bus") == "bus"
    assert [m[0] for m in matches("Each logit mask is built once.", "Logits Mask")] == [
        "logit mask"
    ]
    assert not matches("A logitmask.", "logit mask")
    talks = shelve(tmp_path / "outputs", tmp_path / "inputs")
    talks[0].evidence.glossary.append(GlossaryEntry(term="KV Caches"))
    assert len([t for t in candidate_terms(talks) if term_key(t) == "kv cache"]) == 1


def test_a_path_puts_an_article_after_those_that_explain_what_it_builds_on(tmp_path):
    talks = shelve(tmp_path / "outputs", tmp_path / "inputs")
    grounds = prerequisites(talks, Articles(talks))
    assert grounds[BASICS, PREFIX] == ["KV cache", "PagedAttention"]
    assert grounds[PREFIX, ROUTER] == ["prefix caching"]
    assert (ROUTER, BASICS) not in grounds
    assert reading_order(talks, grounds) == [BASICS, PREFIX, ROUTER]
    # a maintainer's pin wins; the rest follow in the computed order
    assert reading_order(talks, grounds, [ROUTER]) == [ROUTER, BASICS, PREFIX]


def test_each_path_note_names_what_to_read_first_and_why(tmp_path):
    held = build_library(shelve(tmp_path / "outputs", tmp_path / "inputs"), tmp_path / "inputs")
    (path,) = held.library.paths
    assert path.id == "memory" and path.talks == [BASICS, PREFIX, ROUTER]
    notes = {n.slug: n for n in path.notes}
    assert notes[BASICS].place == "intro" and not notes[BASICS].before
    assert notes[BASICS].after == PREFIX
    assert notes[PREFIX].before == [Relation(slug=BASICS, terms=["KV cache", "PagedAttention"])]
    assert notes[ROUTER].place == "closing" and notes[ROUTER].after is None
    assert [r.slug for r in notes[ROUTER].before] == [BASICS, PREFIX]
    assert not held.library.dropped


def test_a_path_note_naming_a_missing_article_or_an_unexplained_term_is_caught(tmp_path):
    talks = shelve(tmp_path / "outputs", tmp_path / "inputs")
    articles = Articles(talks)
    held = build_library(talks, tmp_path / "inputs")
    path = held.library.paths[0]
    seeded = {
        PREFIX: [Relation(slug="lmsys/no-such-talk", terms=["KV cache"])],
        # the prefix article never explains "router" (the router article uses it)
        ROUTER: [
            Relation(slug=BASICS, terms=["PagedAttention"]),
            Relation(slug=PREFIX, terms=["router"]),
        ],
    }
    notes = [n.model_copy(update={"before": seeded.get(n.slug, n.before)}) for n in path.notes]
    notes.append(notes[0].model_copy(update={"slug": "lmsys/ghost"}))
    faulty = held.library.model_copy(update={"paths": [path.model_copy(update={"notes": notes})]})
    findings = findings_of(faulty, articles)
    assert any("'lmsys/no-such-talk', which is no published article" in f for f in findings)
    assert any("'lmsys/ghost', which is no published article" in f for f in findings)
    assert any(
        "says 'lmsys/prefix' explains 'router', which it never explains" in f for f in findings
    )
    assert len(findings) == 3, findings
    kept = grounded(faulty, articles)
    assert len(kept.dropped) == 3 and not findings_of(kept, articles)
    kept_notes = {n.slug: n for n in kept.paths[0].notes}
    assert "lmsys/ghost" not in kept_notes and not kept_notes[PREFIX].before
    assert kept_notes[ROUTER].before == [Relation(slug=BASICS, terms=["PagedAttention"])]


def test_a_path_note_names_the_article_to_read_beside_and_what_differs(tmp_path):
    talks = shelve(tmp_path / "outputs", tmp_path / "inputs", swap=True)
    held = build_library(talks, tmp_path / "inputs")
    notes = {n.slug: n for n in held.library.paths[0].notes}
    # both explain PagedAttention; only basics the KV cache, only swap swapping
    assert notes[SWAP].contrast == Contrast(
        slug=BASICS, shared=["PagedAttention"], own=["swapping"], theirs=["KV cache"]
    )
    assert notes[BASICS].contrast.slug == SWAP
    assert notes[PREFIX].contrast is None  # it explains nothing another one does
    assert not held.library.dropped


def test_a_contrast_the_articles_do_not_support_is_caught_and_dropped(tmp_path):
    talks = shelve(tmp_path / "outputs", tmp_path / "inputs", swap=True)
    articles = Articles(talks)
    held = build_library(talks, tmp_path / "inputs")
    path = held.library.paths[0]
    seeded = {
        SWAP: Contrast(slug=BASICS, shared=["PagedAttention"], own=["swapping"], theirs=["router"]),
        BASICS: Contrast(slug=SWAP, shared=["PagedAttention"]),  # says nothing differs
        PREFIX: Contrast(slug=BASICS, shared=["KV cache"], own=["prefix caching"]),
    }
    notes = [
        n.model_copy(update={"contrast": seeded[n.slug]}) if n.slug in seeded else n
        for n in path.notes
    ]
    faulty = held.library.model_copy(update={"paths": [path.model_copy(update={"notes": notes})]})
    findings = findings_of(faulty, articles)
    assert any(
        "says 'lmsys/basics' explains 'router', which it never explains" in f for f in findings
    )
    assert any(f.endswith("names no difference") for f in findings)
    assert any("says 'lmsys/prefix' explains 'KV cache'" in f for f in findings)
    assert len(findings) == 3, findings
    kept = grounded(faulty, articles)
    assert all(n.contrast is None for n in kept.paths[0].notes if n.slug in seeded)
    assert not findings_of(kept, articles)


def test_a_meetup_folder_is_a_hub_of_its_talks_in_reading_order(tmp_path):
    inputs = tmp_path / "inputs"
    held = build_library(shelve(tmp_path / "outputs", inputs), inputs)
    (hub,) = held.library.hubs
    assert (hub.id, hub.name, hub.place, str(hub.date)) == (
        "lmsys", "LMSYS meetup", "Mountain View", "2026-02-20"
    )  # fmt: skip
    assert hub.talks == [BASICS, PREFIX]  # the router talk is not of the meetup
    assert {t.term: t.explained_by for t in hub.threads} == {
        "KV cache": BASICS, "PagedAttention": BASICS
    }  # fmt: skip
    assert all(t.used_by == [BASICS, PREFIX] or t.used_by == [PREFIX, BASICS] for t in hub.threads)


def test_a_meetup_order_wins_and_bad_data_files_fail_by_name(tmp_path):
    inputs = tmp_path / "inputs"
    talks = shelve(tmp_path / "outputs", inputs, meetup="name: M\norder: [prefix, basics]\n")
    assert build_library(talks, inputs).library.hubs[0].talks == [PREFIX, BASICS]
    (inputs / "lmsys" / "meetup.yaml").write_text("date: not a date\n")
    with pytest.raises(StageFailure, match="meetup.yaml"):
        load_meetup(inputs / "lmsys" / "meetup.yaml")
    bad = tmp_path / "paths.yaml"
    bad.write_text("- order: [x]\n")
    with pytest.raises(StageFailure, match="paths.yaml"):
        load_paths(bad)


def test_a_bad_meetup_file_costs_its_own_hub_and_says_why(tmp_path):
    inputs = tmp_path / "inputs"
    talks = shelve(tmp_path / "outputs", inputs, meetup="name: M\ndate: 2026-13-45\nfoo: 1\n")
    (inputs / "other" / "basics").mkdir(parents=True)  # a talk folder, not published yet
    (inputs / "other" / "meetup.yaml").write_text("name: N\norder: [basics, nowhere]\n")
    held = build_library(talks, inputs)
    assert held.library.hubs == []  # 'other' holds no published talk; 'lmsys' is unreadable
    bad, unknown = held.library.warnings
    assert bad.startswith(f"[{inputs / 'lmsys' / 'meetup.yaml'}] meetup.yaml is not valid: date: ")
    assert "foo: Extra inputs are not permitted" in bad and bad.endswith("its hub is left out")
    assert unknown.startswith(str(inputs / "other" / "meetup.yaml")) and "'nowhere'" in unknown
    assert "'basics'" not in unknown


def test_a_topic_the_list_lacks_is_a_warning_naming_the_talk_file(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    publish(outputs, "talk", "演讲", dt.date(2026, 4, 1), topic="no-such-topic")
    talks, _ = published_talks(outputs, inputs, policy="preview")
    (warning,) = build_library(talks, inputs).library.warnings
    assert warning.startswith(f"{inputs / 'talk' / 'talk.yaml'}: topic 'no-such-topic' is not")
