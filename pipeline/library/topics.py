"""Topics: every article is listed under one primary topic of a maintainer-editable list
(topics.yaml here, or the file TALK2ARTICLE_SITE_TOPICS names).

An article's topic is the one whose keywords its own title, tags and text use most, so
it depends on that article and the list alone: a new talk never moves the others. A
talk.yaml's `topic:` wins. The list's order breaks ties; its last topic takes an article
that matches none.
"""

from pathlib import Path

from pydantic import Field

from pipeline.core.errors import StageFailure
from pipeline.core.text import term_pattern
from pipeline.core.yamlfile import read_yaml
from pipeline.library.talks import PublishedTalk
from pipeline.schema import Contract, Draft

DEFAULT_TOPICS = Path(__file__).with_name("topics.yaml")
# Where a keyword appears says how much it tells: the title names the subject, a tag the
# field, the text may mention anything in passing (so its count stops at MAX_TEXT_COUNT).
IN_TITLE, IN_TAGS, MAX_TEXT_COUNT = 3, 2, 3


class Topic(Contract):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=40)
    zh: str = Field(max_length=40)
    en: str = Field(max_length=80)
    scope_zh: str = Field(max_length=200)
    scope_en: str = Field(max_length=300)
    keywords: list[str] = Field(default_factory=list)

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def scope(self, lang: str) -> str:
        return self.scope_zh if lang == "zh" else self.scope_en


def load_topics(path: Path | None = None) -> tuple[Topic, ...]:
    """The topic list; a file that is not one fails with its name and why."""
    path = path or DEFAULT_TOPICS
    topics = tuple(read_yaml(path, list[Topic], []))
    ids = [t.id for t in topics]
    if not topics or len(set(ids)) != len(ids):
        raise StageFailure("a topic list needs at least one topic and unique ids", path)
    return topics


def topic_scores(draft: Draft, topics: tuple[Topic, ...]) -> dict[str, int]:
    """How much each topic's keywords appear in the article: its titles, tags and text."""
    titles = " ".join([draft.en.title, draft.zh.title])
    tags = " ".join(draft.tags)
    text = "\n".join(p.text for t in (draft.en, draft.zh) for s in t.sections for p in s.paragraphs)
    scores = {}
    for topic in topics:
        score = 0
        for keyword in topic.keywords:
            pattern = term_pattern(keyword, plural=True)
            score += IN_TITLE * bool(pattern.search(titles)) + IN_TAGS * bool(pattern.search(tags))
            score += min(len(pattern.findall(text)), MAX_TEXT_COUNT)
        scores[topic.id] = score
    return scores


def tag_hits(draft: Draft, topic: Topic) -> int:
    """How many of the topic's keywords the article's tags use: its field, as it names it."""
    tags = " ".join(draft.tags)
    return sum(bool(term_pattern(k, plural=True).search(tags)) for k in topic.keywords)


def assign_topic(draft: Draft, topics: tuple[Topic, ...], chosen: str | None = None) -> Topic:
    """The article's topic: the talk's own choice if the list has it, else the best score
    (on a tie, the topic its tags name more, then the earlier one), else the list's last."""
    by_id = {t.id: t for t in topics}
    if chosen in by_id:
        return by_id[chosen]
    scores = topic_scores(draft, topics)
    best = max(topics, key=lambda t: (scores[t.id], tag_hits(draft, t), -topics.index(t)))
    return best if scores[best.id] > 0 else topics[-1]


def unknown_topics(
    talks: list[PublishedTalk], topics: tuple[Topic, ...], inputs_dir: Path
) -> list[str]:
    """A warning for each talk whose talk.yaml names a topic the list does not have (its
    article's own words choose the topic instead)."""
    ids = {t.id for t in topics}
    return [
        f"{talk.input_folder(inputs_dir) / 'talk.yaml'}: topic '{talk.talk.meta.topic}' is not "
        f"in the topic list ({', '.join(sorted(ids))}); the article's own words chose one"
        for talk in talks
        if talk.talk.meta.topic and talk.talk.meta.topic not in ids
    ]


Shelves = list[tuple[Topic, list[PublishedTalk]]]  # topics with their articles, list order


def shelves_of(talks: list[PublishedTalk], topics: tuple[Topic, ...]) -> Shelves:
    """Each topic that has articles, with them (latest first), in the list's order; a
    talk.yaml's topic wins where the list has it."""
    placed = {t.slug: assign_topic(t.draft, topics, t.talk.meta.topic).id for t in talks}
    shelves = [(topic, [t for t in talks if placed[t.slug] == topic.id]) for topic in topics]
    return [(topic, shelved) for topic, shelved in shelves if shelved]
