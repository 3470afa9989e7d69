"""Building the site again renders only the pages that changed, and search still finds
every page; anything else (a page gone) builds the site whole."""

import datetime as dt
import json
import shutil

from pipeline.site import build_site
from tests.site.published import publish


def search_entries(public) -> dict[str, str]:
    """Page location -> the title of its search entry (without the words' separators)."""
    index = json.loads((public / "search/search_index.json").read_text())
    docs = index["docs"]
    return {
        e["location"]: e["title"].replace("\u200b", "") for e in docs if "#" not in e["location"]
    }


def test_a_changed_talk_rebuilds_its_pages_and_search_keeps_every_page(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    publish(outputs, "paging", "分页：按需分配的 KV 缓存", dt.date(2026, 10, 1))
    publish(outputs, "older", "旧的演讲", dt.date(2025, 1, 1), topic="decoding")  # no path note
    first = build_site(outputs, outputs / "site", inputs)
    public = outputs / "site" / "public"
    untouched = public / "articles/older/index.html"
    stamp = untouched.stat().st_mtime_ns
    publish(outputs, "paging", "分页之后：按块分配", dt.date(2026, 10, 1))
    again = build_site(outputs, outputs / "site", inputs)
    assert again.project == first.project and "articles/paging.md" in again.changed
    assert "分页之后：按块分配" in (public / "articles/paging/index.html").read_text()
    assert "分页之后：按块分配" in (public / "articles/index.html").read_text()  # the list
    assert untouched.stat().st_mtime_ns == stamp  # not rendered again
    entries = search_entries(public)
    assert entries["articles/older/"] == "旧的演讲" and entries["en/articles/older/"]
    assert entries["articles/paging/"] == "分页之后：按块分配"
    assert "分页：按需分配的 KV 缓存" not in entries.values()


def test_a_talk_gone_builds_the_site_whole(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    publish(outputs, "paging", "分页：按需分配的 KV 缓存", dt.date(2026, 10, 1))
    publish(outputs, "older", "旧的演讲", dt.date(2025, 1, 1))
    build_site(outputs, outputs / "site", inputs)
    shutil.rmtree(outputs / "older")
    built = build_site(outputs, outputs / "site", inputs)
    public = outputs / "site" / "public"
    assert "articles/older.md" in built.changed
    assert not (public / "articles/older").exists()
    assert not [loc for loc in search_entries(public) if "older" in loc]
    assert not (outputs / "site/docs/articles/older.md").exists()


def test_a_site_whose_search_index_is_gone_is_built_whole(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    publish(outputs, "paging", "分页：按需分配的 KV 缓存", dt.date(2026, 10, 1))
    build_site(outputs, outputs / "site", inputs)
    public = outputs / "site" / "public"
    (public / "search/search_index.json").unlink()
    build_site(outputs, outputs / "site", inputs)  # nothing changed, but search needs it all
    assert "articles/paging/" in search_entries(public)
