"""All settings in one place, read from the environment and `.env` (pydantic-settings).

Each stage's options live beside its code (pipeline/<stage>/options.py); they are
assembled here so each stage sees only its own.
"""

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from pipeline.deck.options import DeckOptions
from pipeline.evidence.options import EvidenceOptions
from pipeline.llm.options import EmbeddedLLMOptions, LLMOptions, LLMSetup
from pipeline.notes.options import NotesOptions
from pipeline.site.options import SiteOptions
from pipeline.timeline.options import TimelineOptions
from pipeline.transcript.options import TranscriptOptions


class Settings(BaseSettings):
    """Top-level settings; stage options are nested."""

    model_config = SettingsConfigDict(env_prefix="TALK2ARTICLE_", env_file=".env", extra="ignore")

    inputs_dir: Path = Field(Path("inputs"), description="One folder per talk.")
    outputs_dir: Path = Field(Path("outputs"), description="Results, one folder per talk.")
    cache_dir: Path = Field(
        Path.home() / ".cache" / "talk2article", description="Assembled model files."
    )
    prompts_dir: Path | None = Field(
        None, description="Prompt templates to use instead of the ones shipped with the package."
    )
    deck: DeckOptions = Field(default_factory=DeckOptions)
    transcript: TranscriptOptions = Field(default_factory=TranscriptOptions)
    timeline: TimelineOptions = Field(default_factory=TimelineOptions)
    evidence: EvidenceOptions = Field(default_factory=EvidenceOptions)
    notes: NotesOptions = Field(default_factory=NotesOptions)
    llm: LLMOptions = Field(default_factory=LLMOptions)
    llama: EmbeddedLLMOptions = Field(default_factory=EmbeddedLLMOptions)
    site: SiteOptions = Field(default_factory=SiteOptions)

    @property
    def llm_setup(self) -> LLMSetup:
        """What the llm package reads, and nothing of the stages' options (a property, so
        the settings as dumped, and with them every talk's fingerprint, are unchanged)."""
        return LLMSetup(llm=self.llm, llama=self.llama, cache_dir=self.cache_dir)
