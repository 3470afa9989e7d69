"""The nightly run: changed talks only, nothing at all when nothing changed, and the same
flow spread over a local Dask cluster of two workers."""

import os
import shutil
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

from prefect.testing.utilities import prefect_test_harness

from tests.flows.test_crash import record, subtitles_talk
from tests.helpers import MADE
from tests.llm_server import FakeEndpoint, fake_endpoint


def nightly_cli(url: str, inputs: Path, outputs: Path, code: int = 0, **env) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "flows.cli", "nightly", "--inputs", str(inputs)]
        + ["--outputs", str(outputs)],
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **{k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"},
            "OPENAI_BASE_URL": url,
            "OPENAI_API_KEY": "test-key",
            "OPENAI_MODEL": "fake",
            "COLUMNS": "200",
            **env,
        },
    )
    assert done.returncode == code, done.stdout + done.stderr
    return done.stdout


def approve(inputs: Path, outputs: Path, talk: str) -> None:
    decided = subprocess.run(
        [sys.executable, "-m", "flows.cli", "review", "approve", str(inputs / talk)]
        + ["--by", "Ada", "--inputs", str(inputs), "--outputs", str(outputs)],
        capture_output=True,
        text=True,
    )
    assert decided.returncode == 0, decided.stdout + decided.stderr


def test_only_changed_talks_run_and_an_unchanged_night_does_nothing(tmp_path):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    subtitles_talk(inputs, "one")
    endpoint = FakeEndpoint()
    with fake_endpoint(endpoint) as url:
        nightly_cli(url, inputs, outputs)
        assert record(outputs, "one")["status"] in MADE
        assert (outputs / "site" / "public" / "index.html").is_file()
        asked = len(endpoint.requests)

        subtitles_talk(inputs, "two")  # a new talk: only it runs
        nightly_cli(url, inputs, outputs)
        assert record(outputs, "two")["status"] in MADE
        assert len(record(outputs, "one")["stages"]) == len(record(outputs, "two")["stages"])
        asked_two = len(endpoint.requests) - asked

        stdout = nightly_cli(url, inputs, outputs)  # nothing changed
        assert "nothing changed: 2 talks are current" in stdout
        assert len(endpoint.requests) == asked + asked_two  # no LLM call

        approve(inputs, outputs, "one")  # a reviewer's decision: the site again, no talk
        stdout = nightly_cli(url, inputs, outputs)
        assert "2 talks were current" in stdout and "site:" in stdout
        assert len(endpoint.requests) == asked + asked_two
        assert "已批准" in (outputs / "site/public/articles/one/index.html").read_text()
        assert "nothing changed" in nightly_cli(url, inputs, outputs)

        prompts = tmp_path / "prompts"  # an edited fact prompt: the ledger and after rerun
        shutil.copytree(Path(str(files("prompts"))), prompts)
        edited = prompts / "rewrite_facts_en.yaml"
        edited.write_text(edited.read_text().replace("technical editor", "careful editor"))
        nightly_cli(url, inputs, outputs, TALK2ARTICLE_PROMPTS_DIR=str(prompts))
    stages = {s["name"]: s["status"] for s in record(outputs, "one")["stages"]}
    assert stages["notes"] == stages["outline"] == stages["transcript"] == "cached"
    assert stages["ledger"] == stages["review"] == "done"


def test_a_typo_in_a_library_or_reviewer_file_takes_no_article_off_the_site(tmp_path):
    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    for name in ("one", "two"):
        subtitles_talk(inputs, name)
    public = outputs / "site" / "public"
    with fake_endpoint(FakeEndpoint()) as url:
        nightly_cli(url, inputs, outputs, TALK2ARTICLE_SITE_PUBLISH="approved")
        for name in ("one", "two"):
            approve(inputs, outputs, name)
        nightly_cli(url, inputs, outputs, TALK2ARTICLE_SITE_PUBLISH="approved")
        published = {p.parent.name for p in (public / "articles").glob("*/index.html")}
        assert published == {"one", "two"}

        (inputs / "corrections.yaml").write_text("corrections:\n- heard: [\n")
        (inputs / "two" / "edits.yaml").write_text("edits: [\n")
        stdout = nightly_cli(url, inputs, outputs, 1, TALK2ARTICLE_SITE_PUBLISH="approved")
    assert record(outputs, "one")["status"] in MADE and record(outputs, "two")["status"] == "failed"
    assert stdout.count("the talks run with no corrections") == 1  # once, not per talk
    assert {p.parent.name for p in (public / "articles").glob("*/index.html")} == published
    proof = (public / "proof" / "two" / "index.html").read_text()
    assert "the last run failed" in proof and "edits.yaml" in proof


def test_the_nightly_flow_spreads_talks_over_two_dask_workers(tmp_path, monkeypatch):
    from prefect_dask import DaskTaskRunner

    from flows.nightly import nightly

    inputs, outputs = tmp_path / "inputs", tmp_path / "outputs"
    for name in ("one", "two"):
        subtitles_talk(inputs, name)
    with fake_endpoint(FakeEndpoint()) as url:
        for key, value in {
            "OPENAI_BASE_URL": url,
            "OPENAI_API_KEY": "k",
            "OPENAI_MODEL": "m",
        }.items():
            monkeypatch.setenv(key, value)
        runner = DaskTaskRunner(
            cluster_kwargs={"n_workers": 2, "threads_per_worker": 1, "processes": True}
        )
        with prefect_test_harness(server_startup_timeout=120):
            report = nightly.with_options(task_runner=runner)(inputs, outputs)
    assert sorted(r.talk for r in report.records) == ["one", "two"]
    assert all(r.status in MADE for r in report.records) and report.site
