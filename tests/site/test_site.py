import datetime as dt
import re

from pipeline.site import build_site, write_site
from tests.site.published import VIDEO, publish


def test_the_site_builds_strictly_with_cards_articles_slides_and_review_cards(tmp_path):
    outputs = tmp_path / "outputs"
    publish(outputs, "examples/paging", "分页：按需分配的 KV 缓存", dt.date(2026, 10, 1))
    publish(outputs, "older", "旧的演讲", dt.date(2025, 1, 1))
    publish(outputs, "broken", "失败的演讲", dt.date(2026, 11, 1), status="failed")
    publish(outputs, ".benchmarks/x", "基准", dt.date(2026, 11, 1))  # hidden: not a talk
    built = build_site(outputs, outputs / "site", tmp_path / "inputs")
    assert built.articles == ["examples/paging", "older"]  # latest first; failed left out
    assert built.left_out == ["broken: its last run is failed"]
    public = outputs / "site" / "public"
    index = (public / "index.html").read_text()
    assert "KV CACHE · MEMORY" in index and "从显存浪费出发，拆解分页。" in index
    assert index.index("分页：按需分配的 KV 缓存") < index.index("旧的演讲")
    article = (public / "articles/examples/paging/index.html").read_text()
    assert f'href="{VIDEO}&amp;t=65"' in article  # [01:05] opens the video at that second
    assert "slide-002.jpg" in article and (public / "assets/examples/paging/slide-002.jpg").exists()
    assert "审稿卡 · " in article and "文章讲" in article
    english = (public / "en/articles/examples/paging/index.html").read_text()
    assert "Paging the KV cache" in english and "Blocks on demand" in english
    assert "Speaker: Ada" in english
    assert "Review card · " in english and "The article covers" in english  # its own card
    assert "文章讲" not in english and "The article covers" not in article
    nav_titles = re.findall(
        r'md-nav__link[^>]*>\s*<span class="md-ellipsis">\s*([^<]+?)\s*<', english
    )
    assert "Paging the KV cache" in nav_titles and "分页：按需分配的 KV 缓存" not in nav_titles
    proof = (public / "proof/examples/paging/index.html").read_text()
    assert "按需分块" in proof and "Blocks on demand" in proof
    assert (public / "about/index.html").exists() and (public / "en/about/index.html").exists()
    assert "search/search_index.json" in str(list(public.rglob("search_index.json"))[0])


def test_markup_in_a_talk_never_reaches_a_page(tmp_path):
    outputs = tmp_path / "outputs"
    publish(outputs, "evil", "标题<img src=x onerror=alert(4)>", dt.date(2026, 1, 1))
    build_site(outputs, outputs / "site", tmp_path / "inputs")
    for page in (outputs / "site" / "public").rglob("*.html"):
        assert "onerror" not in page.read_text(), page


def test_an_empty_outputs_folder_is_a_site_with_no_articles(tmp_path):
    written = write_site(tmp_path, tmp_path / "site", tmp_path / "inputs")
    assert written.articles == [] and (tmp_path / "site" / "docs" / "index.md").exists()
