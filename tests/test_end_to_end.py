"""The real thing: the CLI over the example talk and two broken talks, with the bundled
Whisper and Qwen models, an embedded llama.cpp server and an ephemeral Prefect."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.stages import STAGES
from pipeline.text import CHINESE_PROSE_SHARE, cjk_share, clock, has_cjk
from tests.helpers import DATA, EXAMPLE
from tests.site.browser import free_port

pytestmark = pytest.mark.models
CLI = [sys.executable, "-m", "flows.cli"]
# The browser test serves the site and the talk's video here; the talk links to it.
SITE_PORT = free_port()
VIDEO_URL = f"http://127.0.0.1:{SITE_PORT}/media/talk.mp4"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, "run", *args],
        capture_output=True,
        text=True,
        timeout=1800,
        env={**os.environ, "COLUMNS": "200"},
    )


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    root = tmp_path_factory.mktemp("e2e")
    inputs = root / "inputs"
    shutil.copytree(EXAMPLE, inputs / EXAMPLE.name)
    with (inputs / EXAMPLE.name / "talk.yaml").open("a") as meta:
        meta.write(f"video_url: {VIDEO_URL}\n")
    (inputs / "no-media").mkdir()
    shutil.copy(EXAMPLE / "slides.pdf", inputs / "no-media" / "slides.pdf")
    (inputs / "broken-deck").mkdir()
    shutil.copy(DATA / "jfk.flac", inputs / "broken-deck" / "talk.flac")
    (inputs / "broken-deck" / "slides.pptx").write_bytes(b"PK\x03\x04 truncated")
    result = run_cli("--all", "--inputs", str(inputs), "--outputs", str(root / "outputs"))
    return root / "outputs", result


def run_record(outputs: Path, talk: str) -> dict:
    return json.loads((outputs / talk / "run.json").read_text())


def body_paragraphs(markdown: str) -> list[str]:
    body = markdown.split("---\n", 2)[2]
    return [b for b in body.split("\n\n") if b.strip() and not b.startswith("#")]


def test_example_talk_becomes_two_articles(batch):
    outputs, result = batch
    record = run_record(outputs, EXAMPLE.name)
    assert record["status"] == "succeeded", result.stdout + result.stderr
    assert [s["name"] for s in record["stages"]] == [stage.name for stage in STAGES]
    zh = (outputs / EXAMPLE.name / "article.zh.md").read_text()
    en = (outputs / EXAMPLE.name / "article.en.md").read_text()
    assert str(outputs / EXAMPLE.name / "article.zh.md") in result.stdout.replace("\n", "")
    assert zh.startswith("---\n") and "lang: zh" in zh and "lang: en" in en
    assert zh.count("\n## ") == en.count("\n## ") >= 1  # chapters with nothing new are left out
    assert all(cjk_share(p) >= CHINESE_PROSE_SHARE for p in body_paragraphs(zh))
    assert not any(has_cjk(p) for p in body_paragraphs(en))


def test_every_citation_resolves_to_a_time_or_a_slide(batch):
    outputs, _ = batch
    folder = outputs / EXAMPLE.name
    evidence = json.loads((folder / "evidence.json").read_text())["units"]
    times = {clock(u["start"]) for u in evidence if u["kind"] == "transcript"}
    slides = {u["slide"] for u in evidence if u["slide"]}
    for name in ("article.zh.md", "article.en.md"):
        text = (folder / name).read_text()
        stamps = re.findall(r"\[(\d\d:\d\d)\]", text)
        cited_slides = {int(n) for n in re.findall(r"slide (\d+)", text)}
        assert stamps or cited_slides
        assert set(stamps) <= times and cited_slides <= slides
    review = json.loads((folder / "review.json").read_text())
    checks = {c["name"]: c["passed"] for c in review["checks"]}
    assert checks["citations"] and checks["same_structure"] and checks["languages"]
    # Drafting replaces what it cannot fix with the claims themselves: always supported.
    assert checks["sentences_supported"] and checks["no_duplicate_paragraphs"]
    assert (folder / "transcript.srt").read_text().startswith("1\n")
    calls = [json.loads(line) for line in (folder / "llm_calls.jsonl").read_text().splitlines()]
    assert {c["prompt_id"] for c in calls} == {
        "notes",
        "outline",
        "write_paragraph",
        "translate_zh",
    }


def test_slides_are_pictured_and_placed_on_the_timeline(batch):
    outputs, _ = batch
    folder = outputs / EXAMPLE.name
    deck = json.loads((folder / "deck.json").read_text())
    assert deck["thumbnails"] == "pdf"
    assert all((folder / s["thumbnail"]).is_file() for s in deck["slides"])
    spans = json.loads((folder / "timeline.json").read_text())["spans"]
    assert [s["slide"] for s in spans] == [s["index"] for s in deck["slides"]]
    assert {s["method"] for s in spans} == {"frame"}
    units = json.loads((folder / "evidence.json").read_text())["units"]
    spoken = [u for u in units if u["kind"] == "transcript"]
    assert all(u["slide"] and re.fullmatch(r"t-\d\d:\d\d:\d\d(-\d+)?", u["id"]) for u in spoken)


def test_bad_talks_fail_clearly_and_alone(batch):
    outputs, result = batch
    assert result.returncode == 1
    no_media = run_record(outputs, "no-media")
    assert no_media["status"] == "failed"
    assert no_media["errors"][0]["stage"] == "talk"
    assert no_media["errors"][0]["file"].endswith("no-media")
    broken = run_record(outputs, "broken-deck")
    assert broken["status"] == "partial"  # an unusable deck: article from the speech alone
    assert broken["errors"][0]["stage"] == "deck"
    assert broken["errors"][0]["file"].endswith("slides.pptx")
    assert (outputs / "broken-deck" / "article.en.md").exists()
    assert "slides.pptx" in result.stdout and "no recording" in result.stdout


def test_rerun_reuses_every_stage(batch):
    """No transcription (the transcript is reused) and no LLM call (none logged)."""
    outputs, _ = batch
    talk = outputs.parent / "inputs" / EXAMPLE.name
    before = (outputs / EXAMPLE.name / "article.en.md").read_text()
    calls = (outputs / EXAMPLE.name / "llm_calls.jsonl").read_text()
    result = run_cli(str(talk), "--inputs", str(talk.parent), "--outputs", str(outputs))
    assert result.returncode == 0, result.stdout + result.stderr
    stages = {s["name"]: s["status"] for s in run_record(outputs, EXAMPLE.name)["stages"]}
    assert all(
        stages[name] == "cached"
        for name in ("deck", "transcript", "timeline", "evidence", "outline", "draft", "review")
    )
    assert (outputs / EXAMPLE.name / "article.en.md").read_text() == before
    assert (outputs / EXAMPLE.name / "llm_calls.jsonl").read_text() == calls


SCREENSHOTS = Path(__file__).resolve().parents[1] / "outputs" / "site-screenshots"


def test_the_site_in_a_browser(batch, tmp_path):
    """The built site in headless Chromium: the example's card on the index, its article,
    a [mm:ss] link to the video's second, the language switch on the same page, and a
    Chinese search. Screenshots go to outputs/site-screenshots/."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as seen
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.site.browser import chromium, serving

    outputs, _ = batch
    result = subprocess.run(
        [*CLI, "site", "build", "--outputs", str(outputs)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "talk2article site serve" in result.stdout
    root = tmp_path / "served"
    shutil.copytree(outputs / "site" / "public", root / "site")
    (root / "media").mkdir()
    shutil.copy(EXAMPLE / "talk.mp4", root / "media" / "talk.mp4")
    draft = json.loads((outputs / EXAMPLE.name / "draft.json").read_text())
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with serving(root, SITE_PORT) as base, chromium(tmp_path / "profile") as browser:
        wait = WebDriverWait(browser, 30)
        browser.get(f"{base}/site/")
        card = wait.until(seen.element_to_be_clickable((By.LINK_TEXT, draft["zh"]["title"])))
        browser.save_screenshot(str(SCREENSHOTS / "index.png"))
        card.click()
        wait.until(seen.url_contains(f"/articles/{EXAMPLE.parent.name}/{EXAMPLE.name}/"))
        article_url = browser.current_url
        assert "审稿卡" in browser.page_source
        browser.save_screenshot(str(SCREENSHOTS / "article.png"))

        stamp_link = (
            "//a[starts-with(text(), '[') and string-length(text())=7 and contains(text(), ':')]"
        )
        stamp = browser.find_element(By.XPATH, stamp_link)  # "[mm:ss]"
        minutes, seconds = map(int, stamp.text.strip("[]").split(":"))
        assert stamp.get_attribute("href") == f"{VIDEO_URL}#t={minutes * 60 + seconds}"
        stamp.click()
        wait.until(seen.url_contains("/media/talk.mp4#t="))
        at = WebDriverWait(browser, 30).until(
            lambda b: b.execute_script(
                "const v = document.querySelector('video');"
                "return v && v.readyState > 0 ? v.currentTime : null;"
            )
        )
        assert abs(at - (minutes * 60 + seconds)) < 1.0

        browser.get(article_url)
        english = wait.until(
            seen.presence_of_element_located((By.CSS_SELECTOR, "a.md-select__link[hreflang='en']"))
        )
        browser.execute_script("arguments[0].click();", english)
        wait.until(seen.url_contains(f"/en/articles/{EXAMPLE.parent.name}/{EXAMPLE.name}/"))
        assert draft["en"]["title"] in browser.page_source
        browser.save_screenshot(str(SCREENSHOTS / "article-en.png"))
        chinese = browser.find_element(By.CSS_SELECTOR, "a.md-select__link[hreflang='zh']")
        browser.execute_script("arguments[0].click();", chinese)
        wait.until(lambda b: b.current_url == article_url)

        word = chinese_word(draft["zh"]["title"])
        browser.find_element(By.CSS_SELECTOR, "label.md-search__icon, .md-search__input").click()
        box = wait.until(seen.element_to_be_clickable((By.CSS_SELECTOR, "input.md-search__input")))
        box.send_keys(word)
        hit = wait.until(
            seen.presence_of_element_located((By.CSS_SELECTOR, "li.md-search-result__item"))
        )
        assert word in hit.text
        browser.save_screenshot(str(SCREENSHOTS / "search.png"))


def chinese_word(title: str) -> str:
    """A word of two or more Chinese characters of the title, as the search index cuts it."""
    import jieba

    return next(w for w in jieba.cut(title) if len(w) >= 2 and cjk_share(w) == 1.0)
