"""The reviewers' and maintainers' YAML files: one change at a time, the last good read kept."""

import time

import pytest

from pipeline.core.errors import StageFailure
from pipeline.core.yamlfile import read_or_last_read, read_yaml, update_yaml
from pipeline.schema import Decisions
from pipeline.schema.transcript import Replacement, Replacements


def added_slowly(path, n: int) -> None:
    """One of many commands changing the same file at once, each taking its time."""

    def add(file: Replacements) -> Replacements:
        time.sleep(0.05)  # between its read and its write
        return Replacements(corrections=[*file.corrections, Replacement(heard=f"w{n}", right="x")])

    update_yaml(path, Replacements, add)


def test_changes_made_at_the_same_moment_are_all_kept(tmp_path):
    import multiprocessing

    path = tmp_path / "corrections.yaml"
    fork = multiprocessing.get_context("fork")
    processes = [fork.Process(target=added_slowly, args=(path, n)) for n in range(12)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert all(p.exitcode == 0 for p in processes)
    heard = sorted(r.heard for r in read_yaml(path, Replacements).corrections)
    assert heard == sorted(f"w{n}" for n in range(12))


def test_a_broken_file_falls_back_on_its_last_good_read(tmp_path):
    path, kept = tmp_path / "decisions.yaml", tmp_path / "out" / ".decisions.json"
    path.write_text("decisions: [\n")
    with pytest.raises(StageFailure, match="line"):  # never read: nothing to stand
        read_or_last_read(path, Decisions, kept)
    path.write_text("decisions: []\n")
    assert read_or_last_read(path, Decisions, kept) == (Decisions(), None)
    path.write_text("decisions: [\n")
    last, problem = read_or_last_read(path, Decisions, kept)
    assert last == Decisions() and "decisions.yaml" in str(problem)
    path.unlink()
    assert read_or_last_read(path, Decisions, kept) == (None, None) and not kept.exists()
