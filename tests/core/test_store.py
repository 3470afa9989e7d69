import hashlib
import json
import os
import stat

from pipeline.core.store import TalkStore, atomic_write_text, sha256_file, sha256_model
from pipeline.schema import Evidence, EvidenceUnit, Provenance


def evidence(key: str, text: str = "x") -> Evidence:
    unit = EvidenceUnit(id="s-01", kind="slide", text=text, slide=1)
    stamp = Provenance(stage="evidence", code_version="0", key=key)
    return Evidence(units=[unit], provenance=stamp)


def test_atomic_write_leaves_no_temp_files(tmp_path):
    target = tmp_path / "sub" / "a.txt"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two")
    assert target.read_text() == "two"
    assert [p.name for p in target.parent.iterdir()] == ["a.txt"]


def test_a_stage_output_is_hashed_by_content_not_by_what_made_it():
    assert sha256_model(evidence("key-1")) == sha256_model(evidence("key-2"))
    assert sha256_model(evidence("key-1")) != sha256_model(evidence("key-1", text="y"))


def test_read_fresh_only_returns_matching_provenance(tmp_path):
    store = TalkStore(tmp_path)
    stored = evidence("key-1")
    store.write("evidence.json", stored)
    assert store.read_fresh("evidence.json", Evidence, stored.provenance.key) == stored
    assert store.read_fresh("evidence.json", Evidence, "key-2") is None


def test_read_ignores_files_of_an_incompatible_shape(tmp_path):
    store = TalkStore(tmp_path)
    store.path("evidence.json").write_text(json.dumps({"units": "nope"}))
    assert store.read("evidence.json", Evidence) is None


def test_file_hash_follows_content_changes(tmp_path):
    target = tmp_path / "talk.wav"
    target.write_bytes(b"one")
    first = sha256_file(target)
    assert sha256_file(target) == first == hashlib.sha256(b"one").hexdigest()
    target.write_bytes(b"two, longer")
    assert sha256_file(target) == hashlib.sha256(b"two, longer").hexdigest()


def test_a_written_file_gets_the_mode_the_umask_gives(tmp_path):
    before = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "shared.md", "x")
        os.umask(0o077)
        atomic_write_text(tmp_path / "private.md", "x")
    finally:
        os.umask(before)
    assert stat.S_IMODE((tmp_path / "shared.md").stat().st_mode) == 0o644  # readable by a server
    assert stat.S_IMODE((tmp_path / "private.md").stat().st_mode) == 0o600
