import pytest

from pipeline.core.errors import StageFailure
from pipeline.core.text import term_pattern
from pipeline.library.topics import assign_topic, load_topics, topic_scores
from pipeline.schema import Draft, DraftParagraph, DraftSection, DraftText

TOPICS = load_topics()


def article(title: str, text: str, tags=(), zh_title="文章") -> Draft:
    def one(lang: str, title: str, body: str) -> DraftText:
        section = DraftSection(title="-", paragraphs=[DraftParagraph(text=body, citations=[])])
        return DraftText(lang=lang, title=title, sections=[section])

    return Draft(en=one("en", title, text), zh=one("zh", zh_title, "。"), tags=list(tags))


PAGING = article(
    "Serving LLMs without wasting GPU memory",
    "PagedAttention keeps the KV cache in blocks; prefix caching shares them. SGLang and vLLM "
    "both do it.",
    tags=["KV CACHE"],
)
GRAMMAR = article(
    "Constrained decoding at the speed of free generation",
    "A JSON schema becomes a grammar; the logit mask keeps the model inside it. SGLang runs "
    "xgrammar.",
    tags=["STRUCTURED OUTPUT"],
)


def test_an_article_goes_to_the_topic_its_own_words_name():
    assert assign_topic(PAGING, TOPICS).id == "memory"
    assert assign_topic(GRAMMAR, TOPICS).id == "decoding"
    # the title and the tags weigh more than a name the text mentions in passing
    scores = topic_scores(PAGING, TOPICS)
    assert scores["memory"] > scores["frameworks"] > 0


def test_the_talks_own_choice_wins_and_an_unknown_one_is_ignored():
    assert assign_topic(PAGING, TOPICS, "kernels").id == "kernels"
    assert assign_topic(PAGING, TOPICS, "no-such-topic").id == "memory"


def test_an_article_no_topic_names_goes_to_the_last():
    civic = article("Why we vote", "Elections need turnout.", tags=["CIVICS"])
    assert assign_topic(civic, TOPICS).id == TOPICS[-1].id == "general"


def test_a_topic_list_of_ones_own_is_checked(tmp_path):
    mine = tmp_path / "topics.yaml"
    mine.write_text(
        "- {id: paging, zh: 分页, en: Paging, scope_zh: 分页。, scope_en: Paging.,"
        " keywords: [PagedAttention]}\n"
        "- {id: rest, zh: 其他, en: Other, scope_zh: 其他。, scope_en: Other.}\n"
    )
    topics = load_topics(mine)
    assert [assign_topic(a, topics).id for a in (PAGING, GRAMMAR)] == ["paging", "rest"]
    mine.write_text("- {id: Bad Id, zh: x}\n")
    with pytest.raises(StageFailure, match="topics.yaml is not valid: 0.id: ") as err:
        load_topics(mine)
    assert err.value.file == str(mine)
    mine.write_text("- {id: a, zh: 甲, en: A, scope_zh: 甲。, scope_en: A.}\n" * 2)
    with pytest.raises(StageFailure, match="unique ids"):
        load_topics(mine)


def test_what_every_talk_measures_names_no_topic():
    deployment = article(
        "Universal deployment with low latency",
        "The engine serves an OpenAI-compatible API on every device. Latency drops by half and "
        "throughput doubles; the latency of the first token falls too.",
        tags=["DEPLOYMENT", "LATENCY"],
        zh_title="LLM部署",
    )
    assert assign_topic(deployment, TOPICS).id == "serving"
    # 部署 counts in the Chinese title though a Latin letter stands right before it
    assert topic_scores(deployment, TOPICS)["serving"] == 3 + 2 + 3 + 1


def test_no_keyword_counts_twice():
    # keywords match plurals and spacing variants: "kernels" beside "kernel" counted each
    # use of the word twice (deepseek-mla went to kernels on a tie made so)
    for topic in TOPICS:
        for a in topic.keywords:
            for b in topic.keywords:
                assert a == b or not term_pattern(a, plural=True).fullmatch(b), (topic.id, a, b)


def test_on_a_tie_the_topic_the_tags_name_wins():
    # kernels comes first in the list; the tags name the architecture
    tied = article("CUDA", "MLA.", tags=["MLA"])
    scores = topic_scores(tied, TOPICS)
    assert scores["kernels"] == scores["models"]
    assert assign_topic(tied, TOPICS).id == "models"
