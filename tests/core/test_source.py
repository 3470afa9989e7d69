import shutil

from pipeline.core.source import ROOT, closure, code_version
from pipeline.stages import STAGES


def test_a_stage_runs_its_own_code_and_the_shared_contracts_only():
    article = closure("pipeline.article")
    assert "pipeline.schema.article" in article and "pipeline.core.text" in article
    assert not any(m.startswith(("pipeline.transcript", "pipeline.llm")) for m in article)
    transcript = closure("pipeline.transcript")
    assert "pipeline.transcript.corrections" in transcript  # imported by the package
    assert "pipeline.article" not in transcript and "pipeline.writing.draft" not in transcript
    assert "pipeline.timeline.pictures" in closure("pipeline.timeline")  # via frames.py


def test_every_stage_names_code_that_exists():
    for stage in STAGES:
        assert stage.code in closure(stage.code), stage.name


def comment_edit(tmp_path, relative: str) -> dict[str, tuple[str, str]]:
    """Every stage's code version before and after a comment is added to one file."""
    copy = tmp_path / "pipeline"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = {s.name: code_version(s.code, copy) for s in STAGES}
    with open(copy / relative, "a") as source:
        source.write("# a comment\n")
    return {s.name: (before[s.name], code_version(s.code, copy)) for s in STAGES}


def test_a_comment_in_the_typesetting_code_changes_the_article_stage_only(tmp_path):
    versions = comment_edit(tmp_path, "article/__init__.py")
    assert [name for name, (old, new) in versions.items() if old != new] == ["article"]


def test_a_shared_contract_changes_every_stage_that_uses_it(tmp_path):
    versions = comment_edit(tmp_path, "schema/transcript.py")
    assert all(old != new for old, new in versions.values())
