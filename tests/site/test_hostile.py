"""A site built from hostile inputs (titles, text, a speaker, a video address, a meetup file,
topic and path lists) shows them as text on every page type, in both languages: no element,
handler or link of theirs is live in the built HTML."""

import datetime as dt
import html
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlsplit

import yaml

from pipeline.library.topics import DEFAULT_TOPICS
from pipeline.site import build_site
from tests.library.shelf import shelve
from tests.site.hostile import HOSTILE, PAYLOADS, live_markup, live_markup_in
from tests.site.published import publish

# A video address that passes as a URL and would end a Markdown link and open another.
VIDEO = "https://example.com/a)[click](javascript:alert(34)'x"
PAGES = ["index.html", "about/index.html", "articles/hostile/index.html"]
PAGES += ["qa/hostile/index.html", "proof/hostile/index.html", "topics/memory/index.html"]
PAGES += ["hubs/lmsys/index.html", "glossary/index.html"]


def fitting(limit: int) -> str:
    """As many payloads as a field of `limit` characters holds."""
    text = ""
    for payload in PAYLOADS:
        if len(text) + len(payload) + 1 <= limit:
            text = f"{text} {payload}".strip()
    return text


def hostile_lists(folder: Path) -> tuple[Path, Path]:
    """A topic list whose 'memory' topic has hostile names, and a path list likewise."""
    topics = yaml.safe_load(DEFAULT_TOPICS.read_text(encoding="utf-8"))
    for topic in topics:
        if topic["id"] == "memory":
            topic |= {"zh": fitting(40), "en": fitting(80), "scope_zh": fitting(200)}
            topic["scope_en"] = fitting(300)
    paths = [{"topic": "memory", "zh": fitting(40), "en": fitting(80)}]
    (folder / "topics.yaml").write_text(yaml.safe_dump(topics), encoding="utf-8")
    (folder / "paths.yaml").write_text(yaml.safe_dump(paths), encoding="utf-8")
    return folder / "topics.yaml", folder / "paths.yaml"


def hostile_site(tmp_path: Path) -> Path:
    """Three ordinary talks at a hostile meetup, and a hostile talk, built for preview."""
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    meetup = {"name": f"Meetup {fitting(110)}", "date": "2026-02-20", "place": fitting(120)}
    shelve(outputs, inputs, meetup=yaml.safe_dump(meetup), questions=True)
    said = [(f"Paging {HOSTILE}", ["t-00:01:05"]), (HOSTILE, ["s-02"])]
    publish(
        outputs,
        "hostile",
        f"标题 {HOSTILE}",
        dt.date(2026, 6, 1),
        video=VIDEO,
        zh=said,
        en=said,
        topic="memory",
        questions=True,
        title_en=f"Title {HOSTILE}",
        speaker=fitting(200),
        chapters=(HOSTILE, HOSTILE),
        summaries=(HOSTILE, HOSTILE),
    )
    topics, paths = hostile_lists(tmp_path)
    build_site(outputs, outputs / "site", inputs, "preview", topics=topics, paths=paths)
    return outputs / "site" / "public"


class Text(HTMLParser):
    """The text of a page's <body> as a reader sees it, and its <title>."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.title = ""
        self.tag = ""

    def handle_starttag(self, tag, attrs) -> None:
        self.tag = tag

    def handle_data(self, data: str) -> None:
        if self.tag == "title":
            self.title += data
        elif self.tag not in ("script", "style"):
            self.parts.append(data)


def seen(page: Path) -> Text:
    text = Text()
    text.feed(page.read_text(encoding="utf-8"))
    return text


def test_hostile_inputs_are_text_on_every_page_type_in_both_languages(tmp_path):
    public = hostile_site(tmp_path)
    for page in PAGES:
        for prefix in ("", "en/"):
            assert (public / prefix / page).is_file(), prefix + page
    assert (public / "404.html").is_file()  # one for both languages
    assert live_markup_in(public) == {}
    for lang in ("", "en/"):
        article = seen(public / lang / "articles/hostile/index.html")
        body = " ".join(" ".join(article.parts).split())
        for payload in PAYLOADS:  # every character kept, shown as text (`…` set as code)
            assert " ".join(payload.replace("`", "").split()) in body.replace("`", ""), payload
        assert "<image src=x onerror=alert(1)>" in article.title  # the tab shows the title
        assert "x < y && y > z => w" in article.title


def test_a_video_address_is_one_quoted_link(tmp_path):
    public = hostile_site(tmp_path)
    page = (public / "articles/hostile/index.html").read_text(encoding="utf-8")
    targets = [html.unescape(t) for t in re.findall(r'href="([^"]*example\.com[^"]*)"', page)]
    assert len(targets) >= 2  # the video link and a [01:05] citation
    assert all(t.startswith("https://example.com/a%29%5Bclick%5D%28javascript") for t in targets)
    assert "click</a>" not in page


def test_a_checker_that_finds_nothing_would_find_a_live_payload():
    page = f"<html><body><p>{PAYLOADS[0]}</p><a href='javascript:alert(5)'>x</a></body></html>"
    found = ["<image>", "<image onerror>", "<a href=javascript:alert(5)>"]
    assert live_markup(page) == found


def test_talk_folders_of_any_name_are_linked_and_inert(tmp_path):
    outputs = tmp_path / "outputs"
    slugs = ["x (y) 'z' [w]", 'a<b>"c"&d', "中文 名字#1?q=2"]
    for slug in slugs:
        publish(outputs, slug, f"标题 {slug}", dt.date(2026, 1, 1))
    built = build_site(outputs, outputs / "site", tmp_path / "inputs", "preview")
    public = outputs / "site" / "public"
    assert sorted(built.articles) == sorted(slugs) and live_markup_in(public) == {}
    broken = []
    for page in public.rglob("*.html"):
        base = quote("/" + page.relative_to(public).as_posix())
        for href in map(html.unescape, re.findall(r'href="([^"]+)"', page.read_text())):
            if urlsplit(href).scheme or href.startswith("#"):
                continue
            target = public / unquote(urlsplit(urljoin(base, href)).path).lstrip("/")
            if not (target.is_file() or (target / "index.html").is_file()):
                broken.append((base, href))
    assert broken == []
