"""Transcription options (TALK2ARTICLE_WHISPER_*: they are faster-whisper's)."""

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class TranscriptOptions(BaseSettings):
    """Speech recognition with faster-whisper."""

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
