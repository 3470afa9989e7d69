"""What is published: a talk's last run that made articles, whatever runs after it."""

import datetime as dt

import pytest

from pipeline.core.errors import StageFailure
from pipeline.core.store import TalkStore
from pipeline.library.talks import (
    PublishedTalk,
    keep_published,
    keep_unkept,
    load_talk,
    published_is_current,
    reviewers_task,
)
from pipeline.review.decisions import DECISIONS_FILE, decide, record_decision
from pipeline.schema import RunRecord, StageError
from pipeline.site import site_pages
from pipeline.site.proof import proof_page
from pipeline.talk import refuse_reserved
from tests.site.published import publish


def failed_run(folder, file) -> None:
    """A later run of the talk that failed on `file`, as the stage runner leaves it."""
    error = StageError(stage="edits", message="edits.yaml is not valid YAML text (line 2)")
    error.file = str(file)
    started = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    record = RunRecord(talk="talk", status="failed", started=started, errors=[error])
    TalkStore(folder).write("run.json", record)
    for name in ("article.zh.md", "article.en.md", "edited.json"):
        (folder / name).unlink(missing_ok=True)


def test_a_failed_run_leaves_the_last_good_articles_published_and_says_why(tmp_path):
    inputs = tmp_path / "inputs"
    folder = publish(tmp_path / "outputs", "talk", "演讲", dt.date(2026, 4, 1))
    keep_published(TalkStore(folder))
    assert published_is_current(folder)
    failed_run(folder, inputs / "talk" / "edits.yaml")
    assert not published_is_current(folder)  # the nightly tries the talk again

    found = load_talk(folder, "talk", inputs)
    assert isinstance(found, PublishedTalk) and found.draft.zh.title
    assert found.picture(2)  # its slide pictures are kept with it
    assert found.failure.file == "inputs/talk/edits.yaml"  # not where this machine keeps it
    assert reviewers_task(found).startswith("the last run failed: inputs/talk/edits.yaml: ")
    page = proof_page(found)
    assert "上次运行失败" in page and "the last run failed: inputs/talk/edits.yaml" in page


def test_outputs_of_a_version_that_kept_none_are_kept_before_a_run_can_fail(tmp_path):
    folder = publish(tmp_path / "outputs", "talk", "演讲", dt.date(2026, 4, 1))
    assert isinstance(load_talk(folder, "talk", tmp_path / "inputs"), PublishedTalk)
    keep_unkept(TalkStore(folder))  # what a run does first
    failed_run(folder, tmp_path / "inputs" / "talk" / "talk.srt")
    found = load_talk(folder, "talk", tmp_path / "inputs")
    assert isinstance(found, PublishedTalk) and found.failure.file == "inputs/talk/talk.srt"


def test_a_broken_decisions_file_leaves_the_decisions_last_read_standing(tmp_path):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    folder = publish(outputs, "talk", "演讲", dt.date(2026, 4, 1))
    (inputs / "talk").mkdir(parents=True)
    found = load_talk(folder, "talk", inputs)
    approval = decide(found.draft, found.review.card.verdict, "approved", "Ada")
    record_decision(inputs / "talk", approval)
    assert load_talk(folder, "talk", inputs).standing.state == "approved"  # read, kept

    (inputs / "talk" / DECISIONS_FILE).write_text("decisions: [\n")  # a typo by hand
    found = load_talk(folder, "talk", inputs)
    assert found.standing.state == "approved" and found.standing.publishable("approved")
    assert "decisions.yaml" in found.decisions_problem and "line" in found.decisions_problem
    with pytest.raises(StageFailure, match="decisions.yaml"):  # nothing is written over it
        record_decision(inputs / "talk", approval)

    (inputs / "talk" / DECISIONS_FILE).unlink()  # gone: no decision stands
    assert load_talk(folder, "talk", inputs).standing.state == "awaiting"


def url_of(page: str) -> str:
    """The address MkDocs gives a docs/ page (directory URLs; the English under en/)."""
    stem = page.removesuffix(".md")
    lang, stem = ("en/", stem.removesuffix(".en")) if stem.endswith(".en") else ("", stem)
    return lang + ("" if stem == "index" else stem.removesuffix("/index"))


def test_no_talk_can_replace_a_page_of_the_site(tmp_path):
    from pipeline.library import build_library
    from pipeline.site.pages import list_path, page_path

    # why `index` is refused: its article would stand where the list of articles does
    assert url_of(page_path("articles", "index", "zh")) == url_of(list_path("articles", "zh"))
    outputs, talks, refused = tmp_path / "outputs", [], []
    names = ["talk", "index", "articles", "meetups/index", "proof", "qa", "about", "topics"]
    names += ["memory", "en", "talk.en", "site", "evals", ".hidden", "Index", "assets"]
    for slug in names:
        publish(outputs, slug, "演讲", dt.date(2026, 4, 1), questions=True, terms=("KV cache",))
        found = load_talk(outputs / slug, slug, tmp_path / "inputs")
        (talks if isinstance(found, PublishedTalk) else refused).append(found)
    urls = [url_of(page) for page in site_pages(build_library(talks, tmp_path / "inputs"))]
    assert len(urls) == len(set(urls))  # no page stands where another does
    assert len(refused) == 7 and "articles" in [t.slug for t in talks]
    with pytest.raises(StageFailure, match="cannot be called 'site'"):  # before any run
        refuse_reserved(tmp_path / "site", "site")
    refuse_reserved(tmp_path / "site", "meetups/site")  # only outputs/site is the site
