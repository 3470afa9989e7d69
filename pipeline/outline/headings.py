"""A chapter's heading: the checks a heading must pass (not a slide fragment, not the
prompt, the right language, not a role's or the speaker's name, nothing its chapter does
not state), a slide title as a heading (its series label and aside left out), and the
heading a chapter is given when the planned one cannot stand.
"""

import re
from collections.abc import Callable
from functools import partial

from pydantic import BaseModel, Field

from pipeline.core.checks import composed_checks
from pipeline.core.grounding import (
    is_echo,
    is_fragment,
    prompt_lines,
    support,
    wrong_language_sentences,
)
from pipeline.core.prompts import Prompt
from pipeline.core.text import LANGUAGE_NAMES, estimate_tokens, has_cjk, term_pattern
from pipeline.llm.client import LLM
from pipeline.llm.rounds import Job, written
from pipeline.notes import what_it_states
from pipeline.schema import Evidence, Section, SentenceCheck

MAX_TITLE_TOKENS = 16  # about 12 English words or 16 Chinese characters


# A heading's length in a reply: the grammar the server is given stops the model there, so
# a heading this long was cut ("… Prefix Caching, and Continu").
MAX_HEADING_CHARS = 80


# The notes listing is cut to this, whatever the talk's length (a 60-minute talk has ~60
# sections), so the prompt stays far inside the context window.
LISTING_TOKENS = 2400


ROLE_TITLES = {
    "en": {
        "problem": "The problem",
        "cause": "Why existing approaches fall short",
        "mechanism": "How it works",
        "results": "Results",
        "limits": "Limits",
        "overview": "Overview",
    },
    "zh": {
        "problem": "问题",
        "cause": "现有方法为何不够",
        "mechanism": "机制",
        "results": "结果",
        "limits": "局限",
        "overview": "概述",
    },
}


def clip(text: str, tokens: int) -> str:
    estimated = estimate_tokens(text)
    if estimated <= tokens:
        return text
    return text[: max(int(len(text) * tokens / estimated), 1)].rstrip() + "…"


def in_language(text: str, language: str) -> bool:
    """Chinese is Chinese prose (names inside it are fine), not an English sentence with
    one Chinese word ("Huggingface的TGI, sGLang, and LMDeploy are now open-source.")."""
    if language == "zh" and not has_cjk(text):
        return False
    return not wrong_language_sentences(text, language)


# A heading that ends as a sentence does, or runs on after a Chinese comma, is a sentence
# (an English comma may list: "Prefill, decode and the KV cache").
SENTENCE_END = re.compile(r"[。！？.!?]$|[，；]\s*\S")


# A slide title's series label ("Technique2: …", "2025 Highlight: …", "Part 3: …", "第二讲：…")
# and closing aside ("… (Lower is Better)") belong to the deck's layout, not to a heading.
SERIES_WORDS = frozenset(
    {"part", "chapter", "section", "step", "technique", "lesson", "lecture", "module"}
    | {"topic", "session", "highlight"}
)


LABEL = re.compile(r"^\s*([^:：]{1,32}?)\s*[:：]\s*(\S.*)$")


CHINESE_SERIES = re.compile(r"^第\s*[\d一二三四五六七八九十百]+\s*[章节讲课部分篇]")


ASIDE = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")


# The title of a deck's last slide, whatever the chapter under it says.
CLOSING = re.compile(
    r"q\s*&\s*a|questions?(?:\s*(?:&|and)\s*answers?)?|thanks?(?: you)?|谢谢|问答|答疑|致谢",
    re.IGNORECASE,
)


ARTICLE_TITLE = "the article's title"


# A role's name is what a chapter does in the causal chain, not what it is about: a small
# model heads chapters "Problem", "Mechanism", "Results" (twice) where the slides had
# "DeepSeek V3 Optimization" and "Large-Scale Deployment".
ROLE_WORDS = [w for names in ROLE_TITLES.values() for r, t in names.items() for w in (r, t)]


ROLE_WORDS += ["cause", "causes", "result", "limit", "solution", "background", "introduction"]


ROLE_WORDS += ["conclusion", "背景", "原因", "解决方案", "结论"]


ROLE_NAMES = frozenset(re.sub(r"[\W_]+", "", w.lower()) for w in ROLE_WORDS)


class TitleCheck:
    """Whether a heading can stand: not a cut slide line, not the prompt, right language."""

    def __init__(self, evidence: Evidence, prompt: Prompt, language: str) -> None:
        self.lines = evidence.lines()
        self.prompt_lines = prompt_lines([prompt])
        self.language = language
        self.article_titles: set[str] = set()  # a chapter's heading is not the article's
        self.speaker_words: set[str] = set()  # nor name the speaker

    def taking(self, *titles: str | None, speaker: str | None = None) -> "TitleCheck":
        """The check, from now on refusing the article's own title as a heading, and a
        heading that names the speaker, by any capitalised or Chinese word of the name
        ("Zhang" of "Ke Bao and Yineng Zhang", not "and"): such a heading is about the
        speaker, not what a chapter says."""
        self.article_titles |= {normal(t) for t in titles if t}
        names = re.sub(r"\(.*?\)|（.*?）", " ", speaker or "")  # "(narrated by …)" is no name
        words = re.findall(r"\w+", names)
        self.speaker_words |= {w for w in words if len(w) > 1 and (w[0].isupper() or has_cjk(w))}
        return self

    def problems(self, title: str) -> list[str]:
        found = []
        if is_fragment(title, self.lines):
            found.append("a fragment of a slide or sentence")
        if is_echo(title, self.prompt_lines):
            found.append("repeats the prompt")
        if not in_language(title, self.language):
            found.append(f"not in {LANGUAGE_NAMES[self.language]}")
        if len(title) >= MAX_HEADING_CHARS:
            found.append("cut off at the reply's length limit")
        if estimate_tokens(title) > MAX_TITLE_TOKENS:
            found.append("too long for a heading")  # a copied line of the notes listing
        if CLOSING.fullmatch(title.strip(" !.?！。？")):
            found.append("a closing slide's title")  # over the talk's last points
        if normal(title) in ROLE_NAMES:
            found.append("a role's name, not what the chapter is about")
        if any(term_pattern(word).search(title) for word in self.speaker_words):
            found.append("names the speaker, not what the chapter is about")
        if normal(title) in self.article_titles:
            found.append(ARTICLE_TITLE)  # names the whole talk, not one chapter
        if SENTENCE_END.search(title.strip()):
            found.append("a sentence, not a heading")
        return found


def normal(text: str) -> str:
    """Lower case, without punctuation or spaces: a title said again is the same title."""
    return re.sub(r"[\W_]+", "", text.lower())


def is_series_label(label: str) -> bool:
    """A series word and a number ("Technique2", "2025 Highlight", "Part 3"); "Llama3" is a
    name, not a label."""
    if CHINESE_SERIES.match(label):
        return True
    words = re.findall(r"[A-Za-z]+", label.lower())
    has_number = bool(re.search(r"\d", label))
    return has_number and any(w.rstrip("s") in SERIES_WORDS for w in words)


def heading_of(title: str) -> str:
    """A slide title as a heading: its series label and closing aside left out, when what
    remains still names something."""
    title = ASIDE.sub("", title).strip() or title
    label = LABEL.match(title)
    if label and is_series_label(label[1]) and len(label[2].strip()) >= 4:
        return label[2].strip()
    return title


def ungrounded(text: str, said: str, language: str) -> list[SentenceCheck]:
    """What a heading or summary adds to what it stands over, or where it is off in
    language or voice (pipeline.core.checks.composed_checks, the ledger's own check)."""
    if not said.strip():
        return []  # nothing to judge by
    return [c for c in composed_checks(text, said, language) if not c.passed]


def chapter_title(
    title: str,
    sections: list[Section],
    role,
    check: TitleCheck,
    named: Callable[[list[Section]], str | None] = lambda _: None,
    taken: frozenset[str] = frozenset(),
) -> str | None:
    """A whole slide title of the chapter (a heading the speaker chose for what it holds)
    if one can stand; else the model's heading if it can and names only what its chapter
    says (a model planning the whole talk at once may give a chapter its neighbour's
    heading), or a heading `named` for the chapter alone; None when nothing fits (the
    chapter then joins the one before: "Part 4", "Mechanism" and a bare pair of names
    head nothing a writer would print). No heading of `taken` (an earlier chapter's, in
    normal()'s form) heads a second one."""

    def free(heading: str | None) -> bool:
        return bool(heading) and normal(heading) not in taken

    for candidate in [*(s.title for s in sections if s.title), title.strip()]:
        shorter = heading_of(candidate)  # a heading of its own, unless that reads as a cut
        found = check.problems(shorter)
        if ARTICLE_TITLE in found:  # "Technique2: <the talk's title>" names the whole talk
            continue
        chosen = shorter if not found else None if check.problems(candidate) else candidate
        if free(chosen) and not ungrounded(chosen, what_it_states(sections), check.language):
            return chosen
    if free(heading := named(sections)):
        return heading
    return None


class HeadingReply(BaseModel):
    title: str = Field(min_length=2, max_length=MAX_HEADING_CHARS)

    @property
    def text(self) -> str:
        return self.title


HEADING_SIZES = {"zh": "4 to 14 Chinese characters", "en": "2 to 8 words"}


HEADING_MAX_TOKENS = 60


# A heading named for one chapter says what its notes say: this share of its words at least.
HEADING_MIN_SUPPORT = 0.5


def heading_checks(heading: str, said: str, check: TitleCheck) -> list[SentenceCheck]:
    """A heading named from a chapter's notes: one that can stand (TitleCheck), adds
    nothing to the notes (ungrounded) and names what they say."""
    problems = check.problems(heading) if heading else ["no answer"]
    found = support(heading, said)
    return [
        SentenceCheck(check="heading", passed=not problems, detail="; ".join(problems)),
        *ungrounded(heading, said, check.language),
        SentenceCheck(
            check="meaning",
            passed=found >= HEADING_MIN_SUPPORT,
            detail=f"{found:.2f} of its words in the notes",
        ),
    ]


def heading_namer(
    llm: LLM, prompt: Prompt, title: str, check: TitleCheck
) -> Callable[[list[Section]], str | None]:
    """Names a chapter from its notes alone, when the plan's heading cannot stand: a small
    model planning a long talk at once heads chapters with a note copied whole; asked for
    one heading at a time it names the topic. A heading that fails its checks twice is
    none (pipeline.llm.rounds.written, as every sentence)."""
    language = check.language

    def named(sections: list[Section]) -> str | None:
        said = "\n".join(f.text for s in sections for f in s.facts)
        if not said:
            return None
        job = Job(
            id="heading",
            line=clip(said, LISTING_TOKENS // 4),
            check=partial(heading_checks, said=said, check=check),
            reply=HeadingReply,
            max_tokens=HEADING_MAX_TOKENS,
            values={
                "title": title,
                "language": LANGUAGE_NAMES[language],
                "size": HEADING_SIZES[language],
            },
        )
        heading = written([job], llm, prompt)["heading"]
        return None if heading.left_out else heading.text

    return named
