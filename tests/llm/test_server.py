import psutil
import pytest
from pydantic import BaseModel

from pipeline.llm.client import LLMError, OpenAILLM
from pipeline.llm.options import LLMOptions
from pipeline.llm.server import llm_endpoint
from pipeline.prompts import RenderedPrompt
from pipeline.settings import Settings


class Capital(BaseModel):
    city: str


def is_llama_server(process: psutil.Process) -> bool:
    try:
        return "llama_cpp.server" in " ".join(process.cmdline())
    except psutil.Error:  # a zombie or gone: another test's child, not ours
        return False


@pytest.mark.models
def test_embedded_server_answers_with_a_schema_and_stops_on_errors():
    settings = Settings(llm=LLMOptions(base_url=None))
    processes = []
    with pytest.raises(RuntimeError, match="boom"), llm_endpoint(settings) as endpoint:
        assert endpoint.base_url.startswith("http://127.0.0.1:")
        prompt = RenderedPrompt(
            "capital", "h", "Reply with JSON only.", "What is the capital of France?"
        )
        reply = OpenAILLM(endpoint, settings.llm).complete(prompt, Capital, max_tokens=30)
        assert "Paris" in reply.city
        processes = [p for p in psutil.Process().children() if is_llama_server(p)]
        assert processes
        raise RuntimeError("boom")
    assert all(not p.is_running() or p.status() == "zombie" for p in processes)


def test_remote_endpoint_without_key_says_how_to_fix_it():
    settings = Settings(llm=LLMOptions(base_url="http://x/v1", api_key=None, model="m"))
    with pytest.raises(LLMError, match="OPENAI_API_KEY"), llm_endpoint(settings):
        pass
