"""Headless Chromium (Debian's chromium and chromedriver) driven by selenium, and a local
server for a built site and the talk's video."""

import functools
import http.server
import io
import re
import shutil
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import jieba
import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import WebDriverWait

from pipeline.article.typeset import typeset_plain
from pipeline.core.text import cjk_share
from tests.llm_server import in_thread

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
# The flags this machine's closed network needs (see the env notes): no background calls.
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
    "--autoplay-policy=no-user-gesture-required",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(root: Path, port: int) -> Iterator[str]:
    """`root` on http://127.0.0.1:port/ in a thread, quietly, answering byte ranges as a
    video host does (a browser seeks to a video's #t= second only with them)."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def send_head(self):
            wanted = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
            path = Path(self.translate_path(self.path))
            if not wanted or not path.is_file():
                return super().send_head()
            data = path.read_bytes()
            start = int(wanted[1])
            end = min(int(wanted[2] or len(data) - 1), len(data) - 1)
            self.send_response(206)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
            self.send_header("Content-Length", str(end - start + 1))
            self.send_header("Accept-Ranges", "bytes")
            self.end_headers()
            return io.BytesIO(data[start : end + 1])

    with in_thread(functools.partial(Quiet, directory=str(root)), port):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def chromium(profile: Path):
    """A headless Chromium session; the suite fails, naming the packages, if the machine has
    no Chromium (.ci/run and `make test` install Debian's chromium and chromium-driver)."""
    binary = next((shutil.which(name) for name in CHROMIUM if shutil.which(name)), None)
    driver_path = shutil.which("chromedriver")
    if not binary or not driver_path:
        pytest.fail("no chromium/chromedriver: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=driver_path)
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def visit_site(
    public: Path,
    video: Path,
    port: int,
    draft: dict,
    article_path: str,
    screenshots: Path,
    work: Path,
) -> None:
    """What a reader does, checked step by step: the index card, the article, a [mm:ss]
    link to the video's second (the talk links to http://127.0.0.1:port/media/<video>),
    English and back on the same page, a Chinese search. Screenshots in `screenshots`."""
    root = work / "served"
    shutil.copytree(public, root / "site")
    (root / "media").mkdir()
    shutil.copy(video, root / "media" / video.name)
    screenshots.mkdir(parents=True, exist_ok=True)
    # as the pages show them: typeset (spacing between Chinese and Latin letters, units)
    title_zh, title_en = (typeset_plain(draft[lang]["title"], lang) for lang in ("zh", "en"))
    with serving(root, port) as base, chromium(work / "profile") as browser:
        wait = WebDriverWait(browser, 30)
        browser.get(f"{base}/site/")
        card = wait.until(seen.element_to_be_clickable((By.LINK_TEXT, title_zh)))
        browser.save_screenshot(str(screenshots / "index.png"))
        card.click()
        wait.until(seen.url_contains(f"/site/{article_path}"))
        article_url = browser.current_url
        assert "审稿卡" in browser.page_source
        browser.save_screenshot(str(screenshots / "article.png"))

        stamp = browser.find_element(By.XPATH, STAMP_LINK)  # "[mm:ss]"
        minutes, seconds = map(int, stamp.text.strip("[]").split(":"))
        second = minutes * 60 + seconds
        assert stamp.get_attribute("href") == f"{base}/media/{video.name}#t={second}"
        stamp.click()
        wait.until(seen.url_contains(f"/media/{video.name}#t="))
        at = wait.until(lambda b: b.execute_script(VIDEO_TIME))
        assert abs(at - second) < 1.0, (at, second)

        browser.get(article_url)
        switch_language(browser, wait, "en")
        wait.until(seen.url_contains(f"/site/en/{article_path}"))
        assert browser.find_element(By.TAG_NAME, "h1").text == title_en
        browser.save_screenshot(str(screenshots / "article-en.png"))
        switch_language(browser, wait, "zh")
        wait.until(lambda b: b.current_url == article_url)

        word = chinese_word(title_zh)
        box = wait.until(seen.element_to_be_clickable((By.CSS_SELECTOR, "input.md-search__input")))
        box.click()
        box.send_keys(word)
        hit = wait.until(
            seen.visibility_of_element_located((By.CSS_SELECTOR, "li.md-search-result__item"))
        )
        assert word in hit.text
        browser.save_screenshot(str(screenshots / "search.png"))


STAMP_LINK = "//a[starts-with(text(), '[') and string-length(text())=7 and contains(text(), ':')]"
VIDEO_TIME = (
    "const v = document.querySelector('video');return v && v.readyState > 0 ? v.currentTime : null;"
)


def switch_language(browser, wait, locale: str) -> None:
    """Material's language menu: hover-opened, so its link is clicked by script."""
    link = wait.until(
        seen.presence_of_element_located(
            (By.CSS_SELECTOR, f"a.md-select__link[hreflang='{locale}']")
        )
    )
    browser.execute_script("arguments[0].click();", link)


def chinese_word(title: str) -> str:
    """A word of two or more Chinese characters of the title, as the search index cuts it."""
    return next(w for w in jieba.cut(title) if len(w) >= 2 and cjk_share(w) == 1.0)
