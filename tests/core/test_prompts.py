import pytest

from pipeline.core.prompts import PromptError, load_prompt

SHIPPED = [
    "outline",
    "outline_heading",
    "ask_question_en",
    "ask_question_zh",
    "rewrite_facts_en",
    "rewrite_facts_zh",
    "translate_sentences_en",
    "translate_sentences_zh",
    "punctuate_zh",
]


def test_every_shipped_prompt_is_tested():
    from importlib.resources import files

    assert sorted(
        p.name[:-5] for p in files("prompts").iterdir() if p.name.endswith(".yaml")
    ) == sorted(SHIPPED)


@pytest.mark.parametrize("prompt_id", SHIPPED)
def test_shipped_prompts_load_with_a_hash(prompt_id):
    prompt = load_prompt(prompt_id)
    assert len(prompt.sha256) == 64 and prompt.variables()


def test_missing_and_unexpected_variables_are_errors():
    prompt = load_prompt("translate_sentences_zh")
    with pytest.raises(PromptError, match="missing"):
        prompt.render(item="x")
    with pytest.raises(PromptError, match="unexpected"):
        prompt.render(item="x", terms="-", glossary="-", revise="", extra="y")


def test_render_fills_every_placeholder():
    rendered = load_prompt("translate_sentences_zh").render(
        item="KV cache paging", terms="KV cache", glossary="-", revise=""
    )
    assert "{{" not in rendered.system + rendered.user
    assert "KV cache paging" in rendered.user
    assert [m["role"] for m in rendered.messages()] == ["system", "user"]


def test_prompt_file_must_match_its_id(tmp_path):
    (tmp_path / "a.yaml").write_text("id: b\nsystem: s\nuser: u\n")
    with pytest.raises(PromptError, match="does not match"):
        load_prompt("a", tmp_path)


def test_a_prompts_folder_in_settings_overrides_the_shipped_one(tmp_path):
    (tmp_path / "outline.yaml").write_text("id: outline\nsystem: s\nuser: '{{ x }}'\n")
    assert load_prompt("outline", tmp_path).variables() == {"x"}
    assert load_prompt("outline").sha256 != load_prompt("outline", tmp_path).sha256


def test_a_line_whose_placeholders_are_all_empty_is_left_out():
    prompt = load_prompt("translate_sentences_zh")
    named = prompt.render(
        item="PagedAttention pages the cache.", terms="PagedAttention", glossary="", revise=""
    )
    assert "保留英文原文：PagedAttention\n" in named.user and "译法" not in named.user
    bare = prompt.render(item="The cache is paged.", terms="", glossary="", revise="")
    assert bare.user.splitlines()[:2] == ["把下面这一句翻译成简体中文：", "The cache is paged."]
