import html

import markdown

from pipeline.article import typeset, video_link
from pipeline.schema import (
    Draft,
    DraftParagraph,
    DraftSection,
    DraftText,
    Evidence,
    EvidenceUnit,
    Review,
    ReviewCard,
    Talk,
    TalkMeta,
)
from tests.site.hostile import live_markup

CARD = ReviewCard(verdict="推荐收录", summary="文章讲……", assessment="推荐收录：……", reasons=[])

EVIDENCE = Evidence(
    units=[
        EvidenceUnit(id="t-01:05", kind="transcript", text="2.2 times", start=65.4, end=70.0),
        EvidenceUnit(id="s-03", kind="slide", text="Blocks of 16 tokens", slide=3),
        EvidenceUnit(id="n-03", kind="notes", text="Mention paging", slide=3),
    ],
)


def draft(lang: str, text: str, citations: list[str], title: str) -> DraftText:
    paragraph = DraftParagraph(text=text, citations=citations)
    section = DraftSection(role="results", title=f"{title} results", paragraphs=[paragraph])
    return DraftText(lang=lang, title=title, summary=f"{title} summary", sections=[section])


def talk(**meta) -> Talk:
    return Talk(slug="t", folder="inputs/t", decks=["inputs/t/slides.pdf"], meta=TalkMeta(**meta))


def articles(en: DraftText, zh: DraftText, **meta) -> tuple[str, str]:
    verdict = Review(checks=[], verdict="pass", card=CARD)
    both = Draft(en=en, zh=zh, tags=["KV CACHE"])
    zh_md, en_md = (a.markdown for a in typeset(both, EVIDENCE, talk(**meta), verdict))
    return zh_md, en_md


def test_typeset_front_matter_citations_and_chinese_spacing():
    en = draft("en", "Throughput rose 2.2 times.", ["t-01:05", "s-03", "n-03"], "T")
    zh = draft("zh", "吞吐量提升了2.2倍。", ["t-01:05", "s-03"], "标题")
    zh_md, en_md = articles(
        en, zh, title="T", speaker="S", video_url="https://www.youtube.com/watch?v=abc"
    )
    assert en_md.startswith("---\ntitle: T\nsummary: T summary\nlang: en\n")
    assert "tags:\n- KV CACHE\n" in en_md
    assert "deck:\n- slides.pdf\nverdict: 推荐收录\n" in en_md
    assert "([[01:05]](https://www.youtube.com/watch?v=abc&t=65), slide 3, slide 3 notes)" in en_md
    assert "## T results" in en_md
    assert "吞吐量提升了 2.2 倍。" in zh_md  # autocorrect spacing between CJK and digits
    assert "slide 3" in zh_md and "lang: zh" in zh_md


def test_video_links_for_youtube_and_other_players():
    assert video_link("https://youtu.be/abc", 12.7) == "https://youtu.be/abc?t=12"
    assert video_link("https://example.org/v.mp4#x", 5) == "https://example.org/v.mp4#t=5"


def test_house_typesetting_units_identifiers_simplified_characters():
    en = draft("en", "Set max_num_seqs to 256 with 16GB and 5ms budgets.", ["s-03"], "T")
    zh = draft("zh", "把max_num_seqs設為256，記憶體16GB。", ["s-03"], "設定")
    zh_md, en_md = articles(en, zh)
    assert "Set `max_num_seqs` to 256 with 16 GB and 5 ms budgets." in en_md
    assert "把 `max_num_seqs` 设为 256，记忆体 16 GB。" in zh_md and "# 设定" in zh_md
    assert "title: 设定" in zh_md  # front matter typeset too


def test_markup_from_a_model_or_a_talk_is_shown_as_text():
    said = "Click [here](javascript:alert(1)) or <img src=x onerror=alert(4)> for vector<int>."
    en = draft("en", said, ["s-03"], "T")
    zh_md, en_md = articles(en, draft("zh", "见下文。", ["s-03"], "标题"))
    assert "[here](javascript:" not in en_md and "\\[here\\](javascript:" in en_md  # not a link
    body = markdown.markdown(en_md.split("---\n", 2)[2], extensions=["attr_list", "md_in_html"])
    assert live_markup(body) == [] and html.unescape(said) in html.unescape(body)


def test_comparisons_and_arrows_stay_as_written_in_the_markdown_and_on_the_page():
    said = "Prefill => decode when x < y && y > z."
    zh_md, en_md = articles(
        draft("en", said, ["s-03"], "T"), draft("zh", "见下文。", ["s-03"], "标题")
    )
    assert said in en_md  # escaped once, when the page is rendered: here nothing needs it
    body = markdown.markdown(en_md.split("---\n", 2)[2])
    assert "Prefill =&gt; decode when x &lt; y &amp;&amp; y &gt; z." in body


def test_the_lead_chapter_stands_without_a_heading():
    lead = DraftSection(title="", paragraphs=[DraftParagraph(text="Paging wins.", citations=[])])
    en = draft("en", "Throughput rose 2.2 times.", ["s-03"], "T")
    zh = draft("zh", "吞吐量提升了2.2倍。", ["s-03"], "标题")
    en.sections.insert(0, lead)
    zh.sections.insert(
        0, lead.model_copy(update={"paragraphs": [DraftParagraph(text="分页更好。", citations=[])]})
    )
    zh_md, en_md = articles(en, zh, title="T")
    assert "# T\n\nPaging wins." in en_md and "## \n" not in en_md and "## T results" in en_md
    assert "## \n" not in zh_md
