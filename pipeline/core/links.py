"""Links in the Markdown we write: web addresses checked as URLs, and every link target
quoted so that nothing in it can end the link, open another, or leave its attribute."""

import re
from urllib.parse import quote, urlsplit

WEB_SCHEMES = ("http", "https")
# What URL syntax allows unquoted and a Markdown link target or an HTML attribute reads as
# plain: RFC 3986's unreserved and reserved characters less ( ) [ ] ' and *, and % for
# escapes already made. Everything else (quotes, spaces, brackets, <, >) is percent-encoded.
SAFE_IN_LINK = "-._~:/?#@!$&+,;=%"
CONTROL = re.compile(r"[\x00-\x20\x7f-\x9f]")


def web_address(url: str) -> str:
    """`url` if it parses as an http(s) address with a host; ValueError saying what is
    wrong otherwise. Whitespace and control characters are refused, not silently dropped
    (a URL parser strips tabs and newlines)."""
    url = url.strip()
    if CONTROL.search(url):
        raise ValueError("must be one address, without spaces or control characters")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a port that is no number raises here)
    except ValueError as err:
        raise ValueError(f"is not a valid address ({err})") from err
    if parts.scheme.lower() not in WEB_SCHEMES or not parts.hostname:
        raise ValueError("must be an http(s) address with a host")
    return url


def quoted_target(target: str) -> str:
    """A link target (a URL or a relative path) with every character that could end it
    or break out of it percent-encoded."""
    return quote(target, safe=SAFE_IN_LINK)


def quoted_path(path: str) -> str:
    """A relative path as a link target: every character but letters, digits, "/" and
    "-._~" percent-encoded (a folder's name may hold "#", "?" or a bracket)."""
    return quote(path, safe="/")


def markdown_link(text: str, target: str) -> str:
    """A Markdown link: `text` is Markdown already (escaped by the caller), `target` is
    quoted here."""
    return f"[{text}]({quoted_target(target)})"
