"""What a reader sees in headless Chromium: a person's review (an approved article and one
awaiting review, each in Chinese and in English), and paragraphs beside slide pictures that
stay readable at a desktop's width and a phone's. Screenshots in
outputs/site-screenshots/review/ and outputs/site-screenshots/widths/."""

import datetime as dt
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import WebDriverWait

from pipeline.site import build_site
from tests.library.shelf import shelve
from tests.site.browser import chromium, free_port, serving, switch_language
from tests.site.hostile import live_markup
from tests.site.published import ZH_UNTRANSLATED, publish
from tests.site.test_hostile import PAGES, hostile_site
from tests.site.test_site import approve

SCREENSHOTS = Path(__file__).resolve().parents[2] / "outputs" / "site-screenshots" / "review"
# The heading of the human-review box, per page and language.
SEEN = {
    ("approved", "zh"): "人工审阅 · 已批准",
    ("approved", "en"): "Human review · Approved",
    ("awaiting", "zh"): "人工审阅 · 待审阅",
    ("awaiting", "en"): "Human review · Awaiting review",
}


def test_a_reader_sees_whether_a_person_reviewed_the_article(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    publish(outputs, "approved", "批准的演讲", dt.date(2026, 3, 1), zh=ZH_UNTRANSLATED)
    publish(outputs, "awaiting", "待审的演讲", dt.date(2026, 5, 1))
    approve(outputs, inputs, "approved")
    build_site(outputs, outputs / "site", inputs)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    site, profile = outputs / "site" / "public", tmp_path / "profile"
    with serving(site, free_port()) as base, chromium(profile) as browser:
        wait = WebDriverWait(browser, 30)
        for slug, title in (("approved", "批准的演讲"), ("awaiting", "待审的演讲")):
            browser.get(f"{base}/")
            wait.until(seen.element_to_be_clickable((By.LINK_TEXT, title))).click()
            wait.until(seen.url_contains(f"/articles/{slug}/"))
            for lang in ("zh", "en"):
                if lang == "en":
                    switch_language(browser, wait, "en")
                    wait.until(seen.url_contains(f"/en/articles/{slug}/"))
                box = wait.until(
                    seen.visibility_of_element_located(
                        (By.CSS_SELECTOR, ".admonition .admonition-title")
                    )
                )
                assert box.text == SEEN[slug, lang]  # first on the page, above the card
                browser.save_screenshot(str(SCREENSHOTS / f"{slug}-{lang}.png"))


WIDTHS = (1280, 390)  # a desktop's window and a phone's
# A line of text narrower than this (in ems of its font: about 20 Latin letters or 10
# Chinese characters) is no readable column.
MIN_LINE_EMS = 10
# The narrowest line of each paragraph of the article but its last (which may hold a word),
# in ems of its font; short paragraphs (a picture's own paragraph has no text) are left out.
LINE_WIDTHS = """
return [...document.querySelectorAll("article.md-content__inner p")].flatMap(p => {
  if (p.textContent.trim().length < 40) return [];
  const range = document.createRange();
  range.selectNodeContents(p);
  const lines = {};  // a line's boxes (text, links) by their top
  for (const r of range.getClientRects()) {
    const top = Math.round(r.top);
    const [left, right] = lines[top] || [r.left, r.right];
    lines[top] = [Math.min(left, r.left), Math.max(right, r.right)];
  }
  const tops = Object.keys(lines).map(Number).sort((a, b) => a - b).slice(0, -1);
  if (!tops.length) return [];
  const em = parseFloat(getComputedStyle(p).fontSize);
  const narrowest = Math.min(...tops.map(top => lines[top][1] - lines[top][0]));
  return [[p.textContent.trim().slice(0, 30), narrowest / em]];
});
"""
# Short paragraphs, each after the picture of a slide of its own: consecutive pictures
# floated side by side squeezed the next paragraph into a column one character wide.
PICTURES = (2, 3, 4, 5)
EN_BESIDE = [
    (f"Slide {n} shows how the scheduler hands out blocks of the KV cache on demand.", [f"s-0{n}"])
    for n in PICTURES
]
ZH_BESIDE = [
    (f"第 {n} 页讲调度器如何按需分配 KV cache 的块，不再为最长的回答预留显存。", [f"s-0{n}"])
    for n in PICTURES
]


def test_paragraphs_beside_slide_pictures_keep_a_readable_column_at_every_width(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    publish(
        outputs,
        "pictures",
        "分页的图",
        dt.date(2026, 3, 1),
        zh=ZH_BESIDE,
        en=EN_BESIDE,
        pictures=PICTURES,
    )
    build_site(outputs, outputs / "site", inputs, policy="preview")
    shots = SCREENSHOTS.parent / "widths"
    shots.mkdir(parents=True, exist_ok=True)
    site, profile = outputs / "site" / "public", tmp_path / "profile"
    with serving(site, free_port()) as base, chromium(profile) as browser:
        for lang, path in (("zh", "articles/pictures/"), ("en", "en/articles/pictures/")):
            for width in WIDTHS:
                browser.set_window_size(width, 900)
                browser.get(f"{base}/{path}")
                WebDriverWait(browser, 30).until(
                    lambda b: b.execute_script("return document.readyState") == "complete"
                )
                lines = browser.execute_script(LINE_WIDTHS)
                browser.execute_script("document.querySelector('article h2').scrollIntoView()")
                browser.save_screenshot(str(shots / f"article-{lang}-{width}.png"))
                assert len(lines) >= len(PICTURES), lines
                narrow = [(text, round(ems, 1)) for text, ems in lines if ems < MIN_LINE_EMS]
                assert not narrow, (lang, width, narrow)


# The walk through the library, per language: (what to click, where it leads), from the
# index. Each page is looked at at every width, and photographed.
WALK = {
    "zh": [
        ("KV cache 与显存", "/topics/memory/"),
        ("共享前缀", "/articles/lmsys/prefix/"),
        ("问答", "/qa/lmsys/prefix/"),
        ("← 共享前缀", "/articles/lmsys/prefix/"),
        ("PagedAttention", "/glossary/pagedattention/"),
        ("← 术语表", "/glossary/"),
    ],
    "en": [
        ("KV cache and memory", "/en/topics/memory/"),
        ("Sharing prefixes", "/en/articles/lmsys/prefix/"),
        ("Q&A", "/en/qa/lmsys/prefix/"),
        ("← Sharing prefixes", "/en/articles/lmsys/prefix/"),
        ("PagedAttention", "/en/glossary/pagedattention/"),
        ("← Glossary", "/en/glossary/"),
    ],
}
# What each page shows that says it is the page it should be.
SHOWN = {
    "/topics/memory/": "阅读路径：KV cache 与显存",
    "/en/topics/memory/": "Reading path: KV cache and memory",
    "/articles/lmsys/prefix/": "本文是『KV cache 与显存』路径中的进阶篇",
    "/en/articles/lmsys/prefix/": "This is the next step of the “KV cache and memory” path",
    "/glossary/pagedattention/": "PagedAttention 把 KV cache 切成 16 个 token 的块。",
    "/en/glossary/pagedattention/": "PagedAttention splits the KV cache into blocks of 16 tokens.",
}


def click_in_article(browser, wait, text: str) -> None:
    """Follow the link of the page's content (not its navigation) that reads `text`."""
    xpath = f"//article//a[normalize-space()={text!r}]"
    wait.until(seen.element_to_be_clickable((By.XPATH, xpath))).click()


def test_a_reader_walks_from_the_index_through_a_path_an_article_its_qa_and_a_term(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    shelve(outputs, inputs, questions=True)
    build_site(outputs, outputs / "site", inputs, policy="preview")
    shots = SCREENSHOTS.parent / "library"
    shots.mkdir(parents=True, exist_ok=True)
    site, profile = outputs / "site" / "public", tmp_path / "profile"
    with serving(site, free_port()) as base, chromium(profile) as browser:
        wait = WebDriverWait(browser, 30)
        for lang, steps in WALK.items():
            browser.get(f"{base}/{'en/' if lang == 'en' else ''}")
            for n, (link, lands) in enumerate(steps):
                click_in_article(browser, wait, link)
                wait.until(seen.url_to_be(f"{base}{lands}"))
                if lands in SHOWN:
                    content = browser.find_element(By.CSS_SELECTOR, "article").text
                    assert SHOWN[lands] in content, (lands, content[:300])
                browser.save_screenshot(
                    str(shots / f"{lang}-{n}-{lands.strip('/').replace('/', '-')}.png")
                )
            browser.back()  # and back: the term, then the article again
            wait.until(seen.url_to_be(f"{base}{steps[-2][1]}"))
            browser.back()
            wait.until(seen.url_to_be(f"{base}{steps[-3][1]}"))
        for width in WIDTHS:  # every page type keeps a readable column
            browser.set_window_size(width, 900)
            for page in [*SHOWN, "/qa/lmsys/prefix/", "/hubs/lmsys/", "/en/hubs/lmsys/", "/"]:
                browser.get(f"{base}{page}")
                wait.until(lambda b: b.execute_script("return document.readyState") == "complete")
                lines = browser.execute_script(LINE_WIDTHS)
                narrow = [(text, round(ems, 1)) for text, ems in lines if ems < MIN_LINE_EMS]
                assert not narrow, (page, width, narrow)


# Every dialog a page opens, recorded before any of its scripts runs.
DIALOG_SPY = """
window.__dialogs = [];
for (const name of ["alert", "confirm", "prompt"]) {
  window[name] = (...args) => { window.__dialogs.push(name + ":" + args.join(" ")); };
}
"""


def test_a_site_of_hostile_inputs_opens_no_dialog_in_a_browser(tmp_path):
    public = hostile_site(tmp_path)
    with serving(public, free_port()) as base, chromium(tmp_path / "profile") as browser:
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": DIALOG_SPY})
        wait = WebDriverWait(browser, 30)
        for page in [p.removesuffix("index.html") for p in PAGES]:
            for prefix in ("", "en/"):
                browser.get(f"{base}/{prefix}{page}")
                wait.until(lambda b: b.execute_script("return document.readyState") == "complete")
                assert browser.execute_script("return window.__dialogs") == [], prefix + page
                assert live_markup(browser.page_source) == [], prefix + page
        box = wait.until(seen.element_to_be_clickable((By.CSS_SELECTOR, "input.md-search__input")))
        box.click()
        box.send_keys("onerror")
        wait.until(seen.visibility_of_element_located((By.CSS_SELECTOR, ".md-search-result__item")))
        assert browser.execute_script("return window.__dialogs") == []
        assert live_markup(browser.page_source) == []  # the search results too
        browser.save_screenshot(str(SCREENSHOTS.parent / "hostile-search.png"))


def test_a_reviewer_sees_each_sentence_with_its_source_and_readers_see_the_corrections(
    tmp_path,
):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    corrected = (
        "PagedAttention 按需分配 16 个 token 一块的显存。",
        "PagedAttention hands out memory.",
    )
    publish(outputs, "edited", "校对过的演讲", dt.date(2026, 3, 1), edits={"f-1": corrected})
    publish(outputs, "misheard", "听错的演讲", dt.date(2026, 2, 1), misheard=("max",))
    build_site(outputs, outputs / "site", inputs)
    site, profile = outputs / "site" / "public", tmp_path / "profile"
    with serving(site, free_port()) as base, chromium(profile) as browser:
        wait = WebDriverWait(browser, 30)
        for lang, prefix, said in (("zh", "", "人工校对 1 处"), ("en", "/en", "corrected 1 of")):
            browser.get(f"{base}{prefix}/articles/edited/")
            box = wait.until(seen.visibility_of_element_located((By.CSS_SELECTOR, ".admonition")))
            assert said in box.text, (lang, box.text)
        browser.get(f"{base}/proof/misheard/")
        ids = wait.until(seen.presence_of_all_elements_located((By.CSS_SELECTOR, "p > code")))
        assert {"title", "summary", "h-1", "f-0", "f-1"} <= {i.text for i in ids}
        marked = browser.find_element(By.CSS_SELECTOR, "p mark")
        assert marked.text == "max" and "reserving the" in marked.find_element(By.XPATH, "..").text
        commands = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "pre code")]
        assert any(c.startswith("talk2article edit inputs/misheard f-0 --zh") for c in commands)
        browser.save_screenshot(str(SCREENSHOTS / "proof.png"))
