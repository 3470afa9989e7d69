import json

import httpx
import pytest
from pydantic import BaseModel, Field

from pipeline.core.prompts import RenderedPrompt
from pipeline.llm.cache import CallCache
from pipeline.llm.client import (
    Endpoint,
    EndpointError,
    InvalidReply,
    LLMError,
    OpenAILLM,
    Unsupported,
    response_format,
)
from pipeline.llm.options import LLMOptions
from tests.llm_double import completion, scripted_llm

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


def test_garbage_every_time_is_an_invalid_reply_not_an_outage():
    llm, _ = scripted_llm(["not json"] * 3)
    with pytest.raises(InvalidReply, match="no valid reply after 3 attempts"):
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


def llm_answering(handler, **options) -> OpenAILLM:
    endpoint = Endpoint("http://llm.test/v1", "key", "m", "json_object")
    transport = httpx.Client(transport=httpx.MockTransport(handler))
    return OpenAILLM(endpoint, LLMOptions(**options), http_client=transport)


def test_a_timeout_is_one_request_and_the_endpoint_is_not_asked_again():
    asked = []

    def slow(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        raise httpx.ReadTimeout("slow", request=request)

    llm = llm_answering(slow, timeout_s=5).with_sink(lambda record: None)
    with pytest.raises(EndpointError, match=r"llm.test.*timed out after 5 s \(OPENAI_TIMEOUT_S\)"):
        llm.complete(PROMPT, Answer)
    assert len(asked) == 1  # no silent retry: the setting is the whole wait
    with pytest.raises(LLMError, match="not asked again"):
        llm.complete(PROMPT, Answer)
    assert len(asked) == 1


def test_the_embedded_server_has_a_timeout_of_its_own():
    """Long enough for the longest reply with every slot busy on 2 cores; the message names
    the setting that gave it."""
    from pipeline.llm.options import EmbeddedLLMOptions
    from pipeline.llm.server import EmbeddedServer

    assert EmbeddedLLMOptions().request_timeout_s > LLMOptions().timeout_s

    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    embedded = Endpoint("http://llm.test/v1", "embedded", "m", timeout=(7, "TALK2ARTICLE_X"))
    transport = httpx.Client(transport=httpx.MockTransport(slow))
    llm = OpenAILLM(embedded, LLMOptions(timeout_s=5), http_client=transport)
    assert llm.timeout == (7, "TALK2ARTICLE_X")
    with pytest.raises(EndpointError, match=r"timed out after 7 s \(TALK2ARTICLE_X\)"):
        llm.complete(PROMPT, Answer)
    from pipeline.settings import Settings

    server = EmbeddedServer(Settings().llm_setup)  # not started: its endpoint is known before
    assert server.endpoint.timeout == (900.0, "TALK2ARTICLE_LLAMA_REQUEST_TIMEOUT_S")


def test_an_endpoint_echoing_the_key_never_gets_it_stored():
    def echo(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401, json={"error": {"message": f"bad key {SECRET}"}})

    SECRET = "endpoint-key-12345"  # not shaped like a key: known from the settings
    LLMOptions(api_key=SECRET)  # the configured key is known to be secret
    llm = llm_answering(echo)
    with pytest.raises(LLMError) as caught:
        llm.complete(PROMPT, Answer)
    assert SECRET not in str(caught.value) and "***" in str(caught.value)


def test_replies_already_received_are_not_asked_again(tmp_path):
    calls = []
    cache = CallCache(tmp_path / "llm_cache.jsonl")
    llm, endpoint = scripted_llm(['{"value": "x"}', '{"value": 7}'])
    assert llm.with_sink(calls.append, cache).complete(PROMPT, Answer) == Answer(value=7)
    with open(tmp_path / "llm_cache.jsonl", "a") as log:
        log.write('{"key": "cut short by a ki')  # the last line of a killed run
    resumed, again = scripted_llm([])
    reused = resumed.with_sink(calls.append, CallCache(tmp_path / "llm_cache.jsonl"))
    assert reused.complete(PROMPT, Answer) == Answer(value=7)
    assert again.requests == [] and calls[-1]["usage"] == {"cached": True}


def test_an_http_error_is_an_outage_and_is_logged_as_a_call():
    calls = []
    llm = llm_answering(lambda request: httpx.Response(500, json={"error": "overloaded"}))
    with pytest.raises(EndpointError, match="prompt p: http://llm.test/v1 failed"):
        llm.with_sink(calls.append).complete(PROMPT, Answer)
    assert [(c["valid"], c["outage"]) for c in calls] == [(False, True)]
    assert "500" in calls[0]["problem"]


def test_invalid_replies_are_not_cached_so_a_fixed_endpoint_is_asked_again(tmp_path):
    cache_file = tmp_path / "llm_cache.jsonl"
    broken, _ = scripted_llm(["not json"] * 3)
    with pytest.raises(InvalidReply):
        broken.with_sink(lambda record: None, CallCache(cache_file)).complete(PROMPT, Answer)
    assert not cache_file.exists() or cache_file.read_text() == ""
    fixed, endpoint = scripted_llm(['{"value": 3}'])
    reply = fixed.with_sink(lambda record: None, CallCache(cache_file)).complete(PROMPT, Answer)
    assert reply == Answer(value=3) and len(endpoint.requests) == 1


def test_an_invalid_reply_an_older_version_cached_is_not_replayed(tmp_path):
    llm, _ = scripted_llm(['{"value": 4}'])
    cache = CallCache(tmp_path / "llm_cache.jsonl")
    request = {
        "model": "scripted",
        "messages": PROMPT.messages(),
        "max_tokens": 1024,
        "temperature": 0.2,
        "seed": 1234,
        "response_format": response_format(Answer, "json_object"),
    }
    cache.put(request, "not json")
    assert llm.with_sink(lambda record: None, cache).complete(PROMPT, Answer) == Answer(value=4)


def test_a_reply_echoing_the_key_is_stored_redacted(tmp_path):
    secret = "reply-echoed-key-98765"
    LLMOptions(api_key=secret)  # known to be secret
    llm, _ = scripted_llm([json.dumps({"text": f"the key is {secret}"})])

    class Text(BaseModel):
        text: str

    calls = []
    cache = CallCache(tmp_path / "llm_cache.jsonl")
    reply = llm.with_sink(calls.append, cache).complete(PROMPT, Text)
    assert secret not in reply.text and secret not in (tmp_path / "llm_cache.jsonl").read_text()


def test_a_dead_embedded_server_is_revived_and_asked_again():
    attempts = []

    def refuse_then_answer(request: httpx.Request) -> httpx.Response:
        attempts.append(request)
        if len(attempts) == 1:
            raise httpx.ConnectError("connection refused", request=request)
        return httpx.Response(200, json=completion('{"value": 5}'))

    revived = []
    llm = llm_answering(refuse_then_answer)
    llm = OpenAILLM(
        llm.endpoint,
        llm.opts,
        http_client=llm.http_client,
        revive=lambda: revived.append(1) or True,
    )
    assert llm.complete(PROMPT, Answer) == Answer(value=5) and revived == [1]


def test_a_refused_connection_without_a_server_to_revive_is_an_outage():
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(EndpointError, match="Connection error"):
        llm_answering(refuse).complete(PROMPT, Answer)


def test_no_more_requests_in_flight_than_the_endpoint_has_slots():
    """Calls beyond the slots (candidates inside parallel paragraphs) wait in the client,
    not in the server's queue where their timeout would run; copies share the slots."""
    import threading
    import time

    from pipeline.llm.parallel import ordered_map

    lock, state = threading.Lock(), {"now": 0, "most": 0}

    def reply(body: dict) -> str:
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return json.dumps({"value": 1})

    llm, endpoint = scripted_llm(reply, slots=2)
    copy = llm.with_sink(lambda record: None)

    def ask(v: int) -> int:
        return (llm if v % 2 else copy).complete(PROMPT, Answer, 50, variant=v).value

    assert ordered_map(ask, list(range(8)), 8) == [1] * 8
    assert state["most"] == 2
    assert sorted(r["seed"] for r in endpoint.requests) == [1234 + v for v in range(8)]


def completions_reply(logprobs: dict | None) -> httpx.Response:
    choice = {"index": 0, "text": " valid", "finish_reason": "length", "logprobs": logprobs}
    body = {"id": "x", "object": "text_completion", "created": 0, "model": "m"}
    return httpx.Response(200, json=body | {"choices": [choice]})


LLAMA_CPP = {
    "content": [{"token": " valid", "top_logprobs": [{"token": " valid"}, {"token": " v"}]}]
}
OPENAI = {"top_logprobs": [{" v": -2.0, " valid": -0.5}], "tokens": [" valid"]}


@pytest.mark.parametrize("form", [LLAMA_CPP, OPENAI])
def test_next_tokens_come_likeliest_first_in_either_servers_form(form, tmp_path):
    asked, calls = [], []
    llm = llm_answering(lambda request: asked.append(request) or completions_reply(form))
    cache = CallCache(tmp_path / "llm_cache.jsonl")
    assert llm.with_sink(calls.append, cache).next_tokens("keep the output", 20) == [" valid", " v"]
    [body] = [json.loads(r.content) for r in asked]
    assert asked[0].url.path.endswith("/completions") and "messages" not in body
    assert (body["prompt"], body["logprobs"], body["max_tokens"]) == ("keep the output", 20, 1)
    assert calls[0]["prompt_id"] == "next-tokens" and calls[0]["valid"]
    # asked again: the cache answers
    again = llm_answering(lambda request: httpx.Response(500))
    assert again.with_sink(calls.append, cache).next_tokens("keep the output", 20)[0] == " valid"


@pytest.mark.parametrize(
    "reply",
    [
        httpx.Response(404, json={"error": "no route"}),
        httpx.Response(400, json={"error": "logprobs must be at most 5"}),
        completions_reply(None),  # a chat-only server answering anyway, no log probabilities
    ],
)
def test_an_endpoint_without_next_tokens_is_unsupported_and_nothing_is_cached(reply, tmp_path):
    cache = CallCache(tmp_path / "llm_cache.jsonl")
    refusing = llm_answering(lambda request: reply).with_sink(lambda call: None, cache)
    with pytest.raises(Unsupported):
        refusing.next_tokens("keep the output", 20)
    assert cache.replies == {}


def test_an_endpoint_failing_to_give_next_tokens_is_an_outage():
    failing = llm_answering(lambda request: httpx.Response(500, json={"error": "overloaded"}))
    with pytest.raises(EndpointError):
        failing.next_tokens("keep the output", 20)
