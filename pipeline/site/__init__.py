"""The site (outputs/site/): MkDocs Material sources for every published talk, Chinese by
default and English beside it (mkdocs-static-i18n), and the built pages.

    outputs/site/mkdocs.yml, docs/ (index, about, topics/, articles/, qa/, glossary/,
    hubs/, proof/, assets/), public/, site.json (what was published, by which policy,
    decisions and library data, and the library: glossary, reading paths, hubs)

What the articles make together comes from the library layer (pipeline.library): each
article is listed under one topic, whose page is its reading path (cards in reading order,
each with its path note); a glossary of the terms several articles use, each article
linking its first mention; a hub page per meetup.

Which talks are published follows the policy (pipeline.review.decisions): by default an
article a reviewer approved, or one the automatic review recommends that nobody has
decided on yet. A preview for reviewers (everything not rejected) goes to
outputs/site/preview/.

Each page is written whole, and only when its text changed; MkDocs then renders only the
changed pages when it can (pipeline.site.build).
"""

import hashlib
import html
import shutil
from pathlib import Path

import yaml
from pydantic import Field

from pipeline.article.typeset import typeset_plain
from pipeline.core.store import atomic_write_text, update_with_files
from pipeline.library import Holdings, build_library, library_digest
from pipeline.library.talks import PublishedTalk, failure_line, published_talks
from pipeline.review.decisions import DECISIONS_FILE, Policy
from pipeline.schema import Contract
from pipeline.schema.library import Library
from pipeline.site.about import about_page
from pipeline.site.build import project_key, run_mkdocs, update_docs
from pipeline.site.pages import (
    article_page,
    index_page,
    list_path,
    page_path,
    qa_page,
)
from pipeline.site.proof import proof_page
from pipeline.site.shelves import (
    glossary_index,
    glossary_page,
    hub_page,
    list_page,
    note_text,
    topic_page,
)

# Chinese words are segmented by jieba with zero-width spaces, which must separate words.
SEARCH_SEPARATOR = r'[\s\u200b\-_,:!=\[\]()"`/]+|\.(?!\d)|&[lg]t;|(?!\b)(?=[A-Z][a-z])'
# The site's own styles (pipeline/site/pictures.css), where the pages link them.
STYLESHEET = "stylesheets/talk2article.css"
# Templates that replace the theme's where it prints a title unescaped (theme/main.html).
THEME_OVERRIDES = "theme"
NAV = {name: name for name in ("首页", "主题", "活动", "文章", "问答", "术语", "校对", "关于本站")}
NAV_EN = {"首页": "Home", "主题": "Topics", "活动": "Meetups", "文章": "Articles", "问答": "Q&A"}
NAV_EN |= {"术语": "Glossary", "校对": "Proofreading", "关于本站": "About"}


class SiteBuild(Contract):
    site: str = Field(description="the MkDocs project folder")
    public: str | None = Field(None, description="the built pages, if built")
    policy: Policy = "recommended"
    decisions: str = Field("", description="decisions_digest of the inputs it was built from")
    articles: list[str] = Field(description="the published talks, latest first")
    topics: dict[str, str] = Field(default_factory=dict, description="talk -> its topic's id")
    library_data: str = Field("", description="library_digest of the data it was built from")
    library: Library = Field(default_factory=Library)
    left_out: list[str] = Field(default_factory=list, description="talks not published, and why")
    warnings: list[str] = Field(
        default_factory=list,
        description="published talks whose last run failed or whose decisions.yaml is broken",
    )
    changed: list[str] = Field(
        default_factory=list,
        description="pages (docs/*.md) new, changed or gone since the docs written before",
    )
    project: str = Field(
        "",
        description="project_key of the build: a build with another "
        "builds every page, one with the same only the changed pages",
    )


def decisions_digest(inputs_dir: Path) -> str:
    """Every reviewer's decision under inputs/, as one hash: a new decision rebuilds the
    site though no talk ran."""
    digest = hashlib.sha256()
    update_with_files(digest, inputs_dir, DECISIONS_FILE)
    return digest.hexdigest()


def last_build(site_dir: Path) -> SiteBuild | None:
    try:
        return SiteBuild.model_validate_json((site_dir / "site.json").read_text())
    except (OSError, ValueError):
        return None


def site_is_current(
    site_dir: Path,
    inputs_dir: Path,
    policy: Policy,
    topics: Path | None = None,
    paths: Path | None = None,
) -> bool:
    """Whether the built site was made by this policy from these decisions and library
    data (topics, pinned paths, meetup files)."""
    built = last_build(site_dir)
    return (
        built is not None
        and (site_dir / "public" / "index.html").is_file()
        and built.policy == policy
        and built.decisions == decisions_digest(inputs_dir)
        and built.library_data == library_digest(inputs_dir, topics, paths)
    )


def nav_title(text: str, lang: str) -> str:
    """A title of the navigation: typeset, and escaped, because MkDocs themes print nav
    titles as HTML (and page titles come from them)."""
    return html.escape(typeset_plain(text, lang))


def site_nav(h: Holdings, lang: str) -> list[dict]:
    """The navigation in one language: the site's sections and the lists of the talks'
    pages, never a talk's page itself (so its size does not grow with the library, and a
    talk's new title changes no page but those that list it); paths as the default
    language names them (static-i18n finds each language's file)."""
    names = NAV if lang == "zh" else {zh: NAV_EN[zh] for zh in NAV}
    names = {zh: html.escape(name) for zh, name in names.items()}
    nav = [{names["首页"]: "index.md"}]
    if h.shelves:
        topics = [
            {html.escape(t.name(lang)): page_path("topics", t.id, "zh")} for t, _ in h.shelves
        ]
        nav.append({names["主题"]: topics})
    if hubs := h.library.hubs:
        nav.append(
            {
                names["活动"]: [
                    {nav_title(b.name, lang): page_path("hubs", b.id, "zh")} for b in hubs
                ]
            }
        )
    if h.talks:
        nav.append({names["文章"]: list_path("articles", "zh")})
        nav.append({names["问答"]: list_path("qa", "zh")})
    if h.library.glossary:
        nav.append({names["术语"]: page_path("glossary", "index", "zh")})
    if h.talks:
        nav.append({names["校对"]: list_path("proof", "zh")})
    return [*nav, {names["关于本站"]: "about.md"}]


def mkdocs_config(h: Holdings, site_url: str | None) -> dict:
    return {
        "site_name": "talk2article",
        "site_description": "Technical talks turned into cited bilingual articles.",
        **({"site_url": site_url} if site_url else {}),
        "docs_dir": "docs",
        "site_dir": "public",
        "strict": True,
        "theme": {
            "name": "material",
            "custom_dir": THEME_OVERRIDES,
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
                            "nav": site_nav(h, "en"),
                        },
                    ],
                }
            },
        ],
        "nav": site_nav(h, "zh"),
    }


def library_pages(h: Holdings, lang: str) -> dict[str, str]:
    """docs/ path -> Markdown of the topics (their reading paths), hubs and glossary."""
    pages = {page_path("topics", t.id, lang): topic_page(t, h, lang) for t, _ in h.shelves}
    pages |= {page_path("hubs", b.id, lang): hub_page(b, h, lang) for b in h.library.hubs}
    if h.library.glossary:
        pages[page_path("glossary", "index", lang)] = glossary_index(h, lang)
        for entry in h.library.glossary:
            pages[page_path("glossary", entry.id, lang)] = glossary_page(entry, h, lang)
    return pages


def talk_pages(talk: PublishedTalk, h: Holdings, lang: str) -> dict[str, str]:
    """docs/ path -> Markdown of a talk's article (with its path note) and Q&A."""
    page = page_path("articles", talk.slug, lang)
    found = h.library.note_of(talk.slug)
    note = note_text(found[1], found[0], h, lang, page) if found else None
    pages = {page: article_page(talk, lang, h.library.glossary, note)}
    if talk.questions:
        pages[page_path("qa", talk.slug, lang)] = qa_page(talk, lang)
    return pages


def site_pages(h: Holdings) -> dict[str, str]:
    """The site's pages: docs/ path -> Markdown."""
    pages = {"about.md": about_page("zh"), "about.en.md": about_page("en")}
    for lang in ("zh", "en"):
        pages["index.md" if lang == "zh" else "index.en.md"] = index_page(h, lang)
        pages |= library_pages(h, lang)
        for talk in h.talks:
            pages |= talk_pages(talk, h, lang)
        if h.talks:
            pages[list_path("articles", lang)] = list_page("articles", h.talks, lang)
            answered = [t for t in h.talks if t.questions]
            pages[list_path("qa", lang)] = list_page("qa", answered, lang)
    if h.talks:
        pages[list_path("proof", "zh")] = list_page("proof", h.talks, "zh")
    for talk in h.talks:
        pages[page_path("proof", talk.slug, "zh")] = proof_page(talk)
    return pages


def site_files(h: Holdings) -> dict[str, Path]:
    """The site's other files: docs/ path -> where it is copied from."""
    files = {STYLESHEET: Path(__file__).with_name("pictures.css")}
    return files | {k: v for t in h.talks for k, v in t.pictures().items()}


def write_site(
    outputs_dir: Path,
    site_dir: Path,
    inputs_dir: Path,
    policy: Policy = "recommended",
    site_url: str | None = None,
    topics: Path | None = None,
    paths: Path | None = None,
) -> SiteBuild:
    """The MkDocs project for every talk under `outputs_dir` the policy publishes, by the
    decisions in the talk folders under `inputs_dir`, under the topics of the list
    `topics` and the pinned paths of `paths` (default: the shipped ones)."""
    digest = decisions_digest(inputs_dir)
    talks, left_out = published_talks(outputs_dir, inputs_dir, policy, skip=site_dir)
    h = build_library(talks, inputs_dir, topics, paths)
    site_dir.mkdir(parents=True, exist_ok=True)
    changed = update_docs(site_dir / "docs", site_pages(h), site_files(h))
    config = yaml.safe_dump(mkdocs_config(h, site_url), allow_unicode=True, sort_keys=False)
    atomic_write_text(site_dir / "mkdocs.yml", config)
    theme = Path(__file__).with_name(THEME_OVERRIDES)
    shutil.copytree(theme, site_dir / THEME_OVERRIDES, dirs_exist_ok=True)
    return SiteBuild(
        site=str(site_dir),
        policy=policy,
        decisions=digest,
        articles=[t.slug for t in talks],
        topics={t.slug: topic.id for topic, shelved in h.shelves for t in shelved},
        library_data=library_digest(inputs_dir, topics, paths),
        library=h.library,
        left_out=left_out,
        warnings=troubles(talks),
        changed=changed,
    )


def troubles(talks: list[PublishedTalk]) -> list[str]:
    """What a maintainer should know of the published talks: a last run that failed (the
    articles of the one before stay), a decisions.yaml that cannot be read."""
    found = [
        f"{t.slug}: {failure_line(t.failure)}; its articles before stay" for t in talks if t.failure
    ]
    return found + [f"{t.slug}: {t.decisions_problem}" for t in talks if t.decisions_problem]


def build_site(
    outputs_dir: Path,
    site_dir: Path,
    inputs_dir: Path,
    policy: Policy = "recommended",
    site_url: str | None = None,
    topics: Path | None = None,
    paths: Path | None = None,
) -> SiteBuild:
    """Write the MkDocs project and build it strictly into `site_dir`/public (only the
    changed pages when the project is the last build's); site.json records what was
    published. A failed build leaves no site.json, so the next one builds the site whole."""
    last = site_dir / "site.json"
    before = last_build(site_dir)
    written = write_site(outputs_dir, site_dir, inputs_dir, policy, site_url, topics, paths)
    key = project_key(site_dir, THEME_OVERRIDES)
    gone = [p for p in written.changed if not (site_dir / "docs" / p).exists()]
    dirty = bool(before and before.project == key and not gone)
    last.unlink(missing_ok=True)
    run_mkdocs(site_dir, dirty=dirty)
    built = written.model_copy(update={"public": str(site_dir / "public"), "project": key})
    atomic_write_text(last, built.model_dump_json(indent=2))
    return built
