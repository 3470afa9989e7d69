from pipeline.article import typeset, video_link
from pipeline.schema import Draft, Review, TalkMeta
from tests.review.test_review import EVIDENCE, draft


def test_typeset_front_matter_citations_and_chinese_spacing():
    meta = TalkMeta(title="T", speaker="S", video_url="https://www.youtube.com/watch?v=abc")
    en = draft("en", ["Throughput rose 2.2 times."], [["t-01:05", "s-03", "n-03"]])
    zh = draft("zh", ["吞吐量提升了2.2倍。"], [["t-01:05", "s-03"]], title="标题")
    verdict = Review(checks=[], verdict="pass")
    zh_md, en_md = (a.markdown for a in typeset(Draft(en=en, zh=zh), EVIDENCE, meta, "t", verdict))
    assert en_md.startswith("---\ntitle: T\nlang: en\n")
    assert "([[01:05]](https://www.youtube.com/watch?v=abc&t=65), slide 3, slide 3 notes)" in en_md
    assert "## T results" in en_md
    assert "吞吐量提升了 2.2 倍。" in zh_md  # autocorrect spacing between CJK and digits
    assert "slide 3" in zh_md and "lang: zh" in zh_md


def test_video_links_for_youtube_and_other_players():
    assert video_link("https://youtu.be/abc", 12.7) == "https://youtu.be/abc?t=12"
    assert video_link("https://example.org/v.mp4#x", 5) == "https://example.org/v.mp4#t=5"
