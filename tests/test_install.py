"""The package works when installed, not only from the source tree: prompts ship inside it
and nothing looks for files relative to the repository."""

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from tests.helpers import REPO

SOURCES = ("pyproject.toml", "README.md", "pipeline", "flows", "prompts")


def test_installed_package_runs_from_another_directory(tmp_path):
    source = tmp_path / "source"  # a copy, so the build leaves the checkout untouched
    source.mkdir()
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__py*"))
        else:
            shutil.copy(REPO / name, source / name)
    site = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
    install += ["--no-build-isolation", "--target", str(site), str(source)]
    subprocess.run(install, check=True, capture_output=True)

    # A fresh interpreter that sees the installed package and, for its dependencies, this
    # environment's site-packages (whose own .pth files, the editable install among them,
    # are not processed).
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site_dir = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    Path(site_dir, "deps.pth").write_text(f"{site}\n{sysconfig.get_paths()['purelib']}\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    check = (
        "import pipeline, prompts; from pipeline.core.prompts import load_prompt; "
        "from pipeline.library.topics import load_topics; "
        "from pipeline.library.paths import load_paths; "
        "print(pipeline.__file__, prompts.__file__, load_prompt('outline').id, "
        "load_topics()[-1].id, len(load_paths()))"
    )
    found = subprocess.run(
        [python, "-c", check], cwd=elsewhere, check=True, capture_output=True, text=True
    ).stdout.split()
    assert all(path.startswith(str(site)) for path in found[:2])
    # prompts, the topic list and the (empty) pinned paths ship inside
    assert found[2:] == ["outline", "general", "0"]
    help_text = subprocess.run(
        [python, "-m", "flows.cli", "run", "--help"],
        cwd=elsewhere, check=True, capture_output=True, text=True, env={"COLUMNS": "120"},
    ).stdout  # fmt: skip
    assert "--all" in help_text and (site / "bin" / "talk2article").exists()
