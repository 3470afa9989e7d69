import shutil
from pathlib import Path

import pytest

from tests.helpers import EXAMPLE


@pytest.fixture
def example_talk(tmp_path: Path) -> Path:
    """A private copy of the bundled example talk folder."""
    target = tmp_path / "inputs" / EXAMPLE.name
    shutil.copytree(EXAMPLE, target)
    return target
