"""The embedded server: started, proven and restarted as the pipeline does it, with a
stand-in binary (tests/fake_llama_server.py) that dies the way the AMX build did; and the
real llama-server with the bundled model."""

import json
import signal
from pathlib import Path

import psutil
import pytest
from pydantic import BaseModel

from flows.talk import run_talk
from pipeline.core.prompts import RenderedPrompt
from pipeline.llm.client import EndpointError, OpenAILLM
from pipeline.llm.options import EmbeddedLLMOptions, LLMOptions
from pipeline.llm.server import death_message, embedded_server, llm_endpoint
from pipeline.llm.session import LLMSession
from pipeline.settings import Settings
from tests.fake_llama_server import fake_server_binary

SRT = """1
00:00:00,500 --> 00:00:06,000
Reserving memory for the longest possible answer wastes most of the cache.

2
00:00:06,500 --> 00:00:12,000
Paging hands the cache out in small blocks, only when a sequence grows.
"""


class Capital(BaseModel):
    city: str


def is_llama_server(process: psutil.Process) -> bool:
    try:
        return Path(process.cmdline()[0]).name == "llama-server"
    except (psutil.Error, IndexError):  # a zombie or gone: another test's child, not ours
        return False


@pytest.fixture
def fake_talk(tmp_path) -> tuple[Path, Settings]:
    folder = tmp_path / "inputs" / "talk"
    folder.mkdir(parents=True)
    (folder / "talk.srt").write_text(SRT)
    (tmp_path / "model.gguf").write_bytes(b"GGUF")
    llama = EmbeddedLLMOptions(
        server_path=fake_server_binary(tmp_path), model_path=tmp_path / "model.gguf"
    )
    settings = Settings(
        inputs_dir=tmp_path / "inputs",
        outputs_dir=tmp_path / "outputs",
        cache_dir=tmp_path / "cache",
        llm=LLMOptions(base_url=None),
        llama=llama,
    )
    return folder, settings


def run(folder: Path, settings: Settings):
    with LLMSession(settings.llm_setup) as session:
        return run_talk(folder, settings, session)


def test_a_server_dying_at_its_first_completion_fails_the_stage_by_name(fake_talk, monkeypatch):
    folder, settings = fake_talk
    monkeypatch.setenv("FAKE_LLAMA_DIE_AT", "1")
    record = run(folder, settings)
    assert record.status == "failed" and record.stage == "outline"
    [error] = record.errors
    assert "killed by SIGILL (an instruction this CPU cannot run)" in error.message
    assert "llama-server.log" in error.message
    out = settings.outputs_dir / "talk"
    assert not (out / "outline.json").exists()  # an outage is not a result

    monkeypatch.delenv("FAKE_LLAMA_DIE_AT")  # the runtime is fixed: the stage is redone
    record = run(folder, settings)
    stages = {s.name: s.status for s in record.stages}
    assert stages["outline"] == "done" and record.status in ("succeeded", "fallback")


def test_a_server_dying_mid_run_is_restarted_once(fake_talk, monkeypatch, tmp_path):
    folder, settings = fake_talk
    monkeypatch.setenv("FAKE_LLAMA_DIE_AT", "3")
    monkeypatch.setenv("FAKE_LLAMA_DIE_ONCE", str(tmp_path / "died"))
    record = run(folder, settings)
    assert record.status in ("succeeded", "fallback"), record.errors
    assert (tmp_path / "died").exists()


def test_a_server_that_keeps_dying_fails_the_talk_after_one_restart(fake_talk, monkeypatch):
    folder, settings = fake_talk
    monkeypatch.setenv("FAKE_LLAMA_DIE_AT", "3")
    record = run(folder, settings)
    assert record.status == "failed"
    assert "SIGILL" in record.errors[0].message and "restarted 1 time" in record.errors[0].message
    calls = (settings.outputs_dir / "talk" / "llm_calls.jsonl").read_text().splitlines()
    assert any(json.loads(line)["outage"] for line in calls)  # the failed call is recorded


def test_death_messages_say_what_happened(tmp_path):
    log = tmp_path / "llama-server.log"
    assert "killed by SIGKILL (out of memory" in death_message(-signal.SIGKILL, log)
    assert death_message(1, log).endswith(f"exited with code 1 — see {log}")


@pytest.mark.models
def test_embedded_server_answers_with_a_schema_and_stops_on_errors():
    settings = Settings(llm=LLMOptions(base_url=None))
    processes = []
    with pytest.raises(RuntimeError, match="boom"), embedded_server(settings.llm_setup) as server:
        assert server.endpoint.base_url.startswith("http://127.0.0.1:")
        prompt = RenderedPrompt(
            "capital", "h", "Reply with JSON only.", "What is the capital of France?"
        )
        reply = OpenAILLM(server.endpoint, settings.llm).complete(prompt, Capital, max_tokens=30)
        assert "Paris" in reply.city
        processes = [p for p in psutil.Process().children() if is_llama_server(p)]
        assert processes
        raise RuntimeError("boom")
    assert all(not p.is_running() or p.status() == "zombie" for p in processes)


def test_remote_endpoint_without_key_says_how_to_fix_it():
    settings = Settings(llm=LLMOptions(base_url="http://x/v1", api_key=None, model="m"))
    with pytest.raises(EndpointError, match="OPENAI_API_KEY"), llm_endpoint(settings.llm_setup):
        pass


def test_the_environment_reaches_the_llm_setup_and_the_dumped_settings_are_unchanged(
    monkeypatch, tmp_path
):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://x/v1")
    monkeypatch.setenv("TALK2ARTICLE_LLAMA_MODEL_PATH", str(tmp_path / "mine.gguf"))
    monkeypatch.setenv("TALK2ARTICLE_CACHE_DIR", str(tmp_path))
    settings = Settings()
    setup = settings.llm_setup
    assert setup.llm.base_url == "http://x/v1" and setup.cache_dir == tmp_path
    assert setup.llama.model_path == tmp_path / "mine.gguf"
    assert set(settings.model_dump()) >= {"llm", "llama", "cache_dir"}  # what fingerprints
    assert "llm_setup" not in settings.model_dump()
