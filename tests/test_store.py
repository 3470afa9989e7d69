import hashlib
import json

from pipeline.schema import Evidence, EvidenceUnit
from pipeline.store import TalkStore, atomic_write_text, provenance, sha256_file


def evidence(key_source: str) -> Evidence:
    unit = EvidenceUnit(id="s-01", kind="slide", text="x", slide=1)
    return Evidence(units=[unit], provenance=provenance("evidence", {"deck": key_source}))


def test_atomic_write_leaves_no_temp_files(tmp_path):
    target = tmp_path / "sub" / "a.txt"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two")
    assert target.read_text() == "two"
    assert [p.name for p in target.parent.iterdir()] == ["a.txt"]


def test_provenance_key_covers_inputs_model_and_prompts():
    base = provenance("outline", {"evidence": "aa"}, model="m", prompts={"p": "1"})
    assert base.key == provenance("outline", {"evidence": "aa"}, model="m", prompts={"p": "1"}).key
    assert base.key != provenance("outline", {"evidence": "ab"}, model="m", prompts={"p": "1"}).key
    assert base.key != provenance("outline", {"evidence": "aa"}, model="n", prompts={"p": "1"}).key
    assert base.key != provenance("outline", {"evidence": "aa"}, model="m", prompts={"p": "2"}).key


def test_read_fresh_only_returns_matching_provenance(tmp_path):
    store = TalkStore(tmp_path)
    stored = evidence("hash-1")
    store.write("evidence.json", stored)
    assert store.read_fresh("evidence.json", Evidence, stored.provenance.key) == stored
    assert store.read_fresh("evidence.json", Evidence, evidence("hash-2").provenance.key) is None


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
