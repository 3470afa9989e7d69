from pipeline.article import typeset, video_link
from pipeline.schema import (
    Draft,
    DraftParagraph,
    DraftSection,
    DraftText,
    Evidence,
    EvidenceUnit,
    Review,
    TalkMeta,
)

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


def test_typeset_front_matter_citations_and_chinese_spacing():
    meta = TalkMeta(title="T", speaker="S", video_url="https://www.youtube.com/watch?v=abc")
    en = draft("en", "Throughput rose 2.2 times.", ["t-01:05", "s-03", "n-03"], "T")
    zh = draft("zh", "吞吐量提升了2.2倍。", ["t-01:05", "s-03"], "标题")
    verdict = Review(checks=[], verdict="pass")
    both = Draft(en=en, zh=zh, tags=["KV CACHE"])
    zh_md, en_md = (a.markdown for a in typeset(both, EVIDENCE, meta, "t", verdict))
    assert en_md.startswith("---\ntitle: T\nsummary: T summary\nlang: en\n")
    assert "tags:\n- KV CACHE\n" in en_md
    assert "([[01:05]](https://www.youtube.com/watch?v=abc&t=65), slide 3, slide 3 notes)" in en_md
    assert "## T results" in en_md
    assert "吞吐量提升了 2.2 倍。" in zh_md  # autocorrect spacing between CJK and digits
    assert "slide 3" in zh_md and "lang: zh" in zh_md


def test_video_links_for_youtube_and_other_players():
    assert video_link("https://youtu.be/abc", 12.7) == "https://youtu.be/abc?t=12"
    assert video_link("https://example.org/v.mp4#x", 5) == "https://example.org/v.mp4#t=5"
