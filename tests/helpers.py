"""Shared test helpers (fixtures live in conftest.py)."""

from pathlib import Path

from pipeline.schema import TalkInputs, TalkMeta

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "inputs" / "examples" / "kv-cache-serving"


def talk_with(media: Path, decks: list[Path] | None = None, **meta) -> TalkInputs:
    return TalkInputs(
        slug="t", folder=media.parent, media=media, decks=decks or [], meta=TalkMeta(**meta)
    )
