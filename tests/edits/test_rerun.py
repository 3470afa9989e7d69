"""Edits through the talk flow: kept by every rerun without a model call, stale when their
source changed, bound into a reviewer's decision."""

from flows.talk import is_fresh
from pipeline.edits import EDITS_FILE, make_edit, record_edit
from pipeline.library.talks import load_talk
from pipeline.review.decisions import decide, record_decision
from pipeline.schema import FactSource, Ledger
from tests.flows.test_talk import SRT, Session, run_talk, statuses
from tests.helpers import MADE

OUT = ("meetups", "paging")


def edited_run(talk, texts: dict[str, str]) -> tuple[FactSource, str]:
    """The talk run once, then the sentence made from its first source said edited: that
    source and the sentence's id."""
    folder, settings = talk
    assert run_talk(folder, settings, Session()).status in MADE
    ledger = Ledger.model_validate_json(
        (settings.outputs_dir.joinpath(*OUT, "ledger.json")).read_text()
    )
    made_from = {s.source for s in ledger.sentences}
    said = next(s for s in ledger.sources if s.kind == "speech" and s.id in made_from)
    record_edit(folder, make_edit(ledger, f"f-{said.id}", texts, "Lin", None))
    return said, f"f-{said.id}"


def test_an_edit_survives_a_rerun_without_a_model_call_and_an_approval_holds(prefect, talk):
    folder, settings = talk
    out = settings.outputs_dir.joinpath(*OUT)
    edited_run(talk, {"en": "Reserved memory is mostly wasted.", "zh": "预留的显存大多被浪费。"})
    assert not is_fresh(folder, settings)  # the nightly runs a talk whose edits changed

    rerun = Session()
    record = run_talk(folder, settings, rerun)
    assert record.status in MADE and not rerun.endpoint.requests
    assert [n for n, s in statuses(record).items() if s == "done"] == [
        "talk",
        "edits",
        "review",
        "article",
    ]
    assert "预留的显存大多被浪费。" in (out / "article.zh.md").read_text()
    published = load_talk(out, "meetups/paging", settings.inputs_dir)
    assert published.edited == 1 and not published.stale
    verdict = published.review.card.verdict
    record_decision(folder, decide(published.draft, verdict, "approved", "Lin"))

    assert is_fresh(folder, settings)  # and skips it the night after
    again = Session()
    assert run_talk(folder, settings, again).status in MADE and not again.endpoint.requests
    standing = load_talk(out, "meetups/paging", settings.inputs_dir).standing
    assert standing.state == "approved" and not standing.stale


def test_an_edit_whose_source_changed_is_stale_and_listed(prefect, talk):
    folder, settings = talk
    out = settings.outputs_dir.joinpath(*OUT)
    said, fact = edited_run(talk, {"en": "Edited.", "zh": "改过。"})
    heard = said.text.rstrip(".")
    (folder / "talk.srt").write_text(SRT.replace(heard, f"{heard} today"))

    record = run_talk(folder, settings, Session())
    assert record.status in MADE
    assert "改过。" not in (out / "article.zh.md").read_text()
    edits = next(stage for stage in record.stages if stage.name == "edits")
    assert edits.warnings == [
        f"stale edit of {fact} by Lin: what the sentence is made from changed"
    ]
    assert load_talk(out, "meetups/paging", settings.inputs_dir).stale[0].edit.by == "Lin"


def test_a_broken_edits_file_stops_the_talk_at_its_stage_and_loses_nothing(prefect, talk):
    folder, settings = talk
    out = settings.outputs_dir / "meetups" / "paging"
    assert run_talk(folder, settings, Session()).status in MADE
    (folder / EDITS_FILE).write_text("edits: [\n")

    record = run_talk(folder, settings, Session())
    assert record.status == "failed" and record.errors[0].stage == "edits"
    assert record.errors[0].file == str(folder / EDITS_FILE)
    assert (out / "ledger.json").is_file() and (folder / EDITS_FILE).read_text() == "edits: [\n"


def test_a_broken_edits_file_fails_the_run_and_the_last_good_article_stays(prefect, talk):
    from pipeline.site import build_site

    folder, settings = talk
    out = settings.outputs_dir.joinpath(*OUT)
    edited_run(talk, {"en": "Reserved memory is mostly wasted.", "zh": "预留的显存大多被浪费。"})
    assert run_talk(folder, settings, Session()).status in MADE  # the edit applied
    (folder / EDITS_FILE).write_text("edits:\n- sentence: [\n")  # a typo by hand

    failed = run_talk(folder, settings, Session())
    assert failed.status == "failed" and failed.errors[0].file.endswith(EDITS_FILE)
    published = load_talk(out, "meetups/paging", settings.inputs_dir)
    assert published.edited == 1 and published.failure.file.endswith(EDITS_FILE)
    site = settings.outputs_dir / "site"
    built = build_site(settings.outputs_dir, site, settings.inputs_dir, "preview")
    assert built.articles == ["meetups/paging"] and "edits.yaml" in built.warnings[0]
    article = (site / "public/articles/meetups/paging/index.html").read_text()
    assert "预留的显存大多被浪费" in article
    proof = (site / "public/proof/meetups/paging/index.html").read_text()
    assert "the last run failed" in proof and "edits.yaml" in proof
