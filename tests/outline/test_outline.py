import json

from pipeline.core.prompts import load_prompt
from pipeline.outline import build_outline
from pipeline.outline.headings import heading_of
from pipeline.schema import Evidence, EvidenceUnit, FactSource, Notes, Section, TalkMeta
from tests.llm_double import scripted_llm

EVIDENCE = Evidence(
    units=[
        EvidenceUnit(
            id="s-01",
            kind="slide",
            text="Why memory is wasted\nReserving the maximum "
            "length wastes 60 to 80 percent of memory",
            slide=1,
        ),
        EvidenceUnit(id="s-02", kind="slide", text="Paging", slide=2),
        EvidenceUnit(id="s-03", kind="slide", text="What is next", slide=3),
    ]
)


def section(n: int, title: str | None, *statements: str) -> Section:
    unit = f"s-0{n}"
    facts = [
        FactSource(id=f"{unit}.{k}", unit=unit, kind="slide", text=s)
        for k, s in enumerate(statements)
    ]
    return Section(id=f"sec-0{n}", title=title, unit_ids=[unit], facts=facts)


NOTES = Notes(
    language="en",
    sections=[
        section(1, "Why memory is wasted", "Reserving the maximum length wastes 60 to 80 percent."),
        section(2, "Paging", "The cache is kept in blocks."),
        section(3, "What is next", "Sharing prefixes is future work."),
    ],
)


def chapter(first: str, title: str, role: str) -> dict:
    return {"first_section": first, "title": title, "role": role}


def plan(*chapters: dict, title="Paging the KV cache", summary=None, tags=("kv cache", "Serving")):
    """The outline's reply."""
    return json.dumps(
        {
            "title": title,
            "summary": summary or "From wasted memory to paged blocks: how the cache is kept.",
            "tags": list(tags),
            "chapters": list(chapters),
        }
    )


def untitled(notes: Notes) -> Notes:
    """The notes without slide titles to fall back on (a talk given as subtitles)."""
    notes = notes.model_copy(deep=True)
    for s in notes.sections:
        s.title = ""
    return notes


def outline_with(
    *chapters: dict, title="Paging the KV cache", summary=None, meta=None, notes=NOTES
):
    llm, endpoint = scripted_llm([plan(*chapters, title=title, summary=summary)])
    outline = build_outline(notes, EVIDENCE, meta or TalkMeta(), llm, load_prompt("outline"))
    return outline, endpoint


def test_chapters_run_in_talk_order_and_cover_every_section_once():
    outline, endpoint = outline_with(
        chapter("sec-02", "How paging works", "mechanism"),
        chapter("sec-01", "Where memory goes", "problem"),
    )
    assert [c.sections for c in outline.chapters] == [["sec-01"], ["sec-02", "sec-03"]]
    assert [c.role for c in outline.chapters] == ["problem", "mechanism"]
    assert "[sec-01] (Why memory is wasted) Reserving" in endpoint.user_messages()[0]


def test_the_opening_belongs_to_the_first_chapter_and_roles_are_not_forced():
    outline, _ = outline_with(chapter("sec-02", "How paging works", "mechanism"))
    assert outline.chapters[0].sections == ["sec-01", "sec-02", "sec-03"]
    outline, _ = outline_with(
        chapter("sec-01", "Where memory goes", "problem"),
        chapter("sec-02", "How paging works", "results"),  # no number: not results
    )
    assert [c.role for c in outline.chapters] == ["problem", None]


def test_a_slide_fragment_or_an_echoed_title_is_replaced():
    outline, _ = outline_with(
        chapter("sec-01", "wastes 60 to 80 percent of memory", "problem"),
        chapter("sec-02", "Use a role only where it fits", "mechanism"),
        chapter(
            "sec-03",
            "What is next: Sharing prefixes is future work, and so is everything else",
            "none",
        ),
    )
    assert [c.title for c in outline.chapters] == ["Why memory is wasted", "Paging", "What is next"]


def test_talk_yaml_title_wins_and_a_chinese_talk_needs_chinese_headings():
    outline, _ = outline_with(chapter("sec-01", "Memory", "problem"), meta=TalkMeta(title="Given"))
    assert outline.title == "Given"
    zh_notes = NOTES.model_copy(update={"language": "zh"})
    llm, _ = scripted_llm(
        [
            json.dumps(
                {
                    "title": "分页",
                    "summary": "从内存浪费出发，拆解分页。",
                    "tags": ["KV CACHE"],
                    "chapters": [chapter("sec-01", "English title here", "problem")],
                }
            )
        ]
    )
    outline = build_outline(zh_notes, EVIDENCE, TalkMeta(), llm, load_prompt("outline"))
    assert outline.title == "分页"
    # its slide title is English too, and a role's name (问题) heads nothing: the lead
    assert outline.chapters[0].title == ""


def test_tags_are_kept_only_when_the_talk_says_their_words():
    outline, _ = outline_with(chapter("sec-01", "Where memory goes", "problem"))
    assert outline.tags == []  # "KV CACHE" and "SERVING": words the slides never use
    assert any("tags the talk never mentions" in w for w in outline.warnings)
    evidence = EVIDENCE.model_copy(
        update={
            "units": [
                *EVIDENCE.units,
                EVIDENCE.units[0].model_copy(
                    update={"id": "s-04", "text": "Serving with a KV cache"}
                ),
            ]
        }
    )
    reply = {
        "title": "Paging the KV cache",
        "summary": "From wasted memory to paged blocks: how the cache is kept.",
        "tags": ["kv cache", "Serving", "Quantum computing"],
        "chapters": [chapter("sec-01", "Where memory goes", "problem")],
    }
    llm, _ = scripted_llm([json.dumps(reply)])
    outline = build_outline(NOTES, evidence, TalkMeta(), llm, load_prompt("outline"))
    assert outline.tags == ["KV CACHE", "SERVING"]


def test_a_chapter_without_a_heading_of_its_own_joins_the_one_before():
    notes = untitled(NOTES)
    notes.sections[1].terms = ["PagedAttention", "KV cache"]  # a pair of names heads nothing
    reply = plan(
        chapter("sec-01", "Where memory goes", "problem"),
        chapter("sec-02", "wastes 60 to 80 percent of memory", "none"),  # a cut line
        chapter("sec-03", "Use a role only where it fits", "none"),  # an echo, no role
        tags=["Serving"],
    )
    llm, _ = scripted_llm([reply])
    outline = build_outline(notes, EVIDENCE, TalkMeta(), llm, load_prompt("outline"))
    # sec-02 and sec-03 have no heading a writer would print: they join sec-01
    assert [(c.title, c.sections) for c in outline.chapters] == [
        ("Where memory goes", ["sec-01", "sec-02", "sec-03"]),
    ]
    assert not any(c.title.startswith("Part") for c in outline.chapters)


def test_two_chapters_with_one_heading_become_one():
    outline, _ = outline_with(
        chapter("sec-01", "Where memory goes", "problem"),
        chapter("sec-02", "Where memory goes", "mechanism"),
    )
    assert [c.sections for c in outline.chapters] == [["sec-01", "sec-02", "sec-03"]]


def test_a_chapter_is_headed_by_its_slide_title_and_no_heading_heads_two():
    planned = (
        chapter("sec-01", "Where memory goes", "problem"),
        chapter("sec-02", "How paging works", "mechanism"),
        chapter("sec-03", "Where memory goes", "none"),  # the plan said it twice
    )
    outline, _ = outline_with(*planned)
    # the speaker's own headings, for what each chapter holds
    assert [c.title for c in outline.chapters] == ["Why memory is wasted", "Paging", "What is next"]
    spoken, _ = outline_with(*planned, notes=untitled(NOTES))
    # no slide titles: the plan's headings, the one said twice joins the chapter before
    assert [(c.title, c.sections) for c in spoken.chapters] == [
        ("Where memory goes", ["sec-01"]),
        ("How paging works", ["sec-02", "sec-03"]),
    ]


def test_a_title_gets_a_subtitle_naming_what_its_mechanism_chapters_explain():
    from pipeline.outline.subtitle import subtitle_terms
    from pipeline.outline.subtitle import with_subtitle as subtitled
    from pipeline.schema import Chapter, GlossaryEntry

    def with_subtitle(title, chapters, notes, evidence, meta):
        return subtitled(title, subtitle_terms(title, chapters, notes, evidence, meta))

    notes = Notes(
        language="en",
        sections=[
            section(1, "The KV cache eats GPU memory", "The KV cache grows with every token."),
            section(
                2, "Technique2: PagedAttention", "PagedAttention keeps the KV cache in blocks."
            ),
            section(3, "Prefix caching", "Prefix caching shares blocks. Prefix caching saves."),
            section(4, "Ada Lindqvist", "Ada Lindqvist thanks Ada Lindqvist's team."),
        ],
    )
    terms = ["Technique2", "KV cache", "PagedAttention", "prefix caching", "GPU memory"]
    terms += ["Ada Lindqvist"]
    evidence = EVIDENCE.model_copy(update={"glossary": [GlossaryEntry(term=t) for t in terms]})
    chapters = [
        Chapter(title="Where memory goes", role="problem", sections=["sec-01"]),
        Chapter(title="Pages for the cache", role="mechanism", sections=["sec-02"]),
        Chapter(title="Sharing what requests share", role="mechanism", sections=["sec-03"]),
        Chapter(title="Thanks", role=None, sections=["sec-04"]),
    ]
    meta = TalkMeta(speaker="Ada Lindqvist")
    title = "Serving LLMs without wasting GPU memory"
    # the first term each mechanism chapter names, then those mentioned twice (KV cache is
    # once); never a term of the title (GPU memory), nor the speaker
    assert with_subtitle(title, chapters, notes, evidence, meta) == (
        "Serving LLMs without wasting GPU memory: PagedAttention and prefix caching"
    )
    once = notes.sections[1]
    notes.sections[1] = section(2, "PagedAttention", *["The KV cache in PagedAttention."] * 2)
    assert with_subtitle(title, chapters, notes, evidence, meta).endswith(
        ": PagedAttention, prefix caching and KV cache"
    )
    assert with_subtitle("分页：KV cache", chapters, notes, evidence, meta) == "分页：KV cache"
    assert with_subtitle("分页", chapters, notes, evidence, meta) == (
        "分页：PagedAttention、prefix caching 与 KV cache"
    )
    notes.sections[1] = once
    # one term is no summary of a talk
    assert with_subtitle(title, chapters[:2], notes, evidence, meta) == title


def test_a_slide_titles_series_label_and_aside_are_left_out_of_its_heading():
    labelled = NOTES.model_copy(deep=True)
    for s, title in zip(
        labelled.sections,
        ["Technique2: Why memory is wasted", "Paging (Lower is Better)", "Question & Answer"],
        strict=True,
    ):
        s.title = title
    outline, _ = outline_with(
        chapter("sec-01", "Where memory goes", "problem"),
        chapter("sec-02", "How paging works", "mechanism"),
        chapter("sec-03", "Llama3: what comes next", "none"),  # a name, not a series label…
        notes=labelled,
    )
    # the closing slide's title heads nothing; Llama3 is never said in its chapter
    assert [(c.title, c.sections) for c in outline.chapters] == [
        ("Why memory is wasted", ["sec-01"]),
        ("Paging", ["sec-02", "sec-03"]),
    ]
    assert heading_of("Llama3: what comes next") == "Llama3: what comes next"
    assert heading_of("2025 Highlight: DeepSeek V3 Optimization") == "DeepSeek V3 Optimization"
    assert heading_of("第二讲：推理框架") == "推理框架"
    assert heading_of("Part 4") == "Part 4"  # nothing left to name: a check elsewhere


def test_a_label_stays_when_the_title_without_it_reads_as_a_cut():
    from pipeline.outline.headings import TitleCheck, chapter_title

    evidence = Evidence(
        units=[EvidenceUnit(id="t-1", kind="transcript", text="Topics: Where memory goes, and why")]
    )
    check = TitleCheck(evidence, load_prompt("outline"), "en")
    assert check.problems("Where memory goes")  # a cut of the spoken line
    assert chapter_title("Technique2: Where memory goes", [], None, check) == (
        "Technique2: Where memory goes"
    )


def test_a_title_whose_whole_reads_as_a_cut_heads_without_its_label():
    from pipeline.outline.headings import TitleCheck, chapter_title

    said = "2025 Highlight: Model Deployment Orchestration (OME operator)"
    evidence = Evidence(units=[EvidenceUnit(id="t-1", kind="transcript", text=said)])
    check = TitleCheck(evidence, load_prompt("outline"), "en")
    assert check.problems("2025 Highlight: Model Deployment Orchestration")  # a cut of it
    title = chapter_title("2025 Highlight: Model Deployment Orchestration", [], None, check)
    assert title == "Model Deployment Orchestration"  # not the next section's heading


def test_a_role_s_name_is_no_heading_the_slide_s_title_is():
    outline, _ = outline_with(
        chapter("sec-01", "Problem", "problem"),
        chapter("sec-02", "Mechanism", "mechanism"),
        chapter("sec-03", "机制", "none"),
    )
    assert [c.title for c in outline.chapters] == ["Why memory is wasted", "Paging", "What is next"]


def test_a_chapter_over_many_sections_is_split_at_a_slide_title():
    topics = ["Paging", "Prefix caching", "Scheduling", "2025 Highlight: Offloading", "Routing"]
    notes = Notes(
        language="en",
        sections=[
            section(n, title, f"{title.split(': ')[-1]} is explained here.")
            for n, title in enumerate(topics, start=1)
        ]
        + [section(6, "Questions", "Offloading is future work.")],
    )
    llm, _ = scripted_llm([plan(chapter("sec-01", "Serving the cache", "mechanism"))])
    outline = build_outline(notes, EVIDENCE, TalkMeta(), llm, load_prompt("outline"))
    assert [(c.title, c.sections, c.role) for c in outline.chapters] == [
        ("Paging", ["sec-01", "sec-02", "sec-03"], "mechanism"),
        ("Offloading", ["sec-04", "sec-05", "sec-06"], "mechanism"),
    ]


def test_chapters_the_plan_heads_alike_are_one_before_a_long_one_is_split():
    topics = ["Paging", "Prefix caching", "Scheduling", "Offloading", "Routing", "Batching"]
    topics += ["Quantization", "Speculation", "Kernels", "Attention", "Sampling", "Tokenizers"]
    notes = Notes(
        language="en",
        sections=[
            section(n, topic, f"{topic} is explained here.") for n, topic in enumerate(topics, 1)
        ],
    )
    # The plan fills MAX_CHAPTERS, its last three chapters headed alike: joined only after
    # the split, they would be one chapter over seven sections.
    planned = [chapter(f"sec-0{n}", topics[n - 1], "mechanism") for n in range(1, 6)]
    planned += [chapter(f"sec-0{n}", "Serving at scale", "mechanism") for n in (6, 8, 10)]
    llm, _ = scripted_llm([plan(*planned)])
    outline = build_outline(notes, EVIDENCE, TalkMeta(), llm, load_prompt("outline"))
    assert [len(c.sections) for c in outline.chapters] == [1, 1, 1, 1, 1, 3, 2, 2]
    assert [c.title for c in outline.chapters][5:] == ["Batching", "Kernels", "Sampling"]


def test_a_long_chapter_of_a_talk_without_slides_is_split_at_its_middle_and_named():
    topics = ["Paging", "Prefix caching", "Scheduling", "Offloading", "Routing", "Batching"]
    notes = Notes(
        language="en",
        sections=[
            section(n, None, f"{topic} is explained here.") for n, topic in enumerate(topics, 1)
        ],  # subtitles: no slide titles at all
    )
    replies = [plan(chapter("sec-01", "Serving the cache", "mechanism"))]
    llm, _ = scripted_llm([*replies, json.dumps({"title": "Offloading and routing"})])
    outline = build_outline(
        notes, EVIDENCE, TalkMeta(), llm, load_prompt("outline"), load_prompt("outline_heading")
    )
    assert [(c.title, c.sections) for c in outline.chapters] == [
        ("Serving the cache", ["sec-01", "sec-02", "sec-03"]),
        ("Offloading and routing", ["sec-04", "sec-05", "sec-06"]),
    ]


def test_a_split_piece_the_model_cannot_name_joins_the_chapter_before():
    said = [
        "DeepSeek trains R1 with RL.", "DeepSeek R1 uses RL rewards.", "RL shapes R1 output.",
        "PPO needs a critic model.", "GRPO drops the critic of PPO.",
        "GRPO averages PPO-style rewards.",
    ]  # fmt: skip
    notes = Notes(
        language="en", sections=[section(n, None, text) for n, text in enumerate(said, 1)]
    )
    replies = [plan(chapter("sec-01", "Training DeepSeek R1", "mechanism"))]
    llm, _ = scripted_llm([*replies, "not json", "not json"])  # the namer answers nothing
    outline = build_outline(
        notes, EVIDENCE, TalkMeta(), llm, load_prompt("outline"), load_prompt("outline_heading")
    )
    # no "PPO and GRPO": a pair of names is no heading a writer would print
    assert [(c.title, c.sections) for c in outline.chapters] == [
        ("Training DeepSeek R1", ["sec-01", "sec-02", "sec-03", "sec-04", "sec-05", "sec-06"]),
    ]


def test_a_plan_at_its_chapter_limit_joins_short_chapters_to_split_a_long_one():
    topics = [f"Topic{n} is explained here." for n in range(1, 13)]  # twelve sections
    notes = Notes(language="en", sections=[section(n, None, t) for n, t in enumerate(topics, 1)])
    firsts = [chapter(f"sec-{n:02d}", f"Topic{n}", "none") for n in range(1, 8)]
    firsts += [chapter("sec-08", "Topic8", "none")]  # eight chapters, the last over five
    llm, _ = scripted_llm([plan(*firsts), *['{"title": "Topic"}'] * 8])
    outline = build_outline(
        notes, EVIDENCE, TalkMeta(), llm, load_prompt("outline"), load_prompt("outline_heading")
    )
    assert len(outline.chapters) <= 8
    assert all(len(c.sections) <= 3 for c in outline.chapters)  # no run of five left
    assert [s for c in outline.chapters for s in c.sections] == [s.id for s in notes.sections]


def test_the_speakers_name_is_no_heading():
    from pipeline.outline.headings import TitleCheck

    check = TitleCheck(EVIDENCE, load_prompt("outline"), "en").taking(speaker="Ada Lindqvist")
    assert check.problems("Ada Lindqvist") and check.problems("Lindqvist")
    assert check.problems("Ada's view of paging") and check.problems("Paging: what ADA found")
    assert check.problems("Adaptive paging") == []  # a word of the name, not a part of one
    two = TitleCheck(EVIDENCE, load_prompt("outline"), "en").taking(
        speaker="Ke Bao and Yineng Zhang (narrated by talk2article)"
    )
    assert two.problems("Zhang on kernels") and two.problems("Prefill and decode by chunks") == []
    zh = TitleCheck(EVIDENCE, load_prompt("outline"), "zh").taking(speaker="ZOMI")
    assert zh.problems("ZOMI对强化学习的看法") and zh.problems("强化学习的奖励设计") == []


def test_a_heading_cut_at_the_replys_length_limit_is_not_kept():
    from pipeline.outline.headings import MAX_HEADING_CHARS, TitleCheck

    cut = "GPU Memory Limitations: Fixing with KV-Cache Paging, Prefix Caching, and Continu"
    assert len(cut) == MAX_HEADING_CHARS
    check = TitleCheck(EVIDENCE, load_prompt("outline"), "en")
    assert "cut off at the reply's length limit" in check.problems(cut)
    assert check.problems(cut[:60].strip()) == []


def test_a_series_label_does_not_hide_the_talks_own_title_as_a_heading():
    from pipeline.outline.headings import TitleCheck, chapter_title

    check = TitleCheck(EVIDENCE, load_prompt("outline"), "en").taking("Where memory goes")
    assert chapter_title("Technique2: Where memory goes", [], "problem", check) is None


def test_a_heading_or_summary_that_repeats_the_articles_title_is_replaced():
    # a small model heads the first chapter with the talk's title and gives it again as the
    # summary: the heading names the whole talk, the card says nothing more than its title
    outline, _ = outline_with(
        chapter("sec-01", "Paging the KV cache", "problem"),
        chapter("sec-02", "How paging works", "mechanism"),
        summary="Paging the KV cache.",
    )
    assert outline.chapters[0].title == "Why memory is wasted"  # its slide's title
    # none is composed in its place: the card and the article print no summary line
    assert outline.summary == ""
    assert "outline: proposed summary 'Paging the KV cache.' rejected" in outline.warnings


def test_a_summary_in_the_speakers_voice_or_naming_what_the_talk_never_says_is_replaced():
    for said in ("I show how we keep the cache in blocks.", "vLLM keeps the cache in blocks."):
        outline, _ = outline_with(chapter("sec-01", "Where memory goes", "problem"), summary=said)
        assert outline.summary != said
        assert f"outline: proposed summary {said!r} rejected" in outline.warnings


def test_a_summary_that_is_no_sentence_is_not_printed():
    said = "Paged KV cache blocks in serving, focusing on the memory they save."  # no verb
    outline, _ = outline_with(chapter("sec-01", "Where memory goes", "problem"), summary=said)
    assert outline.summary == ""
    assert f"outline: proposed summary {said!r} rejected" in outline.warnings


def test_a_talk_whose_plan_is_in_the_wrong_language_is_titled_by_its_first_chapter():
    # a Chinese lecture given as subtitles, planned in English by the model: no chatter
    # of the first sentence said becomes its title or its card's summary
    lecture = untitled(NOTES).model_copy(update={"language": "zh"})
    for s, said in zip(lecture.sections, ["显存浪费严重", "分页管理缓存", "共享前缀"], strict=True):
        s.facts = [s.facts[0].model_copy(update={"text": f"{said}，这是第 {s.id[-1]} 部分。"})]
    planned = [chapter("sec-01", "显存为何浪费", "problem"), chapter("sec-02", "分页", "mechanism")]
    outline, _ = outline_with(*planned, title="Paging", summary="Paging wins.", notes=lecture)
    assert outline.title == "显存为何浪费" and outline.summary == ""
    assert outline.chapters[0].title == ""  # the lead: no heading says the title again


def test_a_summary_about_the_article_itself_is_not_kept():
    for said in (
        "This article explores how paging keeps the KV cache in blocks.",
        "The article takes apart paging and prefix caching.",
    ):
        outline, _ = outline_with(chapter("sec-01", "Where memory goes", "problem"), summary=said)
        assert outline.summary == ""
        assert f"outline: proposed summary {said!r} rejected" in outline.warnings


def test_a_chapter_headed_with_a_copied_note_is_named_on_its_own():
    # planning a long talk at once, a small model heads a chapter with a note copied whole
    # (a sentence); asked for that chapter's heading alone it names the topic, checked like
    # any heading: a role's name or words the notes do not say are asked again, then none,
    # and the chapter joins the one before (a role's name heads nothing a reader can find)
    replies = [
        plan(
            chapter("sec-01", "Where memory goes", "problem"),
            chapter("sec-02", "The cache is kept in blocks.", "mechanism"),
            chapter("sec-03", "Sharing prefixes is future work.", "limits"),
        ),
        json.dumps({"title": "Cache blocks"}),
        json.dumps({"title": "Results"}),  # a role, not a topic: asked again
        json.dumps({"title": "Quantum gravity"}),  # not in the notes: no heading
    ]
    llm, endpoint = scripted_llm(replies)
    prompts = load_prompt("outline"), load_prompt("outline_heading")
    outline = build_outline(untitled(NOTES), EVIDENCE, TalkMeta(), llm, *prompts)
    assert [(c.title, c.sections) for c in outline.chapters] == [
        ("Where memory goes", ["sec-01"]),
        ("Cache blocks", ["sec-02", "sec-03"]),
    ]
    asked = endpoint.user_messages()[1]
    assert "The cache is kept in blocks." in asked and "in English (2 to 8 words)" in asked
    assert (
        "a role's name, not what the chapter is about"
        in endpoint.requests[3]["messages"][0]["content"]
    )


def test_a_heading_naming_what_its_chapter_never_says_is_not_kept():
    from pipeline.notes import what_it_states
    from pipeline.outline.headings import ungrounded

    vllm = what_it_states([section(7, None, "vLLM 把 KV cache 分成固定大小的块。")])
    assert [(c.check, c.detail) for c in ungrounded("sglang的性能与挑战", vllm, "zh")] == [
        ("names", "not in its source: sglang")
    ]
    assert ungrounded("vLLM 的性能与挑战", vllm, "zh") == []
    paging = what_it_states([section(2, "Paging", "The cache is in blocks.")])
    assert "not in its source: FP8" in [
        c.detail for c in ungrounded("Where FP8 helps", paging, "en")
    ]
    assert [(c.check, c.detail) for c in ungrounded("How we page the cache", paging, "en")] == [
        ("voice", "we")
    ]
    outline, _ = outline_with(
        chapter("sec-01", "Where memory goes", "problem"),
        chapter("sec-02", "How vLLM pages memory", "mechanism"),  # the notes never say vLLM
        notes=untitled(NOTES),
    )
    assert [c.title for c in outline.chapters] == ["Where memory goes"]  # joined: no heading


def test_an_hour_long_talk_may_have_more_chapters_than_a_half_hour_one():
    from pipeline.outline import MAX_CHAPTERS, MOST_CHAPTERS, chapter_limit

    def talk(minutes: float) -> Evidence:
        said = EvidenceUnit(id="t-1", kind="transcript", text="x", start=0.0, end=minutes * 60)
        return Evidence(units=[said])

    assert chapter_limit(talk(3)) == chapter_limit(talk(30)) == MAX_CHAPTERS
    assert MAX_CHAPTERS < chapter_limit(talk(51)) < chapter_limit(talk(62)) == MOST_CHAPTERS
    assert chapter_limit(talk(180)) == MOST_CHAPTERS
