"""A fake LLM for unit tests of prompt and parse logic: canned replies, recorded prompts."""

from dataclasses import dataclass, field
from typing import TypeVar

from pydantic import BaseModel

from pipeline.llm.client import LLMError
from pipeline.prompts import RenderedPrompt

T = TypeVar("T", bound=BaseModel)


@dataclass
class FakeLLM:
    replies: list[str]
    model_id: str = "fake"
    prompts: list[RenderedPrompt] = field(default_factory=list)

    def complete(self, prompt: RenderedPrompt, schema: type[T], max_tokens: int = 1024) -> T:
        self.prompts.append(prompt)
        if not self.replies:
            raise LLMError(f"prompt {prompt.id}: fake LLM has no reply left")
        return schema.model_validate_json(self.replies.pop(0))
