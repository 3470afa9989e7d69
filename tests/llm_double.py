"""The LLM test double: the production client (OpenAILLM) talking to a scripted endpoint
over httpx.MockTransport, so every reply goes through the real validation and retries.

Replies are canned strings in order, or made by a function of the request; every request
body is recorded.
"""

import hashlib
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

from pipeline.llm.client import Endpoint, OpenAILLM
from pipeline.llm.options import LLMOptions

Reply = Callable[[dict], "str | httpx.Response"]  # a Response: an HTTP error, say


def asked_item(body: dict) -> str:
    """The one item a sentence request gives: the last line before its reply format."""
    return body["messages"][-1]["content"].split("\n\n")[0].splitlines()[-1]


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


# Tokens a fake endpoint offers after any text: one that begins every word of letters, so
# it expects whatever was said.
EVERY_LETTER = [f" {letter}" for letter in "abcdefghijklmnopqrstuvwxyz"]


def next_tokens_reply(tokens: list[str] = EVERY_LETTER) -> dict:
    """A plain completion with its first position's likeliest tokens, as llama.cpp's
    server writes them."""
    top = [{"token": token, "logprob": -1.0} for token in tokens]
    choice = {"index": 0, "text": tokens[0], "finish_reason": "length"}
    logprobs = {"content": [{"token": tokens[0], "logprob": -1.0, "top_logprobs": top}]}
    return {
        "id": "x",
        "object": "text_completion",
        "created": 0,
        "model": "m",
        "choices": [choice | {"logprobs": logprobs}],
    }


@dataclass
class ScriptedEndpoint:
    replies: list[str] | Reply
    requests: list[dict] = field(default_factory=list)

    def handle(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.requests.append(body)
        if callable(self.replies):
            content = self.replies(body)
            if isinstance(content, httpx.Response):
                return content
        else:  # out of replies: an empty answer, invalid like any garbage
            content = self.replies.pop(0) if self.replies else ""
        return httpx.Response(200, json=completion(content))

    def user_messages(self) -> list[str]:
        return [r["messages"][-1]["content"] for r in self.requests]


def scripted_llm(
    replies: list[str] | Reply,
    structured: str = "json_object",
    sink: Callable[[dict], None] | None = None,
    slots: int = 1,
    **options,
) -> tuple[OpenAILLM, ScriptedEndpoint]:
    """An OpenAILLM whose endpoint answers with `replies`, `slots` calls at once; options
    as in LLMOptions."""
    endpoint = ScriptedEndpoint(replies)
    client = httpx.Client(transport=httpx.MockTransport(endpoint.handle))
    llm = OpenAILLM(
        Endpoint("http://llm.test/v1", "key", "scripted", structured, slots),
        LLMOptions(**{"max_retries": 3, **options}),
        sink=sink,
        http_client=client,
    )
    return llm, endpoint


# Distinct enough that the draft's repeat filter keeps them apart, with no digits so the
# review's number check has nothing to flag.
SENTENCES = (
    "Reserving memory ahead of time wastes most of the pool for every request.",
    "Requests are served in small steps so that short answers never wait for long ones.",
    "A shared pool lets several requests reuse the same prefix without copying it.",
    "The scheduler admits new work only while the pool still has room for it.",
    "Measured on one older machine, throughput rose clearly over the old setup.",
    "The approach helps little when every request is short and memory is plentiful.",
)
CHINESE = (
    "提前预留内存会浪费内存池的大部分。",
    "请求被分成小步处理，短回答不必等待长回答。",
    "共享的内存池让多个请求复用同一前缀而无需复制。",
    "调度器只在内存池仍有空间时接纳新的请求。",
    "在一台旧机器上测得，吞吐量比旧方案明显提高。",
    "当所有请求都很短且内存充足时，这种方法帮助不大。",
)


class SchemaReplies:
    """A valid reply to any request: an instance of its response schema, with the first
    allowed value where values are constrained (evidence ids) and prose where text is."""

    def __init__(self, keyed: bool = False) -> None:
        # keyed: the texts depend on the request alone, not on the order requests arrive
        # (concurrent calls); otherwise every string of every reply is the next sentence.
        self.keyed = keyed
        self.strings = itertools.count()

    def __call__(self, body: dict) -> str:
        fmt = body["response_format"]
        schema = fmt["schema"] if fmt["type"] == "json_object" else fmt["json_schema"]["schema"]
        # A prompt written in Chinese asks for Chinese text (the translation into Chinese).
        chinese = any("\u4e00" <= ch <= "\u9fff" for ch in body["messages"][0]["content"])
        strings = self.strings
        if self.keyed:
            digest = hashlib.sha256(json.dumps(body["messages"]).encode()).hexdigest()
            strings = itertools.count(int(digest[:8], 16))
        reply = self.instance(schema, schema.get("$defs", {}), "", strings, chinese)
        return json.dumps(reply)

    def instance(self, schema: dict, defs: dict, name: str, strings, chinese: bool):
        if "$ref" in schema:
            ref = defs[schema["$ref"].rsplit("/", 1)[-1]]
            return self.instance(ref, defs, name, strings, chinese)
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return schema["enum"][0]
        kind = schema.get("type")
        if kind == "object":
            props = schema.get("properties", {})
            return {k: self.instance(s, defs, k, strings, chinese) for k, s in props.items()}
        if kind == "array":
            count = max(1, schema.get("minItems", 1))
            return [
                self.instance(schema["items"], defs, name, strings, chinese) for _ in range(count)
            ]
        if kind == "string":
            return self.text(name, next(strings), chinese)
        raise ValueError(f"no instance for {schema}")

    def text(self, name: str, n: int, chinese: bool) -> str:
        if chinese:
            return CHINESE[n % len(CHINESE)]
        if name == "title":
            return "A chapter of the talk"
        return SENTENCES[n % len(SENTENCES)]


class PromptReplies:
    """Replies per prompt id (a list, answered in order, or a function of the request),
    recognised by the first line of the prompt's system message."""

    def __init__(self, **replies: list[str] | Reply) -> None:
        from pipeline.core.prompts import load_prompt

        self.replies = replies
        self.first_lines = {name: load_prompt(name).system.splitlines()[0] for name in replies}
        self.asked: list[str] = []

    def __call__(self, body: dict) -> str:
        system = body["messages"][0]["content"]
        name = next(n for n, line in self.first_lines.items() if system.startswith(line))
        self.asked.append(name)
        reply = self.replies[name]
        if callable(reply):
            return reply(body)
        return reply.pop(0) if reply else ""
