"""All settings in one place, read from the environment and `.env` (pydantic-settings)."""

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[1]


class WhisperOptions(BaseSettings):
    """Speech recognition settings."""

    model_config = SettingsConfigDict(
        env_prefix="TALK2ARTICLE_WHISPER_", env_file=".env", extra="ignore"
    )

    model: str = Field(
        "auto",
        description="'auto' picks the bundled tiny.en for English talks and the bundled "
        "multilingual base otherwise; or a faster-whisper model name (e.g. 'large-v3', "
        "needs a model hub) or a path to a CTranslate2 model folder.",
    )
    device: str = Field("cpu", description="'cpu', 'cuda' or 'auto'.")
    compute_type: str = Field("int8", description="CTranslate2 compute type.")
    beam_size: int = Field(5, ge=1, description="Beam width of the decoder.")
    cpu_threads: int = Field(0, ge=0, description="0 lets CTranslate2 decide.")
    chunk_minutes: float = Field(
        10.0,
        gt=0,
        description="Audio is decoded and recognised in pieces of this length, "
        "so memory stays bounded on long talks.",
    )
    force_asr: bool = Field(
        False, description="Transcribe even when the talk folder has an .srt/.vtt file."
    )


class LLMOptions(BaseSettings):
    """Which OpenAI-compatible endpoint drafts the article.

    With no base URL, the bundled Qwen2.5-0.5B GGUF is served by llama.cpp on loopback.
    """

    model_config = SettingsConfigDict(env_prefix="OPENAI_", env_file=".env", extra="ignore")

    base_url: str | None = Field(None, description="e.g. https://api.openai.com/v1 or a vLLM URL.")
    api_key: str | None = Field(None, description="Secret; needed when base_url is set.")
    model: str | None = Field(None, description="Model name at the endpoint.")
    structured_output: str = Field(
        "auto",
        description="'json_schema' (OpenAI, vLLM), 'json_object' (llama.cpp server: "
        "json_object with a schema) or 'auto' (json_object for the embedded server).",
    )
    timeout_s: float = Field(300.0, gt=0, description="Per-request timeout in seconds.")
    max_retries: int = Field(3, ge=1, description="Attempts per call when the reply is invalid.")
    temperature: float = Field(0.2, ge=0, description="First attempt; retries run warmer.")
    seed: int | None = Field(1234, description="Sampling seed, for repeatable drafts.")


class EmbeddedLLMOptions(BaseSettings):
    """The local llama.cpp server used when no endpoint is configured."""

    model_config = SettingsConfigDict(
        env_prefix="TALK2ARTICLE_LLAMA_", env_file=".env", extra="ignore"
    )

    model_path: Path | None = Field(None, description="A GGUF file; default: the bundled Qwen.")
    n_ctx: int = Field(8192, ge=512, description="Context window in tokens.")
    n_threads: int = Field(0, ge=0, description="0 uses every core.")
    startup_timeout_s: float = Field(180.0, gt=0)


class DeckOptions(BaseSettings):
    """Deck reading: limits for untrusted files and slide pictures."""

    model_config = SettingsConfigDict(
        env_prefix="TALK2ARTICLE_DECK_", env_file=".env", extra="ignore"
    )

    max_mb: float = Field(300.0, gt=0, description="Largest deck file accepted.")
    max_unpacked_mb: float = Field(
        1024.0, gt=0, description="Largest total a PPTX may unpack to (zip-bomb guard)."
    )
    max_ratio: float = Field(
        200.0, gt=1, description="Largest compression ratio of a PPTX member over 1 MB."
    )
    thumbnail_width: int = Field(960, ge=64, description="Width of slide pictures in pixels.")
    libreoffice: bool = Field(
        True, description="Render PPTX-only decks with headless LibreOffice when installed."
    )
    libreoffice_timeout_s: float = Field(180.0, gt=0)


class AlignOptions(BaseSettings):
    """The timeline: video frames matched to slide pictures, else speech to slide text."""

    model_config = SettingsConfigDict(
        env_prefix="TALK2ARTICLE_ALIGN_", env_file=".env", extra="ignore"
    )

    frame_interval_s: float = Field(1.0, gt=0, description="One video frame per interval.")
    min_similarity: float = Field(
        0.6, ge=-1, le=1, description="Below this correlation a frame matches no slide."
    )
    clear_margin: float = Field(
        0.1, gt=0, description="A best match this far above the runner-up is fully confident."
    )
    switch_penalty: float = Field(
        0.5, ge=0, description="Text path: cost of moving to another slide, in match scores."
    )


class EvidenceOptions(BaseSettings):
    """Evidence units."""

    model_config = SettingsConfigDict(
        env_prefix="TALK2ARTICLE_EVIDENCE_", env_file=".env", extra="ignore"
    )

    max_tokens: int = Field(80, ge=8, description="Speech unit budget (estimated tokens).")
    max_pause_s: float = Field(
        5.0, gt=0, description="A longer silence ends a speech unit, whatever its size."
    )


class Settings(BaseSettings):
    """Top-level settings; stage options are nested so each stage sees only its own."""

    model_config = SettingsConfigDict(env_prefix="TALK2ARTICLE_", env_file=".env", extra="ignore")

    inputs_dir: Path = Field(REPO_ROOT / "inputs", description="One folder per talk.")
    outputs_dir: Path = Field(REPO_ROOT / "outputs", description="Results, one folder per talk.")
    cache_dir: Path = Field(
        Path.home() / ".cache" / "talk2article", description="Assembled model files."
    )
    prompts_dir: Path = Field(REPO_ROOT / "prompts")
    whisper: WhisperOptions = Field(default_factory=WhisperOptions)
    llm: LLMOptions = Field(default_factory=LLMOptions)
    llama: EmbeddedLLMOptions = Field(default_factory=EmbeddedLLMOptions)
    deck: DeckOptions = Field(default_factory=DeckOptions)
    align: AlignOptions = Field(default_factory=AlignOptions)
    evidence: EvidenceOptions = Field(default_factory=EvidenceOptions)
