"""Notes options (TALK2ARTICLE_NOTES_*)."""

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class NotesOptions(BaseSettings):
    """How the talk is cut into sections (in code)."""

    model_config = SettingsConfigDict(
        env_prefix="TALK2ARTICLE_NOTES_", env_file=".env", extra="ignore"
    )

    max_section_tokens: int = Field(
        600,
        ge=100,
        description="A section is cut when longer (estimated tokens): a one-hour "
        "talk is many sections and no prompt nears the context window.",
    )
    min_section_tokens: int = Field(
        50,
        ge=0,
        description="A shorter slide group joins its neighbour; a signpost starts "
        "a new section only after this much.",
    )
