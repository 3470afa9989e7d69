import json

import httpx
import pytest
from pydantic import BaseModel, Field

from pipeline.llm import Endpoint, LLMError, OpenAILLM
from pipeline.llm.client import response_format
from pipeline.prompts import RenderedPrompt
from pipeline.settings import LLMOptions

PROMPT = RenderedPrompt("p", "hash", "system text", "user text")


class Answer(BaseModel):
    value: int


def completion(content: str) -> dict:
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": content},
            }
        ],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
    }


def scripted_llm(contents: list[str], requests: list[dict], sink=None, structured="json_object"):
    def handle(request: httpx.Request) -> httpx.Response:
        requests.append(json.loads(request.content))
        return httpx.Response(200, json=completion(contents.pop(0)))

    endpoint = Endpoint("http://llm.test/v1", "key", "m", structured)
    client = httpx.Client(transport=httpx.MockTransport(handle))
    return OpenAILLM(endpoint, LLMOptions(max_retries=3), sink=sink, http_client=client)


def test_invalid_reply_is_retried_with_the_problem_fed_back():
    requests, calls = [], []
    llm = scripted_llm(['{"value": "many"}', '{"value": 7}'], requests, sink=calls.append)
    assert llm.complete(PROMPT, Answer, max_tokens=50) == Answer(value=7)
    assert len(requests) == 2
    assert "invalid" in requests[1]["messages"][-1]["content"]
    assert "many" not in json.dumps(requests[1]["messages"])  # the bad reply is not shown
    assert requests[1]["temperature"] > requests[0]["temperature"]
    assert [c["valid"] for c in calls] == [False, True]
    assert calls[0]["reply"] == '{"value": "many"}' and calls[0]["prompt_id"] == "p"


def test_garbage_every_time_is_an_llm_error():
    llm = scripted_llm(["not json"] * 3, [])
    with pytest.raises(LLMError, match="no valid reply after 3 attempts"):
        llm.complete(PROMPT, Answer)


def test_structured_output_mode_follows_the_endpoint():
    requests = []
    scripted_llm(['{"value": 1}'], requests).complete(PROMPT, Answer)
    assert requests[0]["response_format"]["type"] == "json_object"
    assert requests[0]["response_format"]["schema"]["required"] == ["value"]
    requests = []
    scripted_llm(['{"value": 1}'], requests, structured="json_schema").complete(PROMPT, Answer)
    assert requests[0]["response_format"]["json_schema"]["name"] == "Answer"


def test_long_string_bounds_are_left_out_of_the_grammar():
    class Text(BaseModel):
        short: str = Field(max_length=80)
        long: str = Field(max_length=1500)

    schema = response_format(Text, "json_object")["schema"]["properties"]
    assert schema["short"]["maxLength"] == 80 and "maxLength" not in schema["long"]


def test_timeout_is_an_llm_error_naming_the_endpoint():
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    endpoint = Endpoint("http://llm.test/v1", "key", "m", "json_object")
    llm = OpenAILLM(
        endpoint,
        LLMOptions(timeout_s=1),
        http_client=httpx.Client(transport=httpx.MockTransport(slow)),
    )
    with pytest.raises(LLMError, match="llm.test.*timed out"):
        llm.complete(PROMPT, Answer)
