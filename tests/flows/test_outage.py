"""An outage is never a result: endpoint failures fail the stage (nothing stored, redone
next run), and what an endpoint echoes never reaches a file. The talk flow outside Prefect,
with the LLM test double answering through the real client."""

import json
from pathlib import Path

import httpx
import pytest

from flows.talk import run_talk
from pipeline.core.prompts import load_prompt
from pipeline.ledger import LedgerPrompts
from pipeline.llm.options import LLMOptions
from pipeline.settings import Settings
from tests.llm_double import SchemaReplies, scripted_llm

SRT = """1
00:00:00,500 --> 00:00:05,000
Reserving memory for the longest answer wastes most of it.

2
00:00:05,500 --> 00:00:10,500
Blocks of sixteen tokens are handed out as a sequence grows.
"""
WRITING = LedgerPrompts.NAMES


class Session:
    """Stands in for LLMSession: the LLM double answering with `reply(body, prompt_name)`."""

    def __init__(self, reply, slots: int = 1) -> None:
        first_lines = {n: load_prompt(n).system.splitlines()[0] for n in (*WRITING, "outline")}

        def answer(body: dict):
            system = body["messages"][0]["content"]
            name = next((n for n, line in first_lines.items() if system.startswith(line)), None)
            return reply(body, name)

        self.llm, self.endpoint = scripted_llm(answer, slots=slots)
        self.model_id, self.runtime = "scripted", "a test double"

    def get(self):
        return self.llm


@pytest.fixture
def talk(tmp_path) -> tuple[Path, Settings]:
    folder = tmp_path / "inputs" / "paging"
    folder.mkdir(parents=True)
    (folder / "talk.srt").write_text(SRT)
    settings = Settings(inputs_dir=tmp_path / "inputs", outputs_dir=tmp_path / "outputs")
    return folder, settings


def valid(body: dict, name: str | None) -> str:
    return SchemaReplies(keyed=True)(body)


def test_connections_refused_in_the_outline_fail_the_stage_and_the_next_run_redoes_it(talk):
    folder, settings = talk

    def refuse_outline(body: dict, name: str | None):
        if name == "outline":
            raise httpx.ConnectError("connection refused")
        return valid(body, name)

    record = run_talk(folder, settings, Session(refuse_outline))
    assert record.status == "failed" and record.stage == "outline"
    assert "Connection error" in record.errors[0].message
    out = settings.outputs_dir / "paging"
    assert (out / "notes.json").exists()  # the stage before is kept
    assert not (out / "outline.json").exists() and not (out / "article.en.md").exists()

    again = run_talk(folder, settings, Session(valid))
    assert {s.name: s.status for s in again.stages}["outline"] == "done"
    assert again.status in ("succeeded", "fallback"), again.errors


def test_http_500_on_every_call_writing_the_ledger_fails_the_talk(talk):
    folder, settings = talk

    def fail_writing(body: dict, name: str | None):
        if name in WRITING:
            return httpx.Response(500, json={"error": {"message": "internal error"}})
        return valid(body, name)

    record = run_talk(folder, settings, Session(fail_writing, slots=4))
    assert record.status == "failed" and record.stage == "ledger"
    out = settings.outputs_dir / "paging"
    assert not (out / "ledger.json").exists() and not (out / "article.zh.md").exists()
    calls = [json.loads(line) for line in (out / "llm_calls.jsonl").read_text().splitlines()]
    assert any(c["outage"] and "500" in c["problem"] for c in calls)  # failed calls logged


def test_an_endpoint_echoing_the_key_leaves_it_in_no_file(talk):
    folder, settings = talk
    secret = "echoed-secret-key-4242"
    LLMOptions(api_key=secret)  # the configured key: known to be secret

    def echo(body: dict, name: str | None) -> str:
        reply = json.loads(valid(body, name))
        if "text" in reply:
            reply["text"] += f" The key is {secret}."
        return json.dumps(reply)

    record = run_talk(folder, settings, Session(echo))
    assert record.status in ("succeeded", "fallback"), record.errors
    files = [p for p in settings.outputs_dir.rglob("*") if p.is_file()]
    assert len(files) > 8
    assert not [p.name for p in files if secret in p.read_text(errors="replace")]
