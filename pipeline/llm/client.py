"""One code path for every endpoint (embedded llama.cpp, vLLM, OpenAI): the `openai` client.

Every structured reply is validated with pydantic and retried with the validation error
fed back, whatever the endpoint claims about schema support.
"""

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol, TypeVar

import httpx
import openai
from pydantic import BaseModel, ValidationError

from pipeline.errors import redact
from pipeline.llm.cache import CallCache
from pipeline.llm.options import LLMOptions
from pipeline.prompts import RETRY_NOTE, RenderedPrompt

T = TypeVar("T", bound=BaseModel)
CallSink = Callable[[dict], None]


class LLMError(RuntimeError):
    """The endpoint failed, timed out, or never produced a valid reply."""


@dataclass(frozen=True)
class Endpoint:
    base_url: str
    api_key: str
    model: str
    # llama.cpp's server rejects response_format json_schema but honours json_object + schema.
    structured: Literal["json_schema", "json_object"]


class LLM(Protocol):
    model_id: str

    def complete(self, prompt: RenderedPrompt, schema: type[T], max_tokens: int) -> T: ...


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
    cache: CallCache | None = None  # replies already received (a resumed run)

    @property
    def model_id(self) -> str:
        return self.endpoint.model

    def with_sink(self, sink: CallSink, cache: CallCache | None = None) -> "OpenAILLM":
        """A copy that reports every call to `sink` (e.g. a talk's llm_calls.jsonl) and
        reuses the replies in `cache`."""
        return replace(self, sink=sink, cache=cache)

    def _client(self) -> openai.OpenAI:
        return openai.OpenAI(
            base_url=self.endpoint.base_url,
            api_key=self.endpoint.api_key,
            timeout=self.opts.timeout_s,
            max_retries=0,  # the timeout is the whole wait; invalid replies retry below
            http_client=self.http_client,
        )

    def complete(self, prompt: RenderedPrompt, schema: type[T], max_tokens: int = 1024) -> T:
        if self.down:
            raise LLMError(f"prompt {prompt.id}: {self.down[0]}")
        client, messages = self._client(), prompt.messages()
        problem = "no attempt made"
        for attempt in range(1, self.opts.max_retries + 1):
            started = time.monotonic()
            # A warmer retry: at the same temperature a small model repeats the same mistake.
            temperature = self.opts.temperature + RETRY_TEMPERATURE_STEP * (attempt - 1)
            content, usage = self._ask(client, messages, schema, max_tokens, temperature, prompt)
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
            self._report(prompt, attempt, started, usage, None)
            return reply
        raise LLMError(
            f"prompt {prompt.id}: no valid reply after "
            f"{self.opts.max_retries} attempts; last problem: {problem}"
        )

    def _ask(self, client, messages, schema, max_tokens, temperature, prompt):
        request = {
            "model": self.endpoint.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": temperature,
            "seed": self.opts.seed,
            "response_format": response_format(schema, self.endpoint.structured),
        }
        if self.cache and (content := self.cache.get(request)) is not None:
            return content, {"cached": True}
        try:
            response = client.chat.completions.create(**request)
        except openai.APITimeoutError as err:
            self.down.append(
                f"{self.endpoint.base_url} timed out after {self.opts.timeout_s:g} s "
                "(OPENAI_TIMEOUT_S); not asked again in this run"
            )
            raise LLMError(f"prompt {prompt.id}: {self.down[-1]}") from err
        except openai.OpenAIError as err:
            problem = redact(f"{self.endpoint.base_url} failed: {err}")
            raise LLMError(f"prompt {prompt.id}: {problem}") from err
        usage = response.usage.model_dump() if response.usage else {}
        content = response.choices[0].message.content or ""
        if self.cache:
            self.cache.put(request, content)
        return content, usage

    def _report(self, prompt, attempt, started, usage, problem, reply=None) -> None:
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
            "problem": redact(problem) if problem else None,
        }
        if reply is not None:  # keep invalid replies so a reviewer can see what went wrong
            record["reply"] = redact(reply[:4000])
        self.sink(record)


def _short(err: ValidationError) -> str:
    return json.dumps([f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors()[:5]])
