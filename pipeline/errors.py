"""The one exception stages raise for bad input: it carries stage and file for the run record."""

from pathlib import Path

from pipeline.schema import StageError


class StageFailure(Exception):
    def __init__(self, stage: str, message: str, file: Path | str | None = None) -> None:
        self.error = StageError(
            stage=stage, message=message, file=str(file) if file is not None else None
        )
        super().__init__(str(self.error))
