import hashlib

import pytest

from pipeline.core.models import ModelAssetError, assemble, resolve_whisper


def parts(tmp_path):
    paths = []
    for i, data in enumerate([b"abc", b"def"]):
        path = tmp_path / f"part{i}"
        path.write_bytes(data)
        paths.append(path)
    return paths


def test_assemble_concatenates_in_order_and_checks_the_hash(tmp_path):
    target = tmp_path / "out" / "model.bin"
    expected = hashlib.sha256(b"abcdef").hexdigest()
    assert assemble(parts(tmp_path), target, expected).read_bytes() == b"abcdef"
    assert assemble(parts(tmp_path), target, expected) == target  # reused, still valid


def test_hash_mismatch_leaves_nothing_behind(tmp_path):
    target = tmp_path / "out" / "model.bin"
    with pytest.raises(ModelAssetError, match="expected"):
        assemble(parts(tmp_path), target, "0" * 64)
    assert list(target.parent.iterdir()) == []


def test_explicit_whisper_setting_is_used_as_is(tmp_path):
    ref = resolve_whisper("large-v3", "en", tmp_path)
    assert (ref.id, ref.location) == ("large-v3", "large-v3")
