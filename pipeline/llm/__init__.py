"""The LLM behind one small interface, and the embedded llama.cpp server."""

from pipeline.llm.client import LLM, Endpoint, LLMError, OpenAILLM
from pipeline.llm.fake import FakeLLM

__all__ = ["LLM", "Endpoint", "FakeLLM", "LLMError", "OpenAILLM"]
