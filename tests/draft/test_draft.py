import json
from collections.abc import Callable

from pipeline.draft import DraftPrompts, fewest_findings, without_stubs, write_drafts
from pipeline.schema import (
    Chapter,
    Claim,
    DraftParagraph,
    DraftSection,
    Evidence,
    EvidenceUnit,
    Notes,
    Outline,
    Section,
)
from tests.llm_double import PromptReplies, SchemaReplies, scripted_llm

EVIDENCE = Evidence(
    units=[
        EvidenceUnit(
            id="t-00:00:00",
            kind="transcript",
            text="Reserving the maximum length for every request wastes 60 to 80 percent of "
            "KV cache memory.",
            start=0.0,
        ),
        EvidenceUnit(
            id="t-00:00:06",
            kind="transcript",
            text="PagedAttention keeps the KV cache in blocks of 16 tokens, handed out on demand.",
            start=6.0,
        ),
        EvidenceUnit(id="s-02", kind="slide", text="Blocks of 16 tokens", slide=2),
    ]
)
# The claims say the passages in words of their own: a claim copying speech is restated
# first (test_restate.py).
WASTE = Claim(
    statement="60 to 80 percent of the KV cache memory is wasted by reserving the maximum length.",
    units=["t-00:00:00"],
    numbers=["60 to 80 percent"],
    terms=["KV cache"],
)
BLOCKS = Claim(
    statement="The KV cache is kept by PagedAttention in blocks of 16 tokens.",
    units=["t-00:00:06"],
    numbers=["16 tokens"],
    terms=["PagedAttention", "KV cache"],
)
GOOD = (  # the facts of the notes, in other words than the passages'
    "When every request reserves the maximum length, 60 to 80 percent of KV cache memory is "
    "wasted. PagedAttention instead keeps the KV cache in 16-token blocks handed out on demand."
)
ZH = (
    "为每个请求预留最大长度会浪费 60 到 80% 的 KV cache 内存。"
    "PagedAttention 把 KV cache 存进 16 个 token 的块中。"
)
TERMS = ["KV cache", "PagedAttention", "prefix caching"]


def notes(*sections: list[Claim], language="en") -> Notes:
    return Notes(
        language=language,
        sections=[
            Section(
                id=f"sec-0{n}",
                title="PagedAttention blocks" if n == 1 else "",
                unit_ids=["t-00:00:00", "t-00:00:06"],
                claims=claims,
            )
            for n, claims in enumerate(sections, start=1)
        ],
    )


def outline(count: int, language="en") -> Outline:
    sections = [f"sec-0{n}" for n in range(1, count + 1)]
    return Outline(
        language=language,
        title="Paging the KV cache" if language == "en" else "分页的 KV cache",
        summary="Memory waste leads to paging."
        if language == "en"
        else "从内存浪费出发，拆解分页。",
        chapters=[
            Chapter(
                title="Paging" if language == "en" else "分页", role="mechanism", sections=sections
            )
        ],
    )


def text(value: str) -> str:
    return json.dumps({"text": value})


def draft_with(
    paragraphs: list[str],
    translations: list[str],
    count=1,
    language="en",
    evidence=EVIDENCE,
    claims=(WASTE, BLOCKS),
    restatements=(),
):
    prompts = DraftPrompts.load()
    translate = "translate_zh" if language == "en" else "translate_en"
    replies = PromptReplies(
        write_paragraph=[text(p) for p in paragraphs],
        **{translate: [text(t) for t in translations]},
        **{f"restate_{language}": [text(r) for r in restatements]},
    )
    llm, endpoint = scripted_llm(replies)
    sections = [list(claims)] + [[claims[-1]]] * (count - 1)
    result = write_drafts(
        outline(count, language), notes(*sections, language=language), evidence, TERMS, llm, prompts
    )
    return result, endpoint, replies


def test_a_grounded_paragraph_cites_its_claims_units_and_is_translated():
    draft, endpoint, _ = draft_with([GOOD], [ZH, "分页", "分页的 KV cache", "内存浪费导致分页。"])
    [paragraph] = draft.en.sections[0].paragraphs
    assert paragraph.text == GOOD and paragraph.citations == ["t-00:00:00", "t-00:00:06"]
    assert draft.zh.sections[0].paragraphs[0].citations == paragraph.citations
    assert (draft.zh.title, draft.zh.summary) == ("分页的 KV cache", "内存浪费导致分页。")
    assert draft.revisions == []
    assert "keep these terms" not in endpoint.user_messages()[1]  # asked in Chinese
    assert "KV cache, PagedAttention" in endpoint.user_messages()[1]
    # what the notes are about: their slide's title, for a bullet that does not name it
    assert "The notes are about: PagedAttention blocks" in endpoint.user_messages()[0]
    # names go to the translator marked as code, and come back without the marks
    assert "`PagedAttention` instead keeps the `KV cache`" in endpoint.user_messages()[1]


def seeded(fault: str, finding: str):
    """A first paragraph with `fault` is redrafted; the retry is told `finding`."""
    draft, endpoint, _ = draft_with(
        [fault, GOOD], [ZH, "分页", "分页的 KV cache", "内存浪费带来分页。"]
    )
    assert draft.en.sections[0].paragraphs[0].text == GOOD
    [revision] = draft.revisions
    assert revision.action == "redrafted" and any(finding in f for f in revision.findings)
    assert "A previous version had these problems" in endpoint.requests[1]["messages"][0]["content"]


def test_an_invented_number_is_redrafted():
    seeded(GOOD.replace("60 to 80", "60 to 85"), "number 85 is not in the cited passages")


def test_an_unsupported_sentence_is_redrafted():
    seeded(GOOD + " This makes every chatbot twice as cheap to run for startups.", "unsupported")


def test_an_echo_of_the_prompt_is_redrafted():
    seeded(GOOD + " Use only the facts in the notes.", "repeats the instructions")


def test_a_chinese_sentence_in_english_is_redrafted():
    seeded(GOOD + " 块大小是 16 个 token。", "not in English")


def test_an_acronym_spelled_out_in_words_the_talk_never_said_is_redrafted():
    spelled = GOOD.replace("KV cache memory", "Key Value (KV) cache memory")
    seeded(spelled, "spells out KV (Key Value)")


def test_a_paragraph_in_the_speakers_voice_is_asked_again():
    seeded("In our benchmark, w" + GOOD[1:], "speaks as the speaker")


def test_a_misspelt_deck_term_is_redrafted():
    seeded(GOOD.replace("PagedAttention", "paged attention"), "'PagedAttention'")


def test_a_paragraph_failing_twice_loses_its_failing_sentences():
    bad = GOOD + " Startups save millions of dollars with it."
    draft, _, _ = draft_with([bad, bad], [ZH, "分页", "分页的 KV cache", "内存浪费带来分页。"])
    assert draft.en.sections[0].paragraphs[0].text == GOOD
    assert draft.revisions[0].action == "pruned"


def test_a_paragraph_with_nothing_left_to_keep_is_replaced_by_its_claims():
    bad = "Startups save millions of dollars with it, every single year."
    draft, _, _ = draft_with([bad, bad], [ZH, "分页", "分页的 KV cache", "内存浪费带来分页。"])
    assert draft.en.sections[0].paragraphs[0].text == f"{WASTE.statement} {BLOCKS.statement}"
    assert draft.revisions[0].action == "replaced by its claims"
    assert draft.fallbacks == ["en §1¶1: replaced by its claims"]  # never plain `succeeded`


def test_a_duplicate_paragraph_keeps_only_what_its_own_claims_support():
    draft, _, _ = draft_with(
        [GOOD, GOOD, GOOD], [ZH, "分页", "分页的 KV cache", "内存浪费带来分页。"], count=2
    )
    texts = [p.text for p in draft.en.sections[0].paragraphs]
    # The second section's claims say nothing of the 60 to 80 percent: that sentence goes;
    # what is left the first paragraph already said, so it goes too.
    assert texts == [GOOD]
    assert [(r.where, r.action) for r in draft.revisions] == [
        ("en §1¶2", "pruned"),
        ("en §1¶2", "repeats removed"),
    ]
    assert draft.fallbacks == []


def test_a_sentence_said_twice_in_an_article_is_kept_once():
    first, second = GOOD.split(". ")
    later = f"{second} The blocks are handed out on demand, 16 tokens each, as a request grows."
    draft, _, _ = draft_with(
        [GOOD, later], [ZH, "块。", "分页", "分页的 KV cache", "内存浪费带来分页。"], count=2
    )
    texts = [p.text for p in draft.en.sections[0].paragraphs]
    assert texts == [GOOD, later.split(". ", 1)[1]]
    assert draft.revisions[0].action == "repeats removed"
    assert draft.revisions[0].findings == [f"repeats what the article said: {second!r}"]


def test_a_translation_that_says_an_earlier_sentence_again_keeps_it_once():
    # two English sentences in other words, translated alike
    blocks = "PagedAttention 按需把 KV cache 分配到 16 个 token 大小的块里。"
    first = "为每个请求预留最大长度会浪费 60 到 80% 的 KV cache 内存。" + blocks
    later = "PagedAttention hands out the blocks of 16 tokens of the KV cache on demand."
    translations = ["分页", "分页的 KV cache", "内存浪费带来分页。"]
    rest = "PagedAttention 给 KV cache 的每块有 16 个 token。"  # its source's terms stay
    again = blocks + rest
    draft, _, _ = draft_with(
        [GOOD, later + " Each block holds 16 tokens."], [first, again, *translations], count=2
    )
    assert [p.text for p in draft.zh.sections[0].paragraphs] == [first, rest]
    [revision] = draft.revisions
    assert (revision.where, revision.action) == ("zh §1¶2", "repeats removed")
    # a translation that only repeats stays whole (its source keeps the paragraph), and so
    # does one whose repeat carries a number of its source: both languages keep the number
    for kept in (blocks, blocks + "这些块随请求增长而分配。"):
        draft, _, _ = draft_with([GOOD, later], [first, kept, *translations], count=2)
        assert [p.text for p in draft.zh.sections[0].paragraphs] == [first, kept]
        assert draft.revisions == []


def test_a_translations_repeat_that_carries_a_house_term_of_its_source_stays():
    # the repeated sentence is the only one that writes 前缀缓存 (prefix caching): cutting
    # it would leave the Chinese without a term its source has, which the review finds
    from pipeline.draft import loses_terms

    source = "Prefix caching reuses the blocks of a shared prefix, handed out on demand."
    whole = "前缀缓存复用共享前缀的块。这些块按需分配。"
    assert loses_terms(whole, "这些块按需分配。", source)
    assert not loses_terms(whole, "前缀缓存按需分配这些块。", source)
    assert not loses_terms("Blocks.", "", "块。")  # English translations: numbers only


def test_a_number_of_the_notes_left_out_is_redrafted():
    seeded(GOOD.replace("16-token ", ""), "the number 16 of the notes is missing")


def test_a_translation_that_drops_a_kept_term_is_redone():
    translated = ZH.replace("PagedAttention", "它")
    draft, _, _ = draft_with(
        [GOOD], [translated, ZH, "分页", "分页的 KV cache", "内存浪费带来分页。"]
    )
    assert draft.zh.sections[0].paragraphs[0].text == ZH
    assert draft.revisions[0].where == "zh §1¶1"


def test_a_chinese_talk_is_written_in_chinese_and_translated_into_english():
    draft, _, replies = chinese_talk([GOOD, *HEADINGS])
    assert draft.zh.sections[0].paragraphs[0].text == ZH
    assert draft.en.sections[0].paragraphs[0].text == GOOD
    assert replies.asked[:3] == ["restate_zh", "write_paragraph", "translate_en"]
    [restatement] = draft.restatements
    assert (restatement.said, restatement.written) == (ZH_SPOKEN, ZH_WRITTEN)


ZH_SPOKEN = (
    "那我们为每个请求都预留最大长度的话，会浪费掉 60 到 80% 的 KV cache 内存。"
    "然后 PagedAttention 是把 KV cache 存到 16 个 token 的块里面。"
)
ZH_WRITTEN = (
    "为每个请求预留最大长度，会浪费 60 到 80% 的 KV cache 内存，"
    "PagedAttention 则把 KV cache 存入 16 个 token 的块中。"
)


def chinese_talk(translations: list[str]):
    unit = EvidenceUnit(id="t-00:00:00", kind="transcript", text=ZH_SPOKEN, start=0.0)
    claim = Claim(statement=ZH_SPOKEN, units=["t-00:00:00"], terms=["KV cache"])
    evidence = Evidence(language="zh", units=[unit])
    return draft_with(
        [ZH],
        translations,
        language="zh",
        evidence=evidence,
        claims=(claim,),
        restatements=[ZH_WRITTEN],
    )


HEADINGS = ["Paging", "Paging the KV cache", "Waste."]
FIRST, SECOND = GOOD.split(". ")
# a run of Chinese too long to be a word left untranslated: the sentence is redone
BLOCKS_LEFT = ("blocks handed out on demand", "按需分配出去的块")
LEFT_UNTRANSLATED = GOOD.replace(*BLOCKS_LEFT)


def test_a_translation_failing_twice_is_redone_sentence_by_sentence():
    replies = [LEFT_UNTRANSLATED] * 2 + [FIRST + ".", SECOND]
    draft, _, _ = chinese_talk([*replies, *HEADINGS])
    assert draft.en.sections[0].paragraphs[0].text == GOOD
    assert [r.action for r in draft.revisions] == ["translated sentence by sentence"]


def test_a_translation_failing_sentence_by_sentence_is_kept_with_its_findings():
    replies = (
        [LEFT_UNTRANSLATED] * 2
        + [FIRST + ".", SECOND.replace(*BLOCKS_LEFT)]
        + [SECOND.replace(*BLOCKS_LEFT)]
    )
    draft, _, _ = chinese_talk([*replies, *HEADINGS])
    assert draft.en.sections[0].paragraphs[0].text == LEFT_UNTRANSLATED
    assert [r.action for r in draft.revisions] == ["kept with findings"]


def test_a_translation_that_only_says_the_prompt_back_is_not_kept():
    echo = 'Reply as JSON: {"text": the English translation}'
    draft, _, _ = chinese_talk([echo] * 4 + HEADINGS)  # the paragraph, then its first sentence
    assert draft.en.sections[0].paragraphs[0].text == ZH  # the source stands in, visibly
    [revision] = [r for r in draft.revisions if r.where == "en §1¶1"]
    assert revision.action == "kept with findings"
    assert "repeats the instructions" in revision.findings


def test_a_reply_that_is_no_answer_ranks_below_any_answer():
    echo = ("输出 JSON", ["repeats the instructions"])
    close = ("译文", ["'token' is written '令牌'", "the name 'SGLang' is missing or misspelt"])
    assert min([echo, close], key=fewest_findings) == close
    assert min([(None, []), echo], key=fewest_findings) == echo


def test_a_word_a_translation_left_in_chinese_is_translated_alone_in_its_sentence():
    # "…in 16-token 块 handed out on demand": the word, not the paragraph, is asked again
    left = GOOD.replace("blocks", "块")
    draft, endpoint, _ = chinese_talk([left, left, "Blocks", *HEADINGS])
    assert draft.en.sections[0].paragraphs[0].text == GOOD
    asked = endpoint.user_messages()[-4]  # the word, then the headings and summary
    assert "word (as meant in: PagedAttention 把 KV cache 存进 16 个 token 的块中。)" in asked
    [revision] = [r for r in draft.revisions if r.where == "en §1¶1"]
    assert revision.action == "redrafted"
    assert revision.findings == [f"not in English: {left.split('. ')[1]!r}"]


COPIED = (  # the passages word for word
    "Reserving the maximum length for every request wastes 60 to 80 percent of KV cache "
    "memory. PagedAttention keeps the KV cache in blocks of 16 tokens, handed out on demand."
)


def test_a_copied_paragraph_is_asked_once_for_its_own_words():
    draft, endpoint, _ = draft_with(
        [COPIED, GOOD], [ZH, "分页", "分页的 KV cache", "内存浪费带来分页。"]
    )
    assert draft.en.sections[0].paragraphs[0].text == GOOD
    told = endpoint.requests[1]["messages"][0]["content"]
    assert "copied word for word" in told and "%" not in told  # a share it would write in


def test_copying_fails_nothing_a_copy_stands_if_the_rewrite_invents():
    invented = GOOD.replace("60 to 80", "60 to 90")
    draft, _, _ = draft_with(
        [COPIED, invented], [ZH, "分页", "分页的 KV cache", "内存浪费带来分页。"]
    )
    assert draft.en.sections[0].paragraphs[0].text == COPIED


def test_concurrent_calls_give_the_same_draft_in_the_same_order():
    prompts = DraftPrompts.load()
    sections = [[WASTE, BLOCKS], [BLOCKS], [WASTE]]

    def drafted(slots: int):
        llm, endpoint = scripted_llm(SchemaReplies(keyed=True), slots=slots)
        notes_ = notes(*sections)
        return write_drafts(outline(3), notes_, EVIDENCE, TERMS, llm, prompts), endpoint

    one, sequential = drafted(1)
    four, concurrent = drafted(4)
    again, _ = drafted(4)
    assert one == four == again  # texts, chapters, revisions and their order
    assert len(sequential.requests) == len(concurrent.requests) > 3


def test_a_number_moved_to_another_subject_is_redrafted():
    swapped = (
        "PagedAttention keeps the KV cache in blocks of 60 to 80 tokens handed out on demand; "
        "reserving the maximum length for every request wastes 16 percent of KV cache memory."
    )
    seeded(swapped, "is paired with what the passages say of another number")


def test_a_chapter_too_thin_to_stand_joins_its_neighbour():
    def chapter(title: str, *texts: str) -> DraftSection:
        paragraphs = [DraftParagraph(text=t, citations=["s-02"]) for t in texts]
        return DraftSection(title=title, paragraphs=paragraphs)

    opening = chapter("Opening", "One sentence only.")
    scheduler = chapter("Overlapped scheduler", "The overlapped scheduler fixes this.")
    body = chapter("How it works", "The CPU prepares a batch. The GPU runs one. They overlap.")
    merged = without_stubs([opening, body, scheduler])
    assert [c.title for c in merged] == ["How it works"]
    assert [p.text for p in merged[0].paragraphs] == [
        "One sentence only.",
        "The CPU prepares a batch. The GPU runs one. They overlap.",
        "The overlapped scheduler fixes this.",
    ]


def test_a_slide_strung_into_a_sentence_is_redrafted():
    slide = EvidenceUnit(
        id="s-05",
        kind="slide",
        text="Releases\nv0.1 (July 2024) — 5x higher throughput with automatic KV cache reuse\n"
        "v0.1 (July 2024) — 3x faster grammar-based constrained decoding",
        slide=5,
    )
    evidence = Evidence(units=[*EVIDENCE.units, slide])
    claim = Claim(
        statement="v0.1 gave 5x higher throughput with automatic KV cache reuse and 3x faster "
        "grammar-based constrained decoding.",
        units=["s-05"],
        numbers=["5", "3", "0.1"],
        terms=["KV cache"],
    )
    dump = (
        "The releases were v0.1 (July 2024) 5x higher throughput with automatic KV cache reuse "
        "v0.1 (July 2024) 3x faster grammar-based constrained decoding."
    )
    written = (
        "In July 2024, v0.1 reused the KV cache automatically for 5x higher throughput, and "
        "its grammar-based constrained decoding ran 3x faster."
    )
    zh = "2024 年夏天的 v0.1 自动复用 KV cache，吞吐提高 5 倍，基于语法的约束解码快 3 倍。"
    draft, _, _ = draft_with(
        [dump, written],
        [zh, "版本", "分页的 KV cache", "内存浪费带来分页。"],
        evidence=evidence,
        claims=(claim,),
    )
    assert draft.en.sections[0].paragraphs[0].text == written
    revision = draft.revisions[0]
    assert revision.action == "redrafted"
    assert any("strings the slide's text together" in f for f in revision.findings)


def test_word_by_word_terms_get_the_house_form_in_code():
    translated = ZH.replace("16 个 token", "16 个令牌")
    draft, endpoint, _ = draft_with(
        [GOOD], [translated, "分页", "分页的 KV cache", "内存浪费带来分页。"]
    )
    # a small model keeps writing 令牌 however it is told: code writes the house form
    assert draft.zh.sections[0].paragraphs[0].text == translated.replace("令牌", "token")
    assert not any(r.where == "zh §1¶1" for r in draft.revisions)
    first = next(r for r in endpoint.requests if "翻译" in r["messages"][0]["content"])
    assert "token → token" in first["messages"][1]["content"]  # and it was told


def test_a_placeholder_translation_is_redone():
    draft, _, _ = draft_with(
        [GOOD], ["这一段的译文。", ZH, "分页", "分页的 KV cache", "内存浪费带来分页。"]
    )
    assert draft.zh.sections[0].paragraphs[0].text == ZH
    assert any("much shorter" in f for f in draft.revisions[0].findings)


def test_candidates_judged_by_the_checks_keep_the_one_that_passes():
    """A failing first reply is asked for again as several candidates (other seeds); the
    one that passes every check is kept. With one candidate the same fault falls back."""
    fault = GOOD.replace("60 to 80", "60 to 85")

    def paragraphs(body: dict) -> str:
        return text(GOOD if body["seed"] == 1234 + 2 else fault)  # only the third candidate

    def run(candidates: int):
        replies = PromptReplies(
            write_paragraph=paragraphs,
            translate_zh=lambda body: text(ZH),
        )
        llm, endpoint = scripted_llm(replies, slots=2)
        prompts = DraftPrompts.load()
        draft = write_drafts(
            outline(1), notes([WASTE, BLOCKS]), EVIDENCE, TERMS, llm, prompts, candidates
        )
        seeds = [
            r["seed"]
            for r, asked in zip(endpoint.requests, replies.asked, strict=True)
            if asked == "write_paragraph"
        ]
        return draft, seeds

    draft, seeds = run(candidates=3)
    assert draft.en.sections[0].paragraphs[0].text == GOOD
    assert sorted(seeds) == [1234, 1234, 1235, 1236]  # one reply, then three candidates
    [revision] = [r for r in draft.revisions if r.where.startswith("en")]
    assert revision.action == "redrafted"
    draft, seeds = run(candidates=1)
    assert draft.en.sections[0].paragraphs[0].text != GOOD
    assert sorted(seeds) == [1234, 1234]


def is_title(body: dict) -> bool:  # "`分页` the `KV cache`": its terms go in marked
    asked = body["messages"][1]["content"]
    return "the `KV cache`" in asked and "PagedAttention" not in asked


def drafted_with_title(title: Callable[[dict], str]):
    """A draft of one chapter whose title "Paging the KV cache" is translated by `title`
    (the request's body -> the reply), and the endpoint."""

    def translate(body: dict) -> str:
        asked = body["messages"][1]["content"]
        if is_title(body):
            return text(title(body))
        if "Memory waste" in asked:
            return text("内存浪费导致分页。")
        return text(ZH if "PagedAttention" in asked else "分页")

    replies = PromptReplies(write_paragraph=[text(GOOD)], translate_zh=translate)
    llm, endpoint = scripted_llm(replies)
    draft = write_drafts(
        outline(1), notes([WASTE, BLOCKS]), EVIDENCE, TERMS, llm, DraftPrompts.load()
    )
    [revision] = [r for r in draft.revisions if r.where == "zh title"]
    assert revision.findings == ["the name 'KV cache' is missing or misspelt"]
    return draft, revision, endpoint


def test_a_title_whose_translation_loses_a_name_is_translated_again_as_three_candidates():
    # "Paging the KV cache" translated as "分页的键值缓存" loses the name KV cache; a title
    # has no sentence-by-sentence way out, so its second round asks three candidates even
    # where paragraphs ask one, and the one that passes (the third) is kept
    draft, revision, endpoint = drafted_with_title(
        lambda body: "分页的 KV cache" if body["seed"] == 1234 + 2 else "分页的键值缓存"
    )
    assert draft.zh.title == "分页的 KV cache" and revision.action == "redrafted"
    assert sorted(r["seed"] for r in endpoint.requests if is_title(r)) == [1234, 1234, 1235, 1236]


def test_a_title_whose_every_translation_loses_a_name_gets_the_name_put_first():
    # every reply translates "Paging the KV cache" as "分页" (the name lost): the title
    # becomes "KV cache：分页", the house form "main claim：subtitle", and says so
    draft, revision, _ = drafted_with_title(lambda body: "分页")
    assert draft.zh.title == "KV cache：分页" and revision.action == "names put first"


def test_a_one_sentence_translation_that_keeps_dropping_a_number_is_redone_by_clause():
    one = "PagedAttention keeps the KV cache in blocks of 16 tokens, handed out on demand."
    dropped = "PagedAttention 把 KV cache 存进块中，按需分配。"
    clauses = ["PagedAttention 把 KV cache 存进 16 个 token 的块中，", "按需分配。"]
    draft, _, _ = draft_with(
        [one, one],
        [dropped, dropped, *clauses, "分页", "分页的 KV cache", "内存浪费带来分页。"],
        claims=(BLOCKS,),
    )
    assert draft.zh.sections[0].paragraphs[0].text == (
        "PagedAttention 把 KV cache 存进 16 个 token 的块中，按需分配。"
    )
    [revision] = [r for r in draft.revisions if r.where == "zh §1¶1"]
    assert revision.action == "translated sentence by sentence"
    assert "number 16 is missing" in revision.findings


def test_a_name_the_glossary_gives_a_chinese_form_may_be_written_in_it():
    from pipeline.draft import Writer

    prompts = DraftPrompts.load()
    writer = Writer(None, prompts, EVIDENCE, ["GPU", "GPU memory", "PagedAttention"], "en")
    source = "Serving LLMs without wasting GPU memory with PagedAttention"
    assert writer.name_findings(source, "用 PagedAttention 不浪费显存地服务 LLM") == []
    assert writer.name_findings(source, "用分页注意力不浪费显存地服务 LLM") == [
        "the name 'PagedAttention' is missing or misspelt"
    ]


def test_a_sentence_saying_its_subject_is_itself_is_redrafted():
    seeded(GOOD + " PagedAttention is the PagedAttention.", "says its subject is itself")


def test_a_stray_word_strung_onto_a_paragraph_is_redrafted():
    seeded(GOOD + " PagedAttention.", "a stray word, not a sentence: 'PagedAttention.'")
