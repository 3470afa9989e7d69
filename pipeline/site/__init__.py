"""The site (outputs/site/): MkDocs Material sources for every published talk, Chinese by
default and English beside it (mkdocs-static-i18n), and the built pages.

    outputs/site/mkdocs.yml, docs/ (index, about, topics/, articles/, qa/, proof/, assets/),
    public/, site.json (what was published, by which policy, decisions and topic list)

Each article is listed under one topic (pipeline.library.topics); the index lists the
topics that have articles, each with its own page of cards.

Which talks are published follows the policy (pipeline.review.decisions): by default an
article a reviewer approved, or one the automatic review recommends that nobody has
decided on yet. A preview for reviewers (everything not rejected) goes to
outputs/site/preview/.

The docs folder is written afresh into a temporary folder and swapped in whole, so a
failed build never leaves a half-written site.
"""

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml
from pydantic import Field

from pipeline.article.typeset import typeset_plain
from pipeline.errors import StageFailure
from pipeline.library.topics import DEFAULT_TOPICS, Topic, assign_topic, load_topics
from pipeline.review.decisions import DECISIONS_FILE, Policy
from pipeline.schema import Contract
from pipeline.site.pages import (
    about_page,
    article_page,
    index_page,
    page_path,
    proof_page,
    qa_page,
    topic_page,
)
from pipeline.site.talks import PublishedTalk, published_talks
from pipeline.store import atomic_write_text, sha256_file

# Chinese words are segmented by jieba with zero-width spaces, which must separate words.
SEARCH_SEPARATOR = r'[\s\u200b\-_,:!=\[\]()"`/]+|\.(?!\d)|&[lg]t;|(?!\b)(?=[A-Z][a-z])'
# The site's own styles (pipeline/site/pictures.css), where the pages link them.
STYLESHEET = "stylesheets/talk2article.css"
NAV = {name: name for name in ("首页", "主题", "文章", "问答", "校对", "关于本站")}
NAV_EN = {"首页": "Home", "主题": "Topics", "文章": "Articles", "问答": "Q&A"}
NAV_EN |= {"校对": "Proofreading", "关于本站": "About"}
Shelves = list[tuple[Topic, list[PublishedTalk]]]  # topics with their articles, list order


class SiteBuild(Contract):
    site: str = Field(description="the MkDocs project folder")
    public: str | None = Field(None, description="the built pages, if built")
    policy: Policy = "recommended"
    decisions: str = Field("", description="decisions_digest of the inputs it was built from")
    articles: list[str] = Field(description="the published talks, latest first")
    topics: dict[str, str] = Field(default_factory=dict, description="talk -> its topic's id")
    topic_list: str = Field("", description="sha256 of the topic list it was built with")
    left_out: list[str] = Field(default_factory=list, description="talks not published, and why")


def decisions_digest(inputs_dir: Path) -> str:
    """Every reviewer's decision under inputs/, as one hash: a new decision rebuilds the
    site though no talk ran."""
    digest = hashlib.sha256()
    for path in sorted(inputs_dir.rglob(DECISIONS_FILE)) if inputs_dir.is_dir() else []:
        digest.update(f"{path.relative_to(inputs_dir).as_posix()}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def topic_list_digest(topics: Path | None) -> str:
    return sha256_file(topics or DEFAULT_TOPICS)


def shelves_of(talks: list[PublishedTalk], topics: tuple[Topic, ...]) -> Shelves:
    """Each topic that has articles, with them (latest first), in the list's order; a
    talk.yaml's topic wins where the list has it."""
    placed = {t.slug: assign_topic(t.draft, topics, t.talk.meta.topic).id for t in talks}
    shelves = [(topic, [t for t in talks if placed[t.slug] == topic.id]) for topic in topics]
    return [(topic, shelved) for topic, shelved in shelves if shelved]


def site_is_current(
    site_dir: Path, inputs_dir: Path, policy: Policy, topics: Path | None = None
) -> bool:
    """Whether the built site was made by this policy from these decisions and topics."""
    try:
        built = SiteBuild.model_validate_json((site_dir / "site.json").read_text())
    except (OSError, ValueError):
        return False
    return (
        (site_dir / "public" / "index.html").is_file()
        and built.policy == policy
        and built.decisions == decisions_digest(inputs_dir)
        and built.topic_list == topic_list_digest(topics)
    )


def site_nav(talks: list[PublishedTalk], lang: str, shelves: Shelves = ()) -> list[dict]:
    """The navigation in one language: its own titles, typeset; paths as the default
    language names them (static-i18n finds each language's file)."""
    names = NAV if lang == "zh" else {zh: NAV_EN[zh] for zh in NAV}

    def entries(kind: str, shown: list[PublishedTalk]) -> list[dict[str, str]]:
        return [
            {typeset_plain(talk.draft.text(lang).title, lang): page_path(kind, talk.slug, "zh")}
            for talk in shown
        ]

    nav = [{names["首页"]: "index.md"}]
    if shelves:
        topics = [{t.name(lang): page_path("topics", t.id, "zh")} for t, _ in shelves]
        nav.append({names["主题"]: topics})
    if talks:
        nav.append({names["文章"]: entries("articles", talks)})
        if answered := [t for t in talks if t.questions]:
            nav.append({names["问答"]: entries("qa", answered)})
        nav.append({names["校对"]: entries("proof", talks)})
    return [*nav, {names["关于本站"]: "about.md"}]


def mkdocs_config(talks: list[PublishedTalk], site_url: str | None, shelves: Shelves = ()) -> dict:
    return {
        "site_name": "talk2article",
        "site_description": "Technical talks turned into cited bilingual articles.",
        **({"site_url": site_url} if site_url else {}),
        "docs_dir": "docs",
        "site_dir": "public",
        "strict": True,
        "theme": {
            "name": "material",
            "language": "zh",
            # no navigation.instant: it breaks the language switch of static-i18n
            "features": ["navigation.tabs", "search.highlight", "content.code.copy"],
        },
        "extra_css": [STYLESHEET],
        "markdown_extensions": ["admonition", "attr_list", "md_in_html", "tables", "toc"],
        "plugins": [
            {"search": {"separator": SEARCH_SEPARATOR}},
            {
                "i18n": {
                    "docs_structure": "suffix",
                    "fallback_to_default": True,
                    "reconfigure_material": True,
                    "reconfigure_search": True,
                    "languages": [
                        {"locale": "zh", "default": True, "name": "中文", "build": True},
                        {
                            "locale": "en",
                            "name": "English",
                            "build": True,
                            "nav": site_nav(talks, "en", shelves),
                        },
                    ],
                }
            },
        ],
        "nav": site_nav(talks, "zh", shelves),
    }


def write_docs(docs: Path, talks: list[PublishedTalk], shelves: Shelves = ()) -> None:
    pages = {"about.md": about_page("zh"), "about.en.md": about_page("en")}
    for lang in ("zh", "en"):
        pages["index.md" if lang == "zh" else "index.en.md"] = index_page(talks, lang, shelves)
        for topic, shelved in shelves:
            pages[page_path("topics", topic.id, lang)] = topic_page(topic, shelved, lang)
    for talk in talks:
        for lang in ("zh", "en"):
            pages[page_path("articles", talk.slug, lang)] = article_page(talk, lang)
            if talk.questions:
                pages[page_path("qa", talk.slug, lang)] = qa_page(talk, lang)
        pages[page_path("proof", talk.slug, "zh")] = proof_page(talk)
    for name, text in pages.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text, encoding="utf-8")
    files = {STYLESHEET: Path(__file__).with_name("pictures.css")}
    files |= {k: v for t in talks for k, v in t.pictures().items()}
    for name, source in files.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, docs / name)


def write_site(
    outputs_dir: Path,
    site_dir: Path,
    inputs_dir: Path,
    policy: Policy = "recommended",
    site_url: str | None = None,
    topics: Path | None = None,
) -> SiteBuild:
    """The MkDocs project for every talk under `outputs_dir` the policy publishes, by the
    decisions in the talk folders under `inputs_dir`, under the topics of the list
    `topics` (default: the shipped one)."""
    digest = decisions_digest(inputs_dir)
    talks, left_out = published_talks(outputs_dir, inputs_dir, policy, skip=site_dir)
    shelves = shelves_of(talks, load_topics(topics))
    site_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=site_dir, prefix=".docs-") as tmp:
        write_docs(Path(tmp), talks, shelves)
        config = mkdocs_config(talks, site_url, shelves)
        config = yaml.safe_dump(config, allow_unicode=True, sort_keys=False)
        (Path(tmp) / "mkdocs.yml").write_text(config, encoding="utf-8")
        shutil.rmtree(site_dir / "docs", ignore_errors=True)
        (Path(tmp) / "mkdocs.yml").replace(site_dir / "mkdocs.yml")
        Path(tmp).rename(site_dir / "docs")
        Path(tmp).mkdir()  # for the context manager to remove
    return SiteBuild(
        site=str(site_dir),
        policy=policy,
        decisions=digest,
        articles=[t.slug for t in talks],
        topics={t.slug: topic.id for topic, shelved in shelves for t in shelved},
        topic_list=topic_list_digest(topics),
        left_out=left_out,
    )


def build_site(
    outputs_dir: Path,
    site_dir: Path,
    inputs_dir: Path,
    policy: Policy = "recommended",
    site_url: str | None = None,
    topics: Path | None = None,
) -> SiteBuild:
    """Write the MkDocs project and build it strictly into `site_dir`/public; site.json
    records what was published."""
    written = write_site(outputs_dir, site_dir, inputs_dir, policy, site_url, topics)
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--clean"]
    done = subprocess.run(command, cwd=site_dir, capture_output=True, text=True)
    if done.returncode != 0:
        problem = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise StageFailure(f"mkdocs build failed: {' | '.join(problem)}", site_dir / "mkdocs.yml")
    built = written.model_copy(update={"public": str(site_dir / "public")})
    atomic_write_text(site_dir / "site.json", built.model_dump_json(indent=2))
    return built
