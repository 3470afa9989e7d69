"""Hostile inputs, and a check of built HTML that no element, attribute or link came from
them: every payload below calls alert(N), so a live one shows as a handler, a script, a
`javascript:`/`data:` link or an element the site never writes."""

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

# One of each kind of markup a talk's text, a model or a maintainer's file could carry.
PAYLOADS = [
    "<image src=x onerror=alert(1)>",
    "<xss autofocus tabindex=1 onfocus=alert(2)>",
    "<svg/onload=alert(3)>",
    '<iframe src="javascript:alert(4)"></iframe>',
    "[click](javascript:alert(5))",
    "![pic](data:text/html;base64,PHNjcmlwdD5hbGVydCg2KTwvc2NyaXB0Pg==)",
    "<!-- hidden --> &amp; &lt;b&gt;",
    "</title><script>alert(7)</script>",
    "{ onclick=alert(8) }",
    "x < y && y > z => w",
    "<a href='javascript:alert(9)'>a</a> `code`{ onmouseover=alert(10) }",
]
HOSTILE = " ".join(PAYLOADS)
# Elements the site never writes: where one is in a page, it came from an input.
FOREIGN_TAGS = {"xss", "image", "iframe", "object", "embed", "frame", "base", "math"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "srcdoc", "xlink:href", "data"}
BAD_SCHEMES = {"javascript", "data", "vbscript"}


class LiveMarkup(HTMLParser):
    """Collects what in a page could run: handlers, foreign elements, scripts that call
    alert, links to `javascript:` or `data:`."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.in_script = tag == "script"
        if tag in FOREIGN_TAGS:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}>")
            scheme = urlsplit((value or "").strip()).scheme.lower()
            if name in URL_ATTRIBUTES and scheme in BAD_SCHEMES:
                self.found.append(f"<{tag} {name}={value}>")
            if tag == "img" and name == "src" and "/" not in (value or "") and value != "":
                self.found.append(f"<img src={value}>")

    def handle_endtag(self, tag: str) -> None:
        self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script and "alert(" in data:
            self.found.append("<script>alert(…)")


def live_markup(page: str) -> list[str]:
    parser = LiveMarkup()
    parser.feed(page)
    parser.close()
    return parser.found


def live_markup_in(public: Path) -> dict[str, list[str]]:
    """Every built page (and the search index) with what could run in it."""
    found = {}
    for page in sorted(public.rglob("*.html")):
        if live := live_markup(page.read_text(encoding="utf-8")):
            found[page.relative_to(public).as_posix()] = live
    return found
