"""The reader's count of one reading (../shared/reader.md): the marks the blind readers
returned (reader-*.txt in a folder made by reader_pack.py), as one JSON line, the mean over
the readers.

    python benchmarks/reader_tally.py benchmarks/readings/<case>/<date>-<commit>/

A mark is a line `en-07 | edit | fragment | why` (or `| keep |`); the answers are the lines
`mechanism explained: yes|no` and `publishable: yes|no` (or per language, `en yes, zh no`,
counted as the share of yes).
Per language: the sentences, the share marked edit, each class's share of the sentences,
the share the run flags for a reviewer (key.json) and the share of the marked sentences it
flags. `spread` is the largest difference between two readers' shares; above 0.10 a third
reader is needed. `kinds`: the same per kind of sentence (a fact from speech, a slide's
item, a heading, ...), both languages together. The line is also written to tally.json in
the folder.
"""

import json
import re
import sys
from pathlib import Path
from statistics import mean

CLASSES = ("wrong", "misheard", "fragment", "spoken", "meta", "repeat", "language", "unclear")
MARK = re.compile(r"^\W*(en|zh)-(\d+)\s*\|\s*(keep|edit)\s*(?:\|\s*([A-Za-z]+))?", re.I)
ANSWER = re.compile(r"(mechanism explained|publishable)\s*:(.*)", re.I)
THIRD_READER = 0.10  # readers further apart than this need a third (reader.md)


def marks_of(text: str) -> tuple[dict[str, tuple[str, str | None]], dict[str, float]]:
    """position -> (keep|edit, class) and the two answers (the share of yes: a reader may
    answer per language, "en yes, zh no"), from a reader's returned text."""
    marks, answers = {}, {}
    for line in text.splitlines():
        if found := MARK.match(line):
            lang, n, verdict, kind = found.groups()
            kind = kind.lower() if kind and kind.lower() in CLASSES else None
            marks[f"{lang.lower()}-{int(n):02d}"] = (verdict.lower(), kind)
        elif (found := ANSWER.search(line)) and (
            said := re.findall(r"\b(yes|no)\b", found.group(2), re.I)
        ):
            answers[found.group(1).lower()] = float(mean(a.lower() == "yes" for a in said))
    return marks, answers


def language_figures(lang: str, key: dict, marks: dict) -> dict:
    """Shares of the sentences the reader marked (a line left unmarked is counted apart,
    not as a keep); the flagged share of all of them."""
    positions = [p for p in key["sentences"] if p.startswith(f"{lang}-")]
    flagged = {p for p in positions if set(key["sentences"][p]) & set(key["flags"])}
    marked = [p for p in positions if p in marks]
    edits = {p: marks[p][1] for p in marked if marks[p][0] == "edit"}
    n = max(len(marked), 1)
    return {
        "sentences": len(positions),
        "unmarked": len(positions) - len(marked),
        "share_edit": len(edits) / n,
        "classes": {c: sum(k == c for k in edits.values()) / n for c in CLASSES},
        "flagged_share": len(flagged) / max(len(positions), 1),
        "flag_recall": len(flagged & set(edits)) / len(edits) if edits else None,
    }


def kind_figures(key: dict, marks: dict) -> dict:
    """Per kind of sentence (key.json's kinds: "fact/speech", "item/slide", ...), both
    languages together: how many, the share marked edit and each class's share."""
    found: dict = {}
    for position, kind in key.get("kinds", {}).items():
        if position not in marks:
            continue
        verdict, cls = marks[position]
        entry = found.setdefault(kind, {"sentences": 0, "edit": 0, "classes": {}})
        entry["sentences"] += 1
        if verdict == "edit":
            entry["edit"] += 1
            entry["classes"][cls or "?"] = entry["classes"].get(cls or "?", 0) + 1
    return found


def averaged(figures: list[dict]) -> dict:
    """The mean of each figure over the readers (nested, None where no reader has one)."""
    first = figures[0]
    if isinstance(first, dict):
        return {k: averaged([f[k] for f in figures]) for k in first}
    values = [f for f in figures if f is not None]
    return round(mean(values), 3) if values else None


def by_kind(per_reader: list[dict]) -> dict:
    """The kinds' figures as shares of the sentences each reader marked, the mean over the
    readers who marked any of that kind."""
    result = {}
    for kind in sorted({k for r in per_reader for k in r}):
        entries = [r[kind] for r in per_reader if kind in r and r[kind]["sentences"]]
        classes = sorted({c for e in entries for c in e["classes"]})
        result[kind] = {
            "sentences": max(e["sentences"] for e in entries),
            "share_edit": round(mean(e["edit"] / e["sentences"] for e in entries), 3),
            "classes": {
                c: round(mean(e["classes"].get(c, 0) / e["sentences"] for e in entries), 3)
                for c in classes
            },
        }
    return result


def tally(folder: Path) -> dict:
    key = json.loads((folder / "key.json").read_text())
    readers = sorted(folder.glob("reader-*.txt"))
    if not readers:
        raise SystemExit(f"no reader-*.txt in {folder}")
    per_reader, answers, kinds = [], [], []
    for path in readers:
        marks, said = marks_of(path.read_text())
        per_reader.append({lang: language_figures(lang, key, marks) for lang in ("en", "zh")})
        answers.append(said)
        kinds.append(kind_figures(key, marks))
    result = averaged(per_reader)
    for lang in ("en", "zh"):
        shares = [r[lang]["share_edit"] for r in per_reader]
        result[lang]["spread"] = round(max(shares) - min(shares), 3)
    for question, name in (("mechanism explained", "mechanism_explained"), ("publishable",) * 2):
        given = [a[question] for a in answers if question in a]
        result[name] = round(mean(given), 3) if given else None
    result["kinds"] = by_kind(kinds)
    result["readers"] = len(readers)
    apart = any(result[lang]["spread"] > THIRD_READER for lang in ("en", "zh"))
    result["third_reader_needed"] = apart and len(readers) < 3
    return result


def main() -> None:
    folder = Path(sys.argv[1])
    line = json.dumps(tally(folder), ensure_ascii=False)
    (folder / "tally.json").write_text(line + "\n")
    print(line)


if __name__ == "__main__":
    main()
