"""Every command given its worst arguments: one line and a non-zero exit, no traceback,
nothing lost."""

import datetime as dt
import socket

import pytest

from flows.cli import main
from tests.site.published import publish


def said(capsys, *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text, text
    return stop.value.code, text


@pytest.fixture
def library(tmp_path, monkeypatch):
    """A published talk (outputs) and its folder (inputs), no model anywhere."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens
    monkeypatch.setenv("COLUMNS", "200")
    publish(tmp_path / "outputs", "talk", "演讲", dt.date(2026, 4, 1))
    (tmp_path / "inputs" / "talk").mkdir(parents=True)
    return tmp_path


def test_a_missing_or_empty_inputs_folder_fails_and_leaves_the_site(library, capsys):
    site = library / "outputs" / "site" / "public"
    site.mkdir(parents=True)
    (site / "index.html").write_text("the site as it was")
    for command in (["nightly"], ["run", "--all"]):
        code, text = said(capsys, *command, "--inputs", "nope")
        assert code == 1 and "inputs folder nope does not exist" in text
    (library / "empty").mkdir()
    code, text = said(capsys, "nightly", "--inputs", "empty")
    assert code == 1 and "inputs folder empty holds no talk folder" in text
    assert (site / "index.html").read_text() == "the site as it was"
    code, text = said(capsys, "run", "inputs/nope")
    assert code == 2 and "does not exist" in text


def test_edits_and_decisions_given_the_worst_arguments(library, capsys):
    code, text = said(capsys, "edit", "inputs/talk", "f-1", "--zh", "长" * 5000, "--by", "Ada")
    assert code == 1 and "5000 characters" in text and "长长长" not in text
    code, text = said(capsys, "edit", "inputs/talk", "f-1", "--zh", "短。", "--by", "A" * 101)
    assert code == 1 and "--by" in text and len(text.splitlines()) == 1
    (library / "inputs" / "talk" / "decisions.yaml").write_text("decisions: [\n")
    code, text = said(capsys, "review", "approve", "inputs/talk", "--by", "Ada")
    assert code == 1 and "decisions.yaml" in text and "no articles" not in text
    code, text = said(capsys, "review", "approve", "inputs/talk")
    assert code == 2 and "--by" in text


def test_a_busy_port_is_one_line(library, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        code, text = said(capsys, "site", "serve", "--port", port)
    assert code == 1 and f"cannot serve on port {port}" in text
