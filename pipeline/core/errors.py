"""The one exception stages raise for bad input; the stage runner records it with the stage."""

import re
from pathlib import Path


class StageFailure(Exception):
    """What went wrong, and with which file, in words a maintainer can act on."""

    def __init__(self, message: str, file: Path | str | None = None) -> None:
        self.message = message
        self.file = str(file) if file is not None else None
        super().__init__(f"[{self.file}] {message}" if self.file else message)


# Secrets this process knows (the endpoint's API key): never stored or printed. An endpoint
# may echo the key in its error text, which would land in run.json and on the console.
_SECRETS: set[str] = set()
KEY_LIKE = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}|(?<=Bearer )[A-Za-z0-9._~+/=-]{8,}")
MIN_SECRET_CHARS = 6  # shorter values would blank ordinary words


def register_secret(value: str | None) -> None:
    if value and len(value) >= MIN_SECRET_CHARS:
        _SECRETS.add(value)


def redact(text: str) -> str:
    """`text` with every known secret, and anything shaped like an API key, as ***."""
    for secret in sorted(_SECRETS, key=len, reverse=True):
        text = text.replace(secret, "***")
    return KEY_LIKE.sub("***", text)
