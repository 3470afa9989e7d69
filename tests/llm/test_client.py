import json

import httpx
import pytest
from pydantic import BaseModel, Field

from pipeline.llm.client import Endpoint, LLMError, OpenAILLM, response_format
from pipeline.llm.options import LLMOptions
from pipeline.prompts import RenderedPrompt
from tests.llm_double import scripted_llm

PROMPT = RenderedPrompt("p", "hash", "system text", "user text")


class Answer(BaseModel):
    value: int


def test_invalid_reply_is_retried_with_the_problem_fed_back():
    calls = []
    llm, endpoint = scripted_llm(['{"value": "many"}', '{"value": 7}'], sink=calls.append)
    assert llm.complete(PROMPT, Answer, max_tokens=50) == Answer(value=7)
    requests = endpoint.requests
    assert len(requests) == 2
    assert "invalid" in requests[1]["messages"][-1]["content"]
    assert "many" not in json.dumps(requests[1]["messages"])  # the bad reply is not shown
    assert requests[1]["temperature"] > requests[0]["temperature"]
    assert [c["valid"] for c in calls] == [False, True]
    assert calls[0]["reply"] == '{"value": "many"}' and calls[0]["prompt_id"] == "p"


def test_garbage_every_time_is_an_llm_error():
    llm, _ = scripted_llm(["not json"] * 3)
    with pytest.raises(LLMError, match="no valid reply after 3 attempts"):
        llm.complete(PROMPT, Answer)


def test_structured_output_mode_follows_the_endpoint():
    llm, endpoint = scripted_llm(['{"value": 1}'])
    llm.complete(PROMPT, Answer)
    assert endpoint.requests[0]["response_format"]["type"] == "json_object"
    assert endpoint.requests[0]["response_format"]["schema"]["required"] == ["value"]
    llm, endpoint = scripted_llm(['{"value": 1}'], structured="json_schema")
    llm.complete(PROMPT, Answer)
    assert endpoint.requests[0]["response_format"]["json_schema"]["name"] == "Answer"


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
