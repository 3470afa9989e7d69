"""The remote path: OPENAI_BASE_URL pointing at a separately started OpenAI-compatible
server (llama.cpp's, started here with the small bundled model), used by the CLI exactly
as a vLLM or OpenAI endpoint would be. The talk is subtitles alone, so no Whisper runs."""

import json
import os
import subprocess
import sys

import pytest

from pipeline.llm.options import EmbeddedLLMOptions
from pipeline.llm.server import embedded_server
from pipeline.schema import Ledger
from pipeline.settings import Settings

pytestmark = pytest.mark.models

SRT = """1
00:00:00,500 --> 00:00:06,000
Reserving memory for the longest possible answer wastes 60 to 80 percent of the KV cache.

2
00:00:06,500 --> 00:00:12,000
PagedAttention hands out the KV cache in blocks of 16 tokens, only when a sequence grows.
"""


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory):
    cache = Settings().cache_dir
    settings = Settings(cache_dir=cache, llama=EmbeddedLLMOptions(model="0.5b", n_ctx=4096))
    with embedded_server(settings.llm_setup) as server:
        yield server.endpoint.base_url, server.endpoint.model


def test_a_talk_runs_against_a_separately_started_endpoint(endpoint, tmp_path):
    base_url, name = endpoint
    talk = tmp_path / "inputs" / "subtitles-only"
    talk.mkdir(parents=True)
    (talk / "talk.srt").write_text(SRT)
    (talk / "talk.yaml").write_text("language: en\nvideo_url: https://example.org/v.mp4\n")
    env = {
        **os.environ,
        "OPENAI_BASE_URL": base_url,
        "OPENAI_API_KEY": "not-needed",
        "OPENAI_MODEL": name,
        "OPENAI_STRUCTURED_OUTPUT": "json_object",  # for servers that reject json_schema
    }
    command = [sys.executable, "-m", "flows.cli", "run", str(talk)]
    command += ["--inputs", str(tmp_path / "inputs"), "--outputs", str(tmp_path / "outputs")]
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
    out = tmp_path / "outputs" / "subtitles-only"
    record = json.loads((out / "run.json").read_text())
    assert record["status"] in ("succeeded", "fallback"), result.stdout + result.stderr
    calls = [json.loads(line) for line in (out / "llm_calls.jsonl").read_text().splitlines()]
    assert {c["model"] for c in calls} == {name}  # every call went to that endpoint
    english = (out / "article.en.md").read_text()
    ledger = Ledger.model_validate_json((out / "ledger.json").read_text())
    # the small model's sentences may all fail their checks: then they are left out, listed
    assert ledger.chapters or ledger.left_out()
    if ledger.chapters:
        assert "(https://example.org/v.mp4#t=" in english  # citations link to the second
