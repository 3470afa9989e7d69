"""The reader's count plumbing: a reading folder from a talk's outputs, and its tally."""

import datetime as dt
import importlib.util
import json
from pathlib import Path

from tests.site.published import publish

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def script(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_reading_is_packed_and_its_marks_tallied(tmp_path):
    out = publish(tmp_path / "outputs", "talk", "演讲", dt.date(2026, 4, 1))
    (out / "article.en.md").write_text("# Paging\n")
    (out / "article.zh.md").write_text("# 分页\n")
    (out / "transcript.json").write_text(
        '{"language": "en", "duration": 9, "segments": [{"start": 65, "end": 70, '
        '"text": "So um reserving wastes memory."}]}'
    )
    reading = script("reader_pack").pack(out, tmp_path / "reading")
    en = (reading / "sentences.en.txt").read_text().splitlines()
    assert en[0] == "en-01 | Paging the KV cache" and len(en) == 5  # title, summary, heading, 2
    assert "[01:05] So um reserving" in (reading / "sources" / "transcript.txt").read_text()
    assert "## Slide 2" in (reading / "sources" / "deck.txt").read_text()
    key = json.loads((reading / "key.json").read_text())
    made_from = json.loads((reading / "key.sources.json").read_text())
    fact = made_from[key["sentences"]["en-04"][0]]  # what the readers' marks are matched to
    assert fact["text"] and isinstance(fact.get("added", []), list)
    key["flags"] = {key["sentences"]["en-04"][0]: "an unsure word in its source"}
    (reading / "key.json").write_text(json.dumps(key))

    (reading / "reader-1.txt").write_text(
        "en-01 | keep | | fine\nen-02 | keep\nen-03 | keep\nen-04 | edit | fragment | a label\n"
        "en-05 | edit | meta | x\nzh-01 | keep\nmechanism explained: yes\npublishable: no\n"
    )
    (reading / "reader-2.txt").write_text(  # stopped before en-05
        "en-01 | keep\nen-02 | keep\nen-03 | keep\nen-04 | edit | fragment | label\n"
        "publishable: en yes, zh no\n"
    )
    figures = script("reader_tally").tally(reading)
    assert figures["readers"] == 2 and figures["en"]["sentences"] == 5
    assert figures["en"]["unmarked"] == 0.5  # a line left unmarked is no keep
    assert figures["en"]["share_edit"] == 0.325  # 2 of 5 marked, 1 of 4 marked
    assert figures["en"]["classes"]["fragment"] == 0.225 and figures["en"]["classes"]["meta"] == 0.1
    assert figures["en"]["flagged_share"] == 0.2
    assert figures["en"]["flag_recall"] == 0.75  # 1 of 2 marked, 1 of 1
    assert figures["en"]["spread"] == 0.15 and figures["third_reader_needed"]
    assert figures["kinds"]["fact/speech"] == {  # en-04, said; its Chinese is unmarked
        "sentences": 1,
        "share_edit": 1.0,
        "classes": {"fragment": 1.0},
    }
    assert figures["mechanism_explained"] == 1.0 and figures["publishable"] == 0.25
