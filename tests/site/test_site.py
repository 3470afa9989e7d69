import datetime as dt
import re

from pipeline.site import build_site, site_is_current, write_site
from tests.library.shelf import BASICS, PREFIX, ROUTER, SWAP, SWAPPING, shelve
from tests.site.published import EN, QUESTIONS, VIDEO, ZH, ZH_UNTRANSLATED, publish


def test_the_site_builds_strictly_with_cards_articles_slides_and_review_cards(tmp_path):
    outputs = tmp_path / "outputs"
    publish(outputs, "examples/paging", "分页：按需分配的 KV 缓存", dt.date(2026, 10, 1))
    publish(outputs, "older", "旧的演讲", dt.date(2025, 1, 1))
    publish(outputs, "broken", "失败的演讲", dt.date(2026, 11, 1), status="failed")
    publish(outputs, ".benchmarks/x", "基准", dt.date(2026, 11, 1))  # hidden: not a talk
    built = build_site(outputs, outputs / "site", tmp_path / "inputs")
    assert built.articles == ["examples/paging", "older"]  # latest first; failed left out
    assert built.left_out == ["broken: its last run is failed"]
    public = outputs / "site" / "public"
    index = (public / "index.html").read_text()
    assert "KV CACHE · MEMORY" in index and "从显存浪费出发，拆解分页。" in index
    assert index.index("分页：按需分配的 KV 缓存") < index.index("旧的演讲")
    article = (public / "articles/examples/paging/index.html").read_text()
    assert f'href="{VIDEO}&amp;t=65"' in article  # [01:05] opens the video at that second
    assert "slide-002.jpg" in article and (public / "assets/examples/paging/slide-002.jpg").exists()
    assert "审稿卡 · " in article and "文章讲" in article
    english = (public / "en/articles/examples/paging/index.html").read_text()
    assert "Paging the KV cache" in english and "Blocks on demand" in english
    assert "Speaker: Ada" in english
    assert "Review card · " in english and "The article covers" in english  # its own card
    assert "文章讲" not in english and "The article covers" not in article
    nav_titles = re.findall(
        r'md-nav__link[^>]*>\s*<span class="md-ellipsis">\s*([^<]+?)\s*<', english
    )
    assert "Articles" in nav_titles and "文章" not in nav_titles
    assert "Paging the KV cache" not in nav_titles  # the nav lists sections, not talks
    listed = (public / "en/articles/index.html").read_text()
    assert "Paging the KV cache" in listed and "分页：按需分配的 KV 缓存" not in listed
    proof = (public / "proof/examples/paging/index.html").read_text()
    assert "按需分块" in proof and "Blocks on demand" in proof
    # each sentence's id, what was said, how the article wrote it and a command to edit it
    said, written = proof.index("So um reserving"), proof.rindex("wastes 60 to 80 percent of")
    assert proof.index("<code>f-0</code>") < said < written
    assert "talk2article edit inputs/examples/paging f-0 --zh" in proof
    # speech with a word recognition may have misheard: left out, the word highlighted
    assert "可能听错的词" in proof and "52.3k <mark>Potokans</mark> per second" in proof
    assert (public / "about/index.html").exists() and (public / "en/about/index.html").exists()
    assert "search/search_index.json" in str(list(public.rglob("search_index.json"))[0])


def test_an_empty_outputs_folder_is_a_site_with_no_articles(tmp_path):
    written = write_site(tmp_path, tmp_path / "site", tmp_path / "inputs")
    assert written.articles == [] and (tmp_path / "site" / "docs" / "index.md").exists()


def approve(outputs, inputs, slug: str, kind: str = "approved") -> None:
    from pipeline.library.talks import load_talk
    from pipeline.review.decisions import decide, record_decision

    talk = load_talk(outputs / slug, slug, inputs)
    (inputs / slug).mkdir(parents=True, exist_ok=True)
    record_decision(inputs / slug, decide(talk.draft, talk.review.card.verdict, kind, "Ada"))


def test_the_site_publishes_what_reviewers_and_the_policy_allow(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    publish(outputs, "recommended", "推荐的演讲", dt.date(2026, 5, 1))
    publish(outputs, "revise", "待修改的演讲", dt.date(2026, 4, 1), zh=ZH_UNTRANSLATED)
    publish(outputs, "approved", "批准的演讲", dt.date(2026, 3, 1), zh=ZH_UNTRANSLATED)
    publish(outputs, "rejected", "驳回的演讲", dt.date(2026, 2, 1))
    approve(outputs, inputs, "approved")
    approve(outputs, inputs, "rejected", "rejected")
    built = build_site(outputs, outputs / "site", inputs)
    assert built.articles == ["recommended", "approved"]
    assert built.left_out == [
        "revise: automatic verdict 需修改: awaiting a reviewer",
        f"rejected: rejected by Ada on {dt.datetime.now(dt.UTC).date()}",
    ]
    public = outputs / "site" / "public"
    approved = (public / "articles/approved/index.html").read_text()
    assert "人工审阅 · 已批准" in approved and "Ada 于" in approved
    assert (
        "Reviewed and approved by Ada" in (public / "en/articles/approved/index.html").read_text()
    )
    waiting = (public / "articles/recommended/index.html").read_text()
    assert "人工审阅 · 待审阅" in waiting and "推荐收录" in waiting
    english = (public / "en/articles/recommended/index.html").read_text()
    assert "No person has reviewed this article yet" in english and "Recommended" in english
    proof = (public / "proof/approved/index.html").read_text()
    assert "人工审阅 · 已批准" in proof
    # the card links each finding to its paragraph on the proofreading page
    assert 'href="../../proof/approved/#p-1-2">中文第 1 章第 2 段</a>' in approved
    assert 'id="p-1-2"' in proof and 'id="c-1"' in proof
    assert (
        ">Chinese chapter 1, paragraph 2</a>"
        in (public / "en/articles/approved/index.html").read_text()
    )
    assert site_is_current(outputs / "site", inputs, "recommended")
    assert not site_is_current(outputs / "site", inputs, "approved")

    preview = build_site(outputs, outputs / "site" / "preview", inputs, "preview")
    assert preview.articles == ["recommended", "revise", "approved"]  # never a rejected one
    assert build_site(outputs, outputs / "site", inputs, "approved").articles == ["approved"]


def test_an_approved_article_whose_text_changes_is_not_published_as_approved(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    publish(outputs, "talk", "分页", dt.date(2026, 5, 1))
    approve(outputs, inputs, "talk")
    site = outputs / "site"
    build_site(outputs, site, inputs)
    assert "已批准" in (site / "public/articles/talk/index.html").read_text()
    publish(outputs, "talk", "分页：新版", dt.date(2026, 5, 1))  # a rerun changed the title
    assert site_is_current(site, inputs, "recommended")  # no decision changed
    build_site(outputs, site, inputs)
    page = (site / "public/articles/talk/index.html").read_text()
    assert "已批准" not in page and "待重新审阅" in page  # still 推荐收录: published, asked again
    publish(outputs, "talk", "分页：再版", dt.date(2026, 5, 1), zh=ZH_UNTRANSLATED)
    assert build_site(outputs, site, inputs).left_out == [
        "talk: automatic verdict 需修改: awaiting a reviewer again (its text changed since the "
        "last decision)"
    ]
    approve(outputs, inputs, "talk")
    assert not site_is_current(site, inputs, "recommended")  # a new decision: rebuild
    assert build_site(outputs, site, inputs).articles == ["talk"]


def test_articles_are_listed_under_their_topics(tmp_path):
    outputs, site = tmp_path / "outputs", tmp_path / "outputs" / "site"
    publish(outputs, "paging", "分页：按需分配的 KV 缓存", dt.date(2026, 10, 1))
    publish(outputs, "kernels", "算子里的分页", dt.date(2026, 9, 1), topic="kernels")
    built = build_site(outputs, site, tmp_path / "inputs")
    # the paging talk by its own words (KV cache, PagedAttention); the other by its talk.yaml
    assert built.topics == {"paging": "memory", "kernels": "kernels"}
    public = site / "public"
    index = (public / "index.html").read_text()
    assert "主题" in index and "KV cache 与显存" in index and "（1 篇）" in index
    assert index.index("KV cache 与显存") < index.index("算子、编译与量化")  # the list's order
    assert "推理框架与生态" not in index  # no article: not listed
    assert (public / "topics/memory/index.html").is_file()
    memory = (site / "docs/topics/memory.md").read_text()  # the page's own text, not its nav
    assert "分页：按需分配的 KV 缓存" in memory and "算子里的分页" not in memory
    assert "分页、复用、卸载与分层存储" in memory  # its scope
    english = (public / "en/topics/memory/index.html").read_text()
    assert "KV cache and memory" in english and 'href="../../articles/paging/"' in english
    assert "Topics" in (public / "en/index.html").read_text()
    assert site_is_current(site, tmp_path / "inputs", "recommended")
    mine = tmp_path / "topics.yaml"
    mine.write_text("- {id: all, zh: 全部, en: All, scope_zh: 全部。, scope_en: All.}\n")
    assert not site_is_current(site, tmp_path / "inputs", "recommended", mine)  # a new list


def test_an_article_with_a_companion_links_its_questions_and_answers(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    publish(outputs, "paging", "分页", dt.date(2026, 10, 1), questions=True)
    publish(outputs, "plain", "不分页", dt.date(2026, 9, 1))
    build_site(outputs, outputs / "site", inputs)
    public = outputs / "site" / "public"
    for lang, prefix in (("zh", ""), ("en", "en/")):
        question = QUESTIONS[lang]
        qa = (public / f"{prefix}qa/paging/index.html").read_text()
        assert question in qa and 'href="https://www.youtube.com/watch?v=abc&amp;t=65"' in qa
        assert qa.count("<h2") == 1
        article = (public / f"{prefix}articles/paging/index.html").read_text()
        index = (public / f"{prefix}index.html").read_text()
        assert 'href="../../qa/paging/"' in article and 'href="qa/paging/"' in index
    assert not (public / "qa/plain").exists()


def test_the_qa_page_answers_with_the_reviewers_edit_and_without_a_left_out_sentence(tmp_path):
    from pipeline.library.talks import load_talk
    from pipeline.site.pages import qa_page

    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"

    def answered(slug: str, lang: str, **talk) -> str:
        publish(outputs, slug, "分页", dt.date(2026, 10, 1), questions=True, **talk)
        page = qa_page(load_talk(outputs / slug, slug, inputs), lang)
        return page[page.index("## ") :]  # the question and its answer

    assert EN[0][0] in answered("plain", "en") and ZH[1][0] in answered("plain", "zh")
    fixed = (
        "预留最大长度会浪费七成以上的显存。",
        "Reserving the longest length wastes most memory.",
    )
    edited = {"edits": {"f-0": fixed}, "dropped": ("f-1",)}
    en, zh = answered("edited", "en", **edited), answered("edited", "zh", **edited)
    assert fixed[1] in en and EN[0][0] not in en and EN[1][0] not in en
    assert fixed[0] in zh and ZH[0][0] not in zh and ZH[1][0] not in zh
    en = answered("failed", "en", left_out=("f-1",))  # its Chinese failed twice
    assert EN[0][0] in en and EN[1][0] not in en
    publish(outputs, "gone", "分页", dt.date(2026, 10, 1), questions=True, dropped=("f-0", "f-1"))
    assert load_talk(outputs / "gone", "gone", inputs).questions is None  # no Q&A page


def test_a_companion_of_an_earlier_draft_is_not_shown(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    folder = publish(outputs, "paging", "分页", dt.date(2026, 10, 1), questions=True)
    publish(outputs, "paging", "分页：重写后", dt.date(2026, 10, 1))  # the draft changed
    assert (folder / "questions.json").is_file()
    build_site(outputs, outputs / "site", inputs)
    assert not (outputs / "site" / "public" / "qa" / "paging").exists()
    assert "分页" not in (outputs / "site" / "public" / "qa" / "index.html").read_text()


def test_a_topic_is_a_reading_path_with_notes_and_terms_link_to_the_glossary(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    shelve(outputs, inputs)
    site = outputs / "site"
    built = build_site(outputs, site, inputs, policy="preview")
    assert built.library.paths[0].talks == [BASICS, PREFIX, ROUTER] and not built.library.dropped
    public = site / "public"
    path = (site / "docs/topics/memory.md").read_text()  # the page's own text, not its nav
    # cards in reading order, each with its note instead of the summary
    assert path.index("分页的基础") < path.index("共享前缀") < path.index("按缓存路由")
    assert (
        "路径中的进阶篇（第 2 篇，共 3 篇）" in path and "讲解了 KV cache、PagedAttention" in path
    )
    assert "从显存浪费出发" not in path and (public / "topics/memory/index.html").is_file()
    english = (public / "en/topics/memory/index.html").read_text()
    assert "(it explains KV cache and PagedAttention) first" in english
    article = (public / "articles/lmsys/prefix/index.html").read_text()
    assert 'href="../../../glossary/prefix-caching/"' in article  # its first mention of 前缀缓存
    written = (site / "docs/articles/lmsys/prefix.md").read_text()
    assert written.count("(../../glossary/pagedattention.md)") == 1  # the first mention only
    term = (public / "en/glossary/pagedattention/index.html").read_text()
    assert "PagedAttention splits the KV cache into blocks of 16 tokens." in term
    assert "Routing by cache" in term  # a user
    assert "前缀缓存复用共享提示" in (public / "glossary/prefix-caching/index.html").read_text()
    assert (public / "hubs/lmsys/index.html").is_file()
    hub = (site / "docs/hubs/lmsys.md").read_text()
    assert "LMSYS meetup" in hub and "Mountain View" in hub and "按缓存路由" not in hub
    assert "这两场报告都讲到 KV cache、PagedAttention" in hub
    index = (public / "index.html").read_text()
    assert 'href="hubs/lmsys/"' in index and 'href="glossary/"' in index
    assert site_is_current(site, inputs, "preview")
    (inputs / "lmsys" / "meetup.yaml").write_text("name: LMSYS meetup 1\n")
    assert not site_is_current(site, inputs, "preview")  # a changed meetup file rebuilds it


def test_a_path_note_says_which_article_to_read_beside_and_what_differs(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    shelve(outputs, inputs, swap=True)
    site = outputs / "site"
    build_site(outputs, site, inputs, policy="preview")
    path = (site / "docs/topics/memory.md").read_text()
    assert "可与《[分页的基础]" in path
    assert "两文都讲解了 PagedAttention；本文还讲解了 swapping，后者则讲解了 KV cache。" in path
    english = (site / "docs/topics/memory.en.md").read_text()
    assert (
        "both explain PagedAttention; this one also explains swapping, that one KV cache."
        in english
    )


def test_a_new_talk_changes_only_the_pages_that_mention_it(tmp_path):
    outputs, inputs = tmp_path / "outputs", tmp_path / "inputs"
    shelve(outputs, inputs)
    site = outputs / "site"
    first = build_site(outputs, site, inputs, policy="preview")
    assert "articles/lmsys/basics.md" in first.changed  # all new
    publish(outputs, SWAP, topic="decoding", **SWAPPING)  # another topic
    changed = build_site(outputs, site, inputs, policy="preview").changed
    assert {"articles/later/swap.md", "articles/later/swap.en.md", "topics/decoding.md"} <= set(
        changed
    )
    assert "index.md" in changed and "glossary/pagedattention.md" in changed  # a new user
    assert not [p for p in changed if p.startswith(("articles/lmsys", "topics/memory"))]
    assert build_site(outputs, site, inputs, policy="preview").changed == []


def test_a_fact_left_out_is_listed_for_reviewers_with_a_command_that_puts_it_back(tmp_path):
    from pipeline.library.talks import load_talk
    from pipeline.site.proof import proof_page

    outputs = tmp_path / "outputs"
    publish(outputs, "paging", "分页", dt.date(2026, 10, 1), left_out=("f-0",))
    talk = load_talk(outputs / "paging", "paging", tmp_path / "inputs")
    article = " ".join(p.text for s in talk.draft.zh.sections for p in s.paragraphs)
    said = talk.ledger.by_id()["f-0"]
    assert (
        said.zh.text not in article
        and said.en.text not in talk.draft.en.sections[0].paragraphs[0].text
    )
    page = proof_page(talk)
    listed = page[page.index("## 没有写进文章的事实") :]
    assert "`f-0`" in listed and "未通过：数字与出处不符（lost: 60）" in listed
    assert "模型的回答：" in listed  # the answer a reviewer reads, never the article
    source = talk.ledger.sources[0].text
    assert f"talk2article edit inputs/paging f-0 --en '{source}' --by NAME" in listed
    assert "`f-0`" not in page[: page.index("## 没有写进文章的事实")]


def test_the_proofreading_page_puts_first_the_sentences_a_reader_would_mark(tmp_path):
    from pipeline.library.talks import load_talk
    from pipeline.site.proof import proof_page

    outputs = tmp_path / "outputs"
    publish(outputs, "paging", "分页", dt.date(2026, 10, 1))
    talk = load_talk(outputs / "paging", "paging", tmp_path / "inputs")
    talk.ledger.by_id()["f-0"].en.calls = 2  # its rewrite passed on the second answer
    page = proof_page(talk)
    first = page[page.index("## 先读这些句子") : page.index("`f-0` · ")]
    assert "[`f-0`](#p-1-1)：模型第二次回答才通过检查" in first and "`f-1`" not in first
    assert "⚑ 先读：模型第二次回答才通过检查" in page[page.index("`f-0` · ") :]
