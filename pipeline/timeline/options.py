"""Timeline options (TALK2ARTICLE_TIMELINE_*)."""

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class TimelineOptions(BaseSettings):
    """The timeline: video frames matched to slide pictures, else speech to slide text."""

    model_config = SettingsConfigDict(
        env_prefix="TALK2ARTICLE_TIMELINE_", env_file=".env", extra="ignore"
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
