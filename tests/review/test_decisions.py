import datetime as dt

import pytest

from pipeline.core.errors import StageFailure
from pipeline.fingerprint import talk_fingerprint
from pipeline.review.decisions import (
    DECISIONS_FILE,
    article_hash,
    decide,
    read_decisions,
    record_decision,
    standing_of,
)
from pipeline.schema import Draft
from pipeline.settings import Settings
from pipeline.talk import read_talk
from tests.review.test_review import EN, ledger


def draft(en=EN) -> Draft:
    return ledger(en).draft()


def test_a_decision_is_bound_to_the_text_it_was_made_on(tmp_path):
    article = draft()
    record_decision(tmp_path, decide(article, "需修改", "approved", "Ada", "numbers checked"))
    decisions = read_decisions(tmp_path)
    assert [d.reviewer for d in decisions] == ["Ada"] and decisions[0].note == "numbers checked"
    standing = standing_of(article, "需修改", decisions)
    assert standing.state == "approved" and not standing.stale
    assert standing.publishable("approved") and not standing.awaits_reviewer
    changed = draft(en=[EN[0], EN[1] + " It also frees blocks early."])
    assert article_hash(changed) != article_hash(article)
    standing = standing_of(changed, "需修改", decisions)
    assert standing.stale and standing.state == "awaiting" and standing.awaits_reviewer
    assert not standing.publishable("recommended") and not standing.publishable("approved")
    assert "again" in standing.why_not("recommended")


def test_the_last_decision_counts_and_every_one_is_kept(tmp_path):
    article = draft()
    record_decision(tmp_path, decide(article, "推荐收录", "held", "Ada", "check slide 3"))
    record_decision(tmp_path, decide(article, "推荐收录", "approved", "Bo"))
    decisions = read_decisions(tmp_path)
    assert [d.decision for d in decisions] == ["held", "approved"]
    assert standing_of(article, "推荐收录", decisions).decision.reviewer == "Bo"


@pytest.mark.parametrize(
    ("verdict", "kind", "stale", "published"),
    [
        # policy -> published?          recommended, approved, preview
        ("推荐收录", None, False, (True, False, True)),
        ("需修改", None, False, (False, False, True)),
        ("不推荐收录", "approved", False, (True, True, True)),
        ("推荐收录", "approved", True, (True, False, True)),  # stale: as if undecided
        ("需修改", "approved", True, (False, False, True)),
        ("推荐收录", "rejected", False, (False, False, False)),
        ("推荐收录", "rejected", True, (False, False, False)),  # never, though it changed
        ("推荐收录", "held", False, (False, False, True)),
        ("推荐收录", "held", True, (False, False, True)),
    ],
)
def test_the_publishing_policy(verdict, kind, stale, published):
    article = draft()
    decisions = [decide(article, verdict, kind, "Ada")] if kind else []
    shown = draft(en=[EN[0], EN[1] + " It also frees blocks early."]) if stale else article
    standing = standing_of(shown, verdict, decisions)
    policies = ("recommended", "approved", "preview")
    assert tuple(standing.publishable(p) for p in policies) == published


def test_a_broken_decisions_file_is_a_clear_error_naming_it(tmp_path):
    (tmp_path / DECISIONS_FILE).write_text("decisions:\n  - decision: maybe\n")
    with pytest.raises(StageFailure, match="decisions.yaml is not valid") as err:
        read_decisions(tmp_path)
    assert err.value.file.endswith(DECISIONS_FILE)
    (tmp_path / DECISIONS_FILE).write_text("decisions: [")
    with pytest.raises(StageFailure, match="not valid YAML"):
        read_decisions(tmp_path)


def test_a_decision_is_no_input_of_the_articles(tmp_path):
    """Written beside the recording, it neither breaks the talk folder nor reruns it."""
    (tmp_path / "talk.srt").write_text("1\n00:00:00,000 --> 00:00:02,000\nHello.\n")
    before = talk_fingerprint(tmp_path, Settings())
    record_decision(tmp_path, decide(draft(), "推荐收录", "approved", "Ada"))
    assert read_talk(tmp_path, "t").subtitles.name == "talk.srt"
    assert talk_fingerprint(tmp_path, Settings()) == before
    assert read_decisions(tmp_path)[0].at.utcoffset() == dt.timedelta(0)
