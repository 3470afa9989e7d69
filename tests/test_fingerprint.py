"""The stat index: a night reads only the files whose stat changed."""

import os

from pipeline import fingerprint
from pipeline.fingerprint import StatIndex

OLD = 1_600_000_000  # seconds: a file last changed long ago


def counted(monkeypatch) -> list:
    reads = []
    real = fingerprint.sha256_file

    def reading(path):
        reads.append(path.name)
        return real(path)

    monkeypatch.setattr(fingerprint, "sha256_file", reading)
    return reads


def test_a_file_whose_stat_is_unchanged_is_not_read_again_in_a_later_night(tmp_path, monkeypatch):
    reads = counted(monkeypatch)
    talk = tmp_path / "talk.srt"
    talk.write_text("1\n00:00:01,000 --> 00:00:02,000\nHello\n")
    os.utime(talk, (OLD, OLD))
    first = StatIndex(tmp_path / "index.json")
    digest = first.sha256(talk)
    first.save()
    again = StatIndex(tmp_path / "index.json")  # the next night, another process
    assert again.sha256(talk) == digest and reads == ["talk.srt"]
    talk.write_text("1\n00:00:01,000 --> 00:00:02,000\nHullo\n")
    os.utime(talk, (OLD + 60, OLD + 60))
    assert again.sha256(talk) != digest and reads == ["talk.srt", "talk.srt"]


def test_a_file_changed_a_moment_ago_is_read_every_time(tmp_path, monkeypatch):
    reads = counted(monkeypatch)
    fresh = tmp_path / "edits.yaml"
    fresh.write_text("edits: []\n")
    index = StatIndex(tmp_path / "index.json")
    index.sha256(fresh)
    index.sha256(fresh)
    assert reads == ["edits.yaml", "edits.yaml"] and not index.changed
