"""Deck reading options (TALK2ARTICLE_DECK_*)."""

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    ocr: bool = Field(
        True,
        description="Read the text of PDF pages' pictures and drawn charts (RapidOCR, "
        "a few seconds a page): it corrects names misheard while the picture is on screen.",
    )
    thumbnail_width: int = Field(960, ge=64, description="Width of slide pictures in pixels.")
    libreoffice: bool = Field(
        True, description="Render PPTX-only decks with headless LibreOffice when installed."
    )
    libreoffice_timeout_s: float = Field(180.0, gt=0)
