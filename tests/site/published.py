"""An outputs folder as a run leaves it, made from contracts (no models): what the site and
the browser tests publish."""

import datetime as dt
from pathlib import Path

from PIL import Image

from pipeline.core.prompts import load_prompt
from pipeline.core.store import TalkStore, sha256_model
from pipeline.edits import apply_edits, make_edit
from pipeline.review import review
from pipeline.schema import (
    Deck,
    Edit,
    EditedLedger,
    Evidence,
    EvidenceUnit,
    FactSource,
    GlossaryEntry,
    Ledger,
    Provenance,
    QuestionAnswer,
    Questions,
    QuestionsText,
    RunRecord,
    Slide,
    Talk,
    TalkMeta,
)
from pipeline.schema.checks import SentenceCheck
from tests.helpers import ledger_of

VIDEO = "https://www.youtube.com/watch?v=abc"
SAID = FactSource(
    id="t-00:01:05.0",
    unit="t-00:01:05",
    kind="speech",
    text="So um reserving the max length wastes like 60 to 80 percent of the KV cache.",
    start=65.0,
)
UNITS = [
    EvidenceUnit(
        id="t-00:01:05",
        kind="transcript",
        text="Reserving the maximum length for every request wastes 60 to 80 percent of the "
        "KV cache memory.",
        start=65.0,
        end=70.0,
        slide=2,
    ),
    EvidenceUnit(
        id="s-02",
        kind="slide",
        text="PagedAttention\nBlocks of 16 tokens, handed out on demand",
        slide=2,
        image="slides/slide-002.jpg",
    ),
    EvidenceUnit(  # said with a word recognition may have misheard: left out, highlighted
        id="t-00:01:12",
        kind="transcript",
        text="One node serves 52.3k Potokans per second.",
        start=72.0,
        end=75.0,
        slide=2,
        uncertain=["Potokans"],
    ),
]
EN = [  # in words of its own: an article that copies its transcript fails own_words
    (
        "Every request that reserves the maximum length wastes 60 to 80 percent of its KV "
        "cache memory.",
        ["t-00:01:05"],
    ),
    ("PagedAttention hands out blocks of 16 tokens on demand.", ["s-02"]),
]
ZH = [
    ("为每个请求预留最大长度，会浪费 60 到 80 percent 的 KV cache 内存。", ["t-00:01:05"]),
    ("PagedAttention 按需分配 16 个 token 的块。", ["s-02"]),
]
# An untranslated paragraph: fixable, so the automatic verdict is 需修改.
ZH_UNTRANSLATED = [ZH[0], ("PagedAttention hands out blocks of 16 tokens on demand.", ["s-02"])]
QUESTIONS = {  # answered by the article's two sentences, f-0 and f-1
    "en": "How much KV cache memory does reserving the maximum length waste?",
    "zh": "预留最大长度会浪费多少 KV cache 内存？",
}
PROMPTS = [load_prompt(n) for n in ("outline", "rewrite_facts_en", "translate_sentences_zh")]


def image(slide: int) -> str:
    return f"slides/slide-{slide:03d}.jpg"


def publish(
    outputs: Path,
    slug: str,
    title_zh: str,
    date: dt.date,
    status="succeeded",
    video=VIDEO,
    zh=ZH,
    en=EN,
    pictures=(2,),
    topic: str | None = None,
    questions: bool = False,
    title_en: str = "Paging the KV cache",
    terms: tuple[str, ...] = (),
    speaker: str = "Ada",
    chapters: tuple[str, str] = ("Blocks on demand", "按需分块"),
    summaries: tuple[str, str] = ("Why paging wins.", "从显存浪费出发，拆解分页。"),
    edits: dict[str, tuple[str, str]] | None = None,
    misheard: tuple[str, ...] = (),
    left_out: tuple[str, ...] = (),
    dropped: tuple[str, ...] = (),
) -> Path:
    """A talk's outputs folder with articles, a picture of each slide of `pictures` (slide
    2 is cited by s-02; slide n by s-0n, a unit of its own), a run record and, with
    `questions`, a companion of one question; `terms` are its deck terms (the evidence
    glossary); `chapters` and `summaries` are (en, zh); `edits` are a reviewer's texts
    (zh, en) by sentence id; `misheard` are words of the first source said that recognition
    may have misheard; `left_out` are ids of sentences whose Chinese failed twice;
    `dropped` are ids of sentences a reviewer dropped; its talk folder is inputs/<slug>
    beside `outputs`."""
    store = TalkStore(outputs / slug)
    folder = outputs / slug
    (folder / "slides").mkdir(parents=True, exist_ok=True)
    for n in pictures:
        Image.new("RGB", (320, 180), (40, 90, 160)).save(folder / image(n))
    meta = TalkMeta(title="Paging", speaker=speaker, date=date, video_url=video, topic=topic)
    talk = Talk(slug=slug, folder=Path("inputs") / slug, decks=[Path("slides.pdf")], meta=meta)
    shown = FactSource(id="s-02.0", unit="s-02", kind="slide", text=UNITS[1].text)
    said = SAID.model_copy(update={"uncertain": list(misheard)})
    sources = [said, shown][: len(en)]
    ledger = ledger_of(en, zh, (title_en, title_zh), chapters, summaries, sources, "mechanism")
    failed = [SentenceCheck(check="numbers", passed=False, detail="lost: 60")]
    for sentence in (s for s in ledger.sentences if s.id in left_out):
        sentence.zh = sentence.zh.model_copy(update={"left_out": True, "rejected": failed})
    ledger = ledger.model_copy(update={"plan": ledger.chapters}).arranged()
    texts = (edits or {}).items()
    reviewed = [make_edit(ledger, i, {"zh": z, "en": e}, "Lin", None) for i, (z, e) in texts]
    reviewed += [make_edit(ledger, i, {}, "Lin", None, drop=True) for i in dropped]
    corrected = apply_edits(ledger, reviewed).ledger
    units = UNITS + [
        EvidenceUnit(id=f"s-{n:02d}", kind="slide", text=f"Slide {n}", slide=n, image=image(n))
        for n in pictures
        if n != 2
    ]
    evidence = Evidence(units=units, glossary=[GlossaryEntry(term=t) for t in terms])
    slides = [Slide(index=n, title=f"Slide {n}", thumbnail=image(n)) for n in pictures]
    deck = Deck(sources=["slides.pdf"], slides=slides, thumbnails="pdf")
    started = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    run = RunRecord(talk=slug, status=status, started=started, finished=started)
    for name, model in [
        ("talk.json", talk),
        ("ledger.json", ledger),
        ("edited.json", edited(ledger, reviewed)),
        ("review.json", review(corrected, evidence, "en", [], PROMPTS)),
        ("evidence.json", evidence),
        ("deck.json", deck),
        ("run.json", run),
    ]:
        store.write_text(name, model.model_dump_json(indent=2))
    if questions:
        store.write_text("questions.json", companion(ledger).model_dump_json(indent=2))
    return folder


def edited(ledger: Ledger, edits: list[Edit]) -> EditedLedger:
    """The ledger as the edits stage leaves it."""
    provenance = Provenance(
        stage="edits", code_version="t", inputs={"ledger": sha256_model(ledger)}
    )
    return apply_edits(ledger, edits).model_copy(update={"provenance": provenance})


def companion(ledger: Ledger) -> Questions:
    """A companion of one question, made from `ledger`."""
    provenance = Provenance(
        stage="questions", code_version="t", inputs={"ledger": sha256_model(ledger)}
    )
    answer = ["f-0", "f-1"]
    texts = {
        lang: QuestionsText(lang=lang, items=[QuestionAnswer(question=q, sentences=answer)])
        for lang, q in QUESTIONS.items()
    }
    return Questions(**texts, provenance=provenance)
