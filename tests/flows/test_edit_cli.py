"""`talk2article edit`: a reviewer corrects a sentence from the command line."""

import datetime as dt
import json

from typer.testing import CliRunner

from flows import cli
from pipeline.edits import read_edits
from tests.llm_server import FakeEndpoint, fake_endpoint
from tests.site.published import publish


def published(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    publish(tmp_path / "outputs", "talk", "演讲", dt.date(2026, 4, 1))
    (tmp_path / "inputs" / "talk").mkdir(parents=True)
    return tmp_path / "inputs" / "talk"


def test_a_sentence_given_in_chinese_is_translated_once_and_kept(tmp_path, monkeypatch):
    folder = published(tmp_path, monkeypatch)
    endpoint = FakeEndpoint(replies=lambda body: json.dumps({"text": "Most of it is wasted."}))
    with fake_endpoint(endpoint) as url:
        env = {"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "x", "OPENAI_MODEL": "double"}
        done = CliRunner().invoke(
            cli.app,
            ["edit", "inputs/talk", "f-0", "--zh", "大部分被浪费了。", "--by", "Lin"],
            env=env,
        )
    assert done.exit_code == 0, done.output
    assert len(endpoint.requests) == 1 and "大部分被浪费了。" in json.dumps(
        endpoint.requests[0], ensure_ascii=False
    )
    [edit] = read_edits(folder)
    assert (edit.zh, edit.en, edit.translated, edit.by) == (
        "大部分被浪费了。",
        "Most of it is wasted.",
        "en",
        "Lin",
    )


def test_both_languages_need_no_model_and_a_wrong_id_is_a_clear_error(tmp_path, monkeypatch):
    folder = published(tmp_path, monkeypatch)
    runner = CliRunner()
    both = ["edit", "inputs/talk", "f-0", "--zh", "甲。", "--en", "A.", "--by", "Lin"]
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": "x"}  # nothing there
    assert runner.invoke(cli.app, both, env=env).exit_code == 0
    wrong = runner.invoke(cli.app, ["edit", "inputs/talk", "f-9", "--en", "B.", "--by", "Lin"])
    assert wrong.exit_code == 1 and "no sentence f-9" in wrong.output
    nobody = runner.invoke(cli.app, ["edit", "inputs/talk", "f-0", "--drop"])
    assert nobody.exit_code != 0 and "--by" in nobody.output
    assert [e.en for e in read_edits(folder)] == ["A."]
