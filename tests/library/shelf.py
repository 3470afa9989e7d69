"""Three published talks of one topic that build on each other, two of them at one meetup:
`basics` explains the KV cache and PagedAttention, `prefix` uses both and explains prefix
caching, `router` uses PagedAttention and prefix caching and explains neither."""

import datetime as dt
from pathlib import Path

from pipeline.library.talks import PublishedTalk, published_talks
from tests.site.published import publish

BASICS, PREFIX, ROUTER = "lmsys/basics", "lmsys/prefix", "later/router"
TALKS = {
    BASICS: dict(
        title_zh="分页的基础",
        title_en="Paging basics",
        date=dt.date(2026, 1, 10),
        en=[
            ("The KV cache holds the keys and values of every token.", ["t-00:01:05"]),
            ("PagedAttention splits the KV cache into blocks of 16 tokens.", ["s-02"]),
        ],
        zh=[
            ("KV cache 保存每个 token 的键和值。", ["t-00:01:05"]),
            ("PagedAttention 把 KV cache 切成 16 个 token 的块。", ["s-02"]),
        ],
        terms=("KV cache", "PagedAttention", "Ada"),
    ),
    PREFIX: dict(
        title_zh="共享前缀",
        title_en="Sharing prefixes",
        date=dt.date(2026, 2, 10),
        en=[
            ("Prefix caching reuses the KV cache of a shared prompt.", ["t-00:01:05"]),
            ("It keeps the shared blocks of PagedAttention in a radix tree.", ["s-02"]),
        ],
        zh=[
            ("前缀缓存复用共享提示的 KV cache。", ["t-00:01:05"]),
            ("它把 PagedAttention 的共享块放在 radix tree 中。", ["s-02"]),
        ],
        terms=("prefix caching", "PagedAttention"),
    ),
    ROUTER: dict(
        title_zh="按缓存路由",
        title_en="Routing by cache",
        date=dt.date(2026, 3, 10),
        en=[
            ("The router sends each request to the worker whose prefix caching holds its "
             "prompt.", ["t-00:01:05"]),
            ("Every worker runs PagedAttention on its own GPU.", ["s-02"]),
        ],
        zh=[
            ("router 把每个请求发给前缀缓存里有它的提示的 worker。", ["t-00:01:05"]),
            ("每个 worker 都在自己的 GPU 上运行 PagedAttention。", ["s-02"]),
        ],
        terms=("router", "prefix caching"),
    ),
}  # fmt: skip
# A fourth talk that explains PagedAttention too, and swapping, which `basics` does not: the
# article `basics` is best read beside.
SWAP = "later/swap"
SWAPPING = dict(
    title_zh="换出块",
    title_en="Swapping blocks",
    date=dt.date(2026, 4, 10),
    en=[
        ("PagedAttention moves whole blocks between GPU and CPU memory.", ["t-00:01:05"]),
        ("Swapping writes the blocks of a paused request to CPU memory.", ["s-02"]),
    ],
    zh=[
        ("PagedAttention 在 GPU 与 CPU 内存之间搬运整块。", ["t-00:01:05"]),
        ("换出把暂停请求的块写到 CPU 内存。", ["s-02"]),
    ],
    terms=("PagedAttention", "swapping"),
)
MEETUP = "name: LMSYS meetup\ndate: 2026-02-20\nplace: Mountain View\n"


def shelve(
    outputs: Path,
    inputs: Path,
    meetup: str | None = MEETUP,
    questions: bool = False,
    swap: bool = False,
) -> list[PublishedTalk]:
    """The three talks published (on the memory topic), the first two in a meetup folder
    of inputs/ unless `meetup` is None, with a companion each if `questions`, and the
    swapping talk if `swap`; latest first."""
    for slug, talk in {**TALKS, **({SWAP: SWAPPING} if swap else {})}.items():
        publish(outputs, slug, topic="memory", questions=questions, **talk)
    if meetup:
        (inputs / "lmsys").mkdir(parents=True, exist_ok=True)
        (inputs / "lmsys" / "meetup.yaml").write_text(meetup, encoding="utf-8")
    talks, left_out = published_talks(outputs, inputs, policy="preview")
    assert not left_out, left_out
    return talks
