"""Evidence options (TALK2ARTICLE_EVIDENCE_*)."""

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class EvidenceOptions(BaseSettings):
    """Evidence units."""

    model_config = SettingsConfigDict(
        env_prefix="TALK2ARTICLE_EVIDENCE_", env_file=".env", extra="ignore"
    )

    max_tokens: int = Field(80, ge=8, description="Speech unit budget (estimated tokens).")
    max_pause_s: float = Field(
        5.0, gt=0, description="A longer silence ends a speech unit, whatever its size."
    )
