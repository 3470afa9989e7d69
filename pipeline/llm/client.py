"""One code path for every endpoint (embedded llama.cpp, vLLM, OpenAI): the `openai` client.

Every structured reply is validated with pydantic and retried with the validation error
fed back, whatever the endpoint claims about schema support.
"""

import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal, Protocol, TypeVar

import httpx
import openai
from pydantic import BaseModel, ValidationError

from pipeline.core.errors import redact
from pipeline.core.prompts import RETRY_NOTE, RenderedPrompt
from pipeline.llm.cache import CallCache
from pipeline.llm.options import LLMOptions

T = TypeVar("T", bound=BaseModel)
CallSink = Callable[[dict], None]


class LLMError(RuntimeError):
    """The endpoint failed, or never produced a valid reply."""


class EndpointError(LLMError):
    """An outage: the endpoint was unreachable, died, timed out or answered an HTTP error.
    Never a result: the stage fails and the next run redoes it."""


class InvalidReply(LLMError):
    """The model answered, but no answer passed validation after the retries: the only
    failure a stage may meet with a (visible) fallback."""


class Unsupported(LLMError):
    """The endpoint refused the kind of request (404 or 400): no plain completions with
    log probabilities, say. Not an outage: the caller does without."""


@dataclass(frozen=True)
class Endpoint:
    base_url: str
    api_key: str
    model: str
    # 'json_object' + schema for servers that reject OpenAI's json_schema form.
    structured: Literal["json_schema", "json_object"] = "json_schema"
    slots: int = 1  # requests it serves at once: independent calls run this many in parallel
    # Per-request timeout and the setting that gives it; None: OPENAI_TIMEOUT_S.
    timeout: tuple[float, str] | None = None


class LLM(Protocol):
    model_id: str
    slots: int

    def complete(
        self, prompt: RenderedPrompt, schema: type[T], max_tokens: int, variant: int = 0
    ) -> T: ...

    def next_tokens(self, text: str, top: int) -> list[str]: ...


# llama.cpp unrolls string length bounds into its grammar; a long bound (1500 chars) fails to
# parse and takes the server down. Long bounds are left to pydantic's check of the reply.
MAX_GRAMMAR_STRING_BOUND = 200
RETRY_TEMPERATURE_STEP = 0.3


def grammar_friendly(node):
    if isinstance(node, dict):
        return {
            k: grammar_friendly(v)
            for k, v in node.items()
            if not (k in ("minLength", "maxLength") and v > MAX_GRAMMAR_STRING_BOUND)
        }
    if isinstance(node, list):
        return [grammar_friendly(v) for v in node]
    return node


def response_format(schema: type[BaseModel], mode: str) -> dict:
    json_schema = grammar_friendly(schema.model_json_schema())
    if mode == "json_object":
        return {"type": "json_object", "schema": json_schema}
    return {
        "type": "json_schema",
        "json_schema": {"name": schema.__name__, "schema": json_schema, "strict": False},
    }


@dataclass(frozen=True)
class OpenAILLM:
    endpoint: Endpoint
    opts: LLMOptions
    sink: CallSink | None = None
    http_client: httpx.Client | None = None  # tests inject a mock transport here
    # Why the endpoint is taken for down, shared by the copies with_sink makes: after one
    # timeout every later call fails at once, so a hung endpoint costs one timeout per run,
    # not one per section.
    down: list[str] = field(default_factory=list)
    cache: CallCache | None = None  # valid replies already received (a resumed run)
    # Restarts a dead embedded server once (True: ask again); see server.EmbeddedServer.
    revive: Callable[[], bool] | None = None
    # At most `slots` requests in flight, shared by the copies: a call waits here for a
    # slot rather than in the server's queue, where its timeout would already be running.
    in_flight: threading.BoundedSemaphore | None = None
    _sink_lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if self.in_flight is None:
            object.__setattr__(self, "in_flight", threading.BoundedSemaphore(self.slots))

    @property
    def model_id(self) -> str:
        return self.endpoint.model

    @property
    def slots(self) -> int:
        return self.endpoint.slots

    @property
    def timeout(self) -> tuple[float, str]:
        """Seconds a request may take in total, and the setting that says so."""
        return self.endpoint.timeout or (self.opts.timeout_s, "OPENAI_TIMEOUT_S")

    def with_sink(self, sink: CallSink, cache: CallCache | None = None) -> "OpenAILLM":
        """A copy that reports every call to `sink` (e.g. a talk's llm_calls.jsonl) and
        reuses the replies in `cache`."""
        return replace(self, sink=sink, cache=cache)

    @cached_property
    def _client(self) -> openai.OpenAI:
        # One client (and connection pool) per copy, shared by the threads of a stage.
        return openai.OpenAI(
            base_url=self.endpoint.base_url,
            api_key=self.endpoint.api_key,
            timeout=self.timeout[0],
            max_retries=0,  # the timeout is the whole wait; invalid replies retry below
            http_client=self.http_client,
        )

    def complete(
        self, prompt: RenderedPrompt, schema: type[T], max_tokens: int = 1024, variant: int = 0
    ) -> T:
        """A validated reply. Raises EndpointError on an outage, InvalidReply when every
        attempt answered something invalid. `variant` k > 0 asks for another candidate:
        another seed, k steps warmer."""
        fmt = response_format(schema, self.endpoint.structured)  # once: the same each attempt
        call = self.request(prompt.messages(), fmt, max_tokens, 1, variant)
        if (reused := self.reused(call, schema)) is not None:
            self._report(prompt, 1, time.monotonic(), {"cached": True}, None)
            return reused
        messages, problem = call["messages"], "no attempt made"
        for attempt in range(1, self.opts.max_retries + 1):
            request = self.request(messages, fmt, max_tokens, attempt, variant)
            started = time.monotonic()
            content, usage = self._ask(request, prompt, attempt, started)
            try:
                reply = schema.model_validate_json(content)
            except ValidationError as err:
                problem = _short(err)
                self._report(prompt, attempt, started, usage, problem, content)
                # Ask afresh with the problem stated, without the bad reply in the history:
                # small models copy their previous answer when they can see it.
                messages = [
                    *prompt.messages()[:-1],
                    {
                        "role": "user",
                        "content": f"{prompt.user}\n\n{RETRY_NOTE.format(problem=problem)}",
                    },
                ]
                continue
            if self.cache:
                self.cache.put(call, content)  # under the call, whichever attempt passed
            self._report(prompt, attempt, started, usage, None)
            return reply
        raise InvalidReply(
            f"prompt {prompt.id}: no valid reply after "
            f"{self.opts.max_retries} attempts; last problem: {problem}"
        )

    def request(
        self, messages: list[dict], fmt: dict, max_tokens: int, attempt: int, variant: int = 0
    ) -> dict:
        # A warmer retry: at the same temperature a small model repeats the same mistake.
        warmer = attempt - 1 + variant
        seed = self.opts.seed + variant if self.opts.seed is not None else None
        return {
            "model": self.endpoint.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": self.opts.temperature + RETRY_TEMPERATURE_STEP * warmer,
            "seed": seed,
            "response_format": fmt,
        }

    def next_tokens(self, text: str, top: int) -> list[str]:
        """The `top` likeliest tokens to follow `text` (a plain completion, no chat),
        likeliest first. Raises EndpointError on an outage, Unsupported when the endpoint
        serves no completions with log probabilities (a 404 or 400, or none in its reply)."""
        request = {
            "model": self.endpoint.model,
            "prompt": text,
            "max_tokens": 1,
            "logprobs": top,
            "temperature": 0,
        }
        started = time.monotonic()
        if self.cache and (content := self.cache.get(request)) is not None:
            self._report(NEXT_TOKENS, 1, started, {"cached": True}, None)
            return json.loads(content)
        try:
            response = self._send(self._client.completions.create, request)
        except EndpointError as err:
            refused = isinstance(err.__cause__, openai.NotFoundError | openai.BadRequestError)
            self._report(NEXT_TOKENS, 1, started, {}, str(err), outage=not refused)
            if refused:
                raise Unsupported(str(err)) from err
            raise
        logprobs = response.choices[0].logprobs
        usage = response.usage.model_dump() if response.usage else {}
        if not (tokens := top_tokens(logprobs.model_dump() if logprobs else {})):
            self._report(NEXT_TOKENS, 1, started, usage, "no log probabilities in the reply")
            raise Unsupported(f"{self.endpoint.base_url} gave no log probabilities")
        if self.cache:
            self.cache.put(request, json.dumps(tokens))
        self._report(NEXT_TOKENS, 1, started, usage, None)
        return tokens

    def reused(self, call: dict, schema: type[T]) -> T | None:
        """The valid reply an earlier run got for this call (a reply an older version
        stored that does not validate is not reused)."""
        if self.cache and (content := self.cache.get(call)) is not None:
            with contextlib.suppress(ValidationError):
                return schema.model_validate_json(content)
        return None

    def _ask(self, request: dict, prompt, attempt: int, started: float) -> tuple[str, dict]:
        """The reply's text, secrets redacted (an endpoint may echo the key), and usage."""
        try:
            response = self._send(self._client.chat.completions.create, request)
        except EndpointError as err:
            self._report(prompt, attempt, started, {}, str(err), outage=True)
            raise EndpointError(f"prompt {prompt.id}: {err}") from err
        usage = response.usage.model_dump() if response.usage else {}
        return redact(response.choices[0].message.content or ""), usage

    def _send(self, create: Callable, request: dict, revived: bool = False):
        """One request made by `create`; a dead embedded server is restarted once and
        asked again."""
        if self.down:
            raise EndpointError(self.down[0])
        try:
            with self.in_flight:
                return create(**request)
        except openai.APITimeoutError as err:
            seconds, setting = self.timeout
            self.down.append(
                f"{self.endpoint.base_url} timed out after {seconds:g} s ({setting}); "
                "not asked again in this run"
            )
            raise EndpointError(self.down[-1]) from err
        except openai.APIConnectionError as err:
            if not revived and self.revive is not None and self.revive():
                return self._send(create, request, revived=True)
            raise EndpointError(redact(f"{self.endpoint.base_url} failed: {err}")) from err
        except openai.OpenAIError as err:
            raise EndpointError(redact(f"{self.endpoint.base_url} failed: {err}")) from err

    def _report(self, prompt, attempt, started, usage, problem, reply=None, outage=False):
        """One line of llm_calls.jsonl per attempt, failed ones included."""
        if not self.sink:
            return
        record = {
            "prompt_id": prompt.id,
            "prompt_sha256": prompt.sha256,
            "model": self.endpoint.model,
            "attempt": attempt,
            "seconds": round(time.monotonic() - started, 3),
            "usage": usage,
            "valid": problem is None,
            "outage": outage,
            "problem": redact(problem) if problem else None,
        }
        if reply is not None:  # keep invalid replies so a reviewer can see what went wrong
            record["reply"] = redact(reply[:4000])
        with self._sink_lock:  # calls of one stage run in parallel
            self.sink(record)


@dataclass(frozen=True)
class CallName:
    """How a call that renders no prompt is named in llm_calls.jsonl."""

    id: str
    sha256: str = ""


NEXT_TOKENS = CallName("next-tokens")


def top_tokens(logprobs: dict) -> list[str]:
    """The first position's likeliest tokens, likeliest first, from either form a server
    answers in: OpenAI's (`top_logprobs`: token to log probability) or llama.cpp's
    (`content`: one entry per position, each with its `top_logprobs` list)."""
    if first := (logprobs.get("top_logprobs") or [None])[0]:
        return sorted(first, key=first.get, reverse=True)
    content = logprobs.get("content") or [{}]
    return [entry["token"] for entry in content[0].get("top_logprobs", [])]


def _short(err: ValidationError) -> str:
    return json.dumps([f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors()[:5]])
