"""The ledger stage: facts chosen and arranged by code, written one source at a time, and the
article composed from them in both languages, sentence for sentence."""

import json

from pipeline.core.prompts import load_prompt
from pipeline.ledger import LedgerPrompts, write_ledger
from pipeline.ledger.arrange import PARAGRAPH_FACTS, arrange
from pipeline.notes.sources import fact_sources
from pipeline.review import review
from pipeline.schema import Evidence, EvidenceUnit, Notes, Outline, Section
from pipeline.schema.article import Chapter
from tests.ledger.test_facts import answering
from tests.llm_double import PromptReplies, asked_item, scripted_llm

SPEECH = "So I think reserving the max length wastes 60 to 80 percent of GPU memory."
EVIDENCE = Evidence(
    units=[
        EvidenceUnit(
            id="s-02",
            kind="slide",
            text="The KV cache\nEvery request keeps keys and values per token\n"
            "A 13B model needs 800 KB per token",
            slide=2,
        ),
        EvidenceUnit(id="t-00:01:05", kind="transcript", text=SPEECH, start=65.0, slide=2),
        EvidenceUnit(
            id="t-00:01:20",
            kind="transcript",
            text="Okay, so next let us move on to the next part of this talk.",
            start=80.0,
            slide=2,
        ),
        EvidenceUnit(
            id="s-03",
            kind="slide",
            text="PagedAttention\nBlocks of 16 tokens handed out on demand\n"
            "A block table maps logical blocks to physical blocks\n"
            "Waste drops to under 4 percent of memory",
            slide=3,
        ),
    ]
)
NOTES = Notes(
    language="en",
    sections=[
        Section(id="sec-01", unit_ids=["s-02", "t-00:01:05", "t-00:01:20"]),
        Section(id="sec-02", unit_ids=["s-03"]),
    ],
)
OUTLINE = Outline(
    language="en",
    title="Paging the KV cache",
    summary="Why reserving memory wastes it and how blocks fix that.",
    chapters=[
        Chapter(title="The KV cache", role="problem", sections=["sec-01"]),
        Chapter(title="Blocks on demand", role="mechanism", sections=["sec-02"]),
    ],
)


def rewrite(kind: str, text: str) -> str:
    """A faithful rewrite of a slide line; speech said back as it was (the speaker's "I")."""
    return text if kind == "said" else text.rstrip(".") + "."


# What a faithful translator says; any other sentence is "translated" as it was: English
# left in Chinese, a failed check.
CHINESE = {
    "Every request keeps keys and values per token.": "每个请求都为每个 token 保存键和值。",
    "A 13B model needs 800 KB per token.": "一个 13B 模型每个 token 需要 800 KB。",
    "Blocks of 16 tokens handed out on demand.": "每块 16 个 token，按需分配。",
    "A block table maps logical blocks to physical blocks.": "块表把逻辑块映射到物理块。",
    "Waste drops to under 4 percent of memory.": "浪费降到内存的 4% 以下。",
    "The KV cache": "KV 缓存",
    "Blocks on demand": "按需分配的块",
    "Paging the KV cache": "KV 缓存的分页",
}


def translate(body: dict) -> str:
    item = asked_item(body)
    return json.dumps({"text": CHINESE.get(item, item)})


def written_ledger():
    replies = PromptReplies(rewrite_facts_en=answering(rewrite), translate_sentences_zh=translate)
    llm, _ = scripted_llm(replies, slots=2)
    return write_ledger(OUTLINE, NOTES, EVIDENCE, ["PagedAttention"], llm, LedgerPrompts.load())


def test_code_decides_what_each_chapter_states_in_talk_order_and_paragraphs():
    planned = arrange(OUTLINE, NOTES, fact_sources(EVIDENCE), [])
    assert [p.chapter.title for p in planned] == ["The KV cache", "Blocks on demand"]
    first = [f.id for f in planned[0].facts]
    # meta-talk names nothing: left out; the slide's title is context, never a fact
    assert first == ["s-02.0", "s-02.1", "t-00:01:05.0"]
    assert all(len(p) <= PARAGRAPH_FACTS for plan in planned for p in plan.paragraphs)


def test_a_chapter_too_short_to_stand_joins_its_neighbour():
    short = Notes(
        language="en",
        sections=[
            Section(id="sec-01", unit_ids=["t-00:01:05"]),
            Section(id="sec-02", unit_ids=["s-02", "s-03"]),
        ],
    )
    chapters = [
        Chapter(title="Opening", sections=["sec-01"]),
        Chapter(title="Paging", sections=["sec-02"]),
    ]
    outline = OUTLINE.model_copy(update={"chapters": chapters})
    planned = arrange(outline, short, fact_sources(EVIDENCE), [])
    assert [p.chapter.title for p in planned] == ["Paging"]
    assert planned[0].facts[0].id == "t-00:01:05.0"  # its facts lead the next chapter


def test_both_languages_are_composed_from_the_same_sentences():
    ledger = written_ledger()
    en, zh = ledger.text("en"), ledger.text("zh")
    assert [len(s.paragraphs) for s in en.sections] == [len(s.paragraphs) for s in zh.sections]
    assert [p.citations for s in en.sections for p in s.paragraphs] == [
        p.citations for s in zh.sections for p in s.paragraphs
    ]
    assert en.title == "Paging the KV cache" and en.sections[1].title == "Blocks on demand"
    assert "The KV cache keeps keys" not in en.sections[0].paragraphs[0].text  # one source each
    assert en.sections[0].paragraphs[0].text.startswith("Every request keeps keys and values")


def test_what_fails_twice_is_left_out_of_both_articles_and_listed():
    ledger = written_ledger()
    text = " ".join(p.text for s in ledger.text("en").sections for p in s.paragraphs)
    assert "I think" not in text and "wastes 60 to 80" not in text  # the speech failed twice
    assert "t-00:01:05" not in ledger.draft().en.sections[0].paragraphs[0].citations
    left = {x.sentence: x for x in ledger.left_out()}
    assert left["f-t-00:01:05.0"].lang == "en"  # its rewrite failed: never translated
    assert [c.check for c in left["f-t-00:01:05.0"].failed] == ["voice"]
    assert ledger.by_id()["f-t-00:01:05.0"].zh is None
    zh = " ".join(p.text for s in ledger.text("zh").sections for p in s.paragraphs)
    assert "Every request" not in zh and "每个请求" in zh  # no English stands in Chinese
    # the summary's translation failed twice: its best answer stands, marked for review
    revisions = {str(r.place): r.action for r in ledger.revisions()}
    assert revisions["en f-t-00:01:05.0"] == "dropped" and "zh summary" in revisions
    assert revisions["zh summary"] == "kept with findings"
    assert ledger.fallbacks == list(revisions)


def test_an_article_without_a_summary_prints_none_and_asks_no_translation_of_it():
    replies = PromptReplies(rewrite_facts_en=answering(rewrite), translate_sentences_zh=translate)
    llm, endpoint = scripted_llm(replies, slots=2)
    outline = OUTLINE.model_copy(update={"summary": ""})  # none could stand
    ledger = write_ledger(outline, NOTES, EVIDENCE, ["PagedAttention"], llm, LedgerPrompts.load())
    assert ledger.text("en").summary == "" and ledger.text("zh").summary == ""
    assert not [r for r in ledger.revisions() if r.place.part == "summary"]
    assert all(asked_item(body) != "" for body in endpoint.requests)


def test_an_article_with_a_failed_summary_is_never_recommended():
    ledger = written_ledger()
    prompts = [load_prompt(n) for n in LedgerPrompts.NAMES]
    checked = review(ledger, EVIDENCE, "en", ["PagedAttention"], prompts)
    assert checked.card.verdict != "推荐收录"
    assert "1 fact(s) were left out" in checked.card.en.assessment


def test_a_slide_line_said_whole_gives_way_to_speech():
    line = "Reserving the maximum length wastes 60 to 80 percent of GPU memory"
    shown = EvidenceUnit(id="s-02", kind="slide", text=f"The KV cache\n{line}", slide=2)
    said = EVIDENCE.units[1]  # "So I think reserving the max length wastes 60 to 80 …"
    said = said.model_copy(update={"text": f"So I think {line.lower()} for every request."})
    evidence = Evidence(units=[shown, said, *EVIDENCE.units[3:]])
    planned = arrange(OUTLINE, NOTES, fact_sources(evidence), [])
    ids = [f.id for f in planned[0].facts]  # one chapter: the first is too short to stand
    assert ids[0] == "t-00:01:05.0" and "s-02.0" not in ids  # the fuller form


def test_the_title_may_name_what_the_talks_own_title_says():
    first = NOTES.sections[0].model_copy(update={"title": "Serving LLMs fast"})  # the cover's
    notes = NOTES.model_copy(update={"sections": [first, *NOTES.sections[1:]]})
    outline = OUTLINE.model_copy(update={"title": "Serving LLMs fast: blocks of 16 tokens"})
    replies = PromptReplies(rewrite_facts_en=answering(rewrite), translate_sentences_zh=translate)
    llm, _ = scripted_llm(replies, slots=2)
    ledger = write_ledger(outline, notes, EVIDENCE, ["PagedAttention"], llm, LedgerPrompts.load())
    assert all(c.passed for c in ledger.by_id()["title"].en.checks)
    prompts = [load_prompt(n) for n in LedgerPrompts.NAMES]
    checks = review(ledger, EVIDENCE, "en", ["PagedAttention"], prompts).checks
    grounded = next(c for c in checks if c.name == "sentences_grounded")
    assert not any(str(f.place) == "en title" for f in grounded.findings)  # the review agrees


def test_a_fact_whose_every_translation_changes_a_number_is_left_out():
    def inventing(body: dict) -> str:
        """A Chinese that states another number: 16 tokens become 61."""
        item = asked_item(body)
        return json.dumps({"text": CHINESE.get(item, item).replace("16", "61")})

    replies = PromptReplies(rewrite_facts_en=answering(rewrite), translate_sentences_zh=inventing)
    llm, _ = scripted_llm(replies, slots=2)
    ledger = write_ledger(OUTLINE, NOTES, EVIDENCE, ["PagedAttention"], llm, LedgerPrompts.load())
    blocks = ledger.by_id()["f-s-03.0"]
    assert blocks.zh.left_out and [c.check for c in blocks.zh.rejected] == ["numbers"]
    for lang in ("zh", "en"):  # neither article says it: they print the same facts
        said = " ".join(p.text for s in ledger.text(lang).sections for p in s.paragraphs)
        assert "61" not in said and "16" not in said
    assert ledger.text("en").sections[-1].paragraphs  # its neighbours stand


def test_a_fact_said_again_is_printed_once_citing_both_sources():
    from pipeline.ledger import unrepeated
    from pipeline.ledger.arrange import PlannedChapter
    from pipeline.schema.ledger import FactSource, LedgerSentence, Written

    def fact(id: str, unit: str, text: str) -> tuple[FactSource, LedgerSentence]:
        source = FactSource(id=id, unit=unit, kind="speech", text=text)
        written = Written(text=text, checks=[])
        return source, LedgerSentence(id=f"f-{id}", kind="fact", units=[unit], en=written)

    made = [
        fact("a", "s-03", "Blocks of 16 tokens are handed out on demand."),
        fact("b", "t-00:02:00", "On demand, blocks of 16 tokens are handed out."),
        fact("c", "t-00:02:10", "Blocks of 32 tokens are handed out on demand."),  # a new number
        fact("d", "t-00:02:20", "Paging the KV cache."),  # says only its heading
    ]
    chapter = Chapter(title="Paging the KV cache", sections=["sec-01"])
    planned = [PlannedChapter(chapter, [[source for source, _ in made]])]
    kept = unrepeated(planned, {s.id: f for s, f in made}, "en")
    assert list(kept) == ["a", "c"] and kept["a"].units == ["s-03", "t-00:02:00"]
