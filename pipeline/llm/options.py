"""Which OpenAI-compatible endpoint writes (OPENAI_*), the embedded server
(TALK2ARTICLE_LLAMA_*), and the two with the cache folder: all the llm package reads."""

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from pipeline.core.errors import register_secret
from pipeline.core.models import DEFAULT_LLM


class LLMOptions(BaseSettings):
    """Which OpenAI-compatible endpoint drafts the article.

    With no base URL, a bundled Qwen2.5-Coder GGUF is served by llama.cpp on loopback.
    """

    model_config = SettingsConfigDict(env_prefix="OPENAI_", env_file=".env", extra="ignore")

    base_url: str | None = Field(None, description="e.g. https://api.openai.com/v1 or a vLLM URL.")
    api_key: str | None = Field(None, description="Secret; needed when base_url is set.")
    model: str | None = Field(None, description="Model name at the endpoint.")
    structured_output: str = Field(
        "auto",
        description="'json_schema' (OpenAI, vLLM, llama.cpp's server), 'json_object' "
        "(json_object with a schema, for servers that reject json_schema) or 'auto' "
        "(json_schema).",
    )
    timeout_s: float = Field(
        300.0,
        gt=0,
        description="Per-request timeout in seconds, in total (no silent retry); after one "
        "timeout the endpoint is taken for down for the rest of the run.",
    )
    max_retries: int = Field(3, ge=1, description="Attempts per call when the reply is invalid.")
    concurrency: int = Field(
        4, ge=1, description="Requests sent at once to a configured endpoint (independent calls)."
    )
    temperature: float = Field(0.2, ge=0, description="First attempt; retries run warmer.")
    seed: int | None = Field(1234, description="Sampling seed, for repeatable drafts.")

    @field_validator("api_key")
    @classmethod
    def never_shown(cls, key: str | None) -> str | None:
        register_secret(key)  # redacted from every message stored or printed
        return key


class EmbeddedLLMOptions(BaseSettings):
    """The local llama.cpp server used when no endpoint is configured."""

    model_config = SettingsConfigDict(
        env_prefix="TALK2ARTICLE_LLAMA_", env_file=".env", extra="ignore"
    )

    model: Literal["1.5b", "0.5b"] = Field(
        DEFAULT_LLM,
        description="Bundled Qwen2.5-Coder-Instruct: 1.5b writes better, 0.5b is about 2x faster.",
    )
    model_path: Path | None = Field(None, description="Any GGUF file; overrides `model`.")
    server_path: Path | None = Field(
        None,
        description="A llama-server binary to use instead of the portable build "
        "(e.g. a CUDA build); `talk2article prepare` builds the default.",
    )
    n_ctx: int = Field(8192, ge=512, description="Context window per slot, in tokens.")
    parallel: int = Field(
        0, ge=0, description="Slots: requests served at once; 0 is two per core, at most 8."
    )
    n_threads: int = Field(0, ge=0, description="0 uses every core.")
    startup_timeout_s: float = Field(180.0, gt=0)
    request_timeout_s: float = Field(
        900.0,
        gt=0,
        description="Per-request timeout against the embedded server (OPENAI_TIMEOUT_S is "
        "for a configured endpoint): a reply of the longest length a stage asks for (900 "
        "tokens), generated while every other slot is busy, took 6 minutes on 2 cores; a "
        "server that dies shows at once, not by this timeout.",
    )


class LLMSetup(BaseModel):
    """All the llm package reads: the endpoint, the embedded server, and the cache folder
    its llama-server build, bundled models and log are in (TALK2ARTICLE_CACHE_DIR)."""

    llm: LLMOptions
    llama: EmbeddedLLMOptions
    cache_dir: Path
