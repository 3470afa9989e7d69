"""What a reader sees of a person's review, in headless Chromium: an approved article and
one awaiting review, each in Chinese and in English. Screenshots in
outputs/site-screenshots/review/."""

import datetime as dt
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import WebDriverWait

from pipeline.site import build_site
from tests.site.browser import chromium, free_port, serving, switch_language
from tests.site.published import ZH_UNTRANSLATED, publish
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
