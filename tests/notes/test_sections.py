from pipeline.notes.options import NotesOptions
from pipeline.notes.sections import split_sections
from pipeline.schema import Evidence, EvidenceUnit

OPTS = NotesOptions(min_section_tokens=15, max_section_tokens=120)
LONG = "The scheduler admits requests while the pool has room for their blocks of memory."


def speech(second: int, text: str, slide: int | None = None) -> EvidenceUnit:
    return EvidenceUnit(
        id=f"t-{second:02d}",
        kind="transcript",
        text=text,
        start=second,
        end=second + 1,
        slide=slide,
    )


def test_slide_groups_carry_their_slide_and_title_once():
    units = [
        speech(0, LONG, 1),
        speech(5, LONG, 2),
        speech(9, LONG, 2),
        speech(14, LONG, 1),  # back to slide 1: speech only, its text is not repeated
        EvidenceUnit(id="s-01", kind="slide", text="Why memory is wasted\nbullet", slide=1),
        EvidenceUnit(id="s-02", kind="slide", text="Paging\nblocks", slide=2),
        EvidenceUnit(id="s-03", kind="slide", text="Never shown", slide=3),
    ]
    sections = split_sections(Evidence(units=units), OPTS)
    assert [s.unit_ids for s in sections] == [
        ["s-01", "t-00"],
        ["s-02", "t-05", "t-09"],
        ["t-14"],
    ]
    assert [s.title for s in sections] == ["Why memory is wasted", "Paging", None]


def test_without_a_deck_signposts_and_the_token_bound_cut_sections():
    units = [speech(i, LONG) for i in range(3)]
    units += [speech(3, "Next, let's look at the results. " + LONG)]
    units += [speech(i, LONG) for i in range(4, 12)]
    sections = split_sections(Evidence(units=units), OPTS)
    assert sections[0].unit_ids == ["t-00", "t-01", "t-02"]
    assert sections[1].unit_ids[0] == "t-03"
    assert len(sections) >= 3  # the long rest is cut by the bound
    assert [u for s in sections for u in s.unit_ids] == [u.id for u in units]


def test_chinese_signposts_open_sections():
    text = "我们先看一下推理服务的整体流程，以及它和训练有什么不同的地方。" * 2
    units = [speech(0, text), speech(1, text), speech(2, "接下来我们看第二个内容。" + text)]
    sections = split_sections(Evidence(language="zh", units=units), OPTS)
    assert [s.unit_ids for s in sections] == [["t-00", "t-01"], ["t-02"]]
