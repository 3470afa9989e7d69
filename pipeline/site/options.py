"""Site options (TALK2ARTICLE_SITE_*)."""

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from pipeline.review.decisions import Policy


class SiteOptions(BaseSettings):
    """What the site publishes."""

    model_config = SettingsConfigDict(
        env_prefix="TALK2ARTICLE_SITE_", env_file=".env", extra="ignore"
    )

    publish: Policy = Field(
        "recommended",
        description="recommended: articles a reviewer approved, and those the automatic "
        "review recommends (推荐收录) that no reviewer has decided on yet; approved: only "
        "what a reviewer approved; preview: everything but what a reviewer rejected, for "
        "reviewers to read before deciding. A rejected article is never published.",
    )
    topics: Path | None = Field(
        None,
        description="A topic list of your own (YAML, as pipeline/library/topics.yaml); "
        "default: the shipped list for AI-systems talks.",
    )
    paths: Path | None = Field(
        None,
        description="Reading paths pinned by you (YAML, as pipeline/library/paths.yaml): a "
        "path's name and the order of some of its articles; default: none pinned.",
    )
