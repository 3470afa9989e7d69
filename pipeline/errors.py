"""The one exception stages raise for bad input; the stage runner records it with the stage."""

from pathlib import Path


class StageFailure(Exception):
    """What went wrong, and with which file, in words a maintainer can act on."""

    def __init__(self, message: str, file: Path | str | None = None) -> None:
        self.message = message
        self.file = str(file) if file is not None else None
        super().__init__(f"[{self.file}] {message}" if self.file else message)
