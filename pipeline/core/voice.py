"""The article's voice: a sentence states what the talk is about, never as its speaker
("I", "我们"), to its audience ("你们", a spoken opener), or about the talk, the article or
the deck ("The speaker said", "This article explores", "is shown in the slide")."""

import re

from pipeline.core.text import segmented
from pipeline.schema.checks import SentenceCheck

# The speaker speaking: the article speaks of the talk, never as its speaker.
FIRST_PERSON = {
    # a pronoun, not a letter of a compound ("I/O", "TCP/IP") nor the country ("US")
    "en": re.compile(
        r"(?<!/)\b(?!US\b)(?i:I|I'm|I've|I'll|me|my|we|we're|we've|we'll|us|our|ours)\b(?!/)"
    ),
    "zh": re.compile(r"我们|咱们|我"),
}
# Spoken Chinese, word by word (jieba): the audience addressed, or a clause opened by a
# spoken discourse marker; a written sentence has neither ("迷你" is no 你).
ADDRESS_ZH = frozenset({"你", "你们", "大家", "各位"})
OPENERS_ZH = frozenset({"然后", "所以说", "其实", "就是说", "感谢", "谢谢"})  # and thanks
FILLERS_ZH = frozenset({"嗯", "呃", "对吧"})  # spoken wherever they stand
CLAUSE_ENDS = frozenset("，,。；;：:！？")


def spoken_zh(text: str) -> list[str]:
    """The words of `text` that speak to the audience or open a clause as speech does."""
    words = segmented(text)
    opening = [w for n, w in enumerate(words) if n == 0 or words[n - 1] in CLAUSE_ENDS]
    said = [w for w in words if w in ADDRESS_ZH or w in FILLERS_ZH]
    return said + [w for w in opening if w in OPENERS_ZH]


# The deck as the subject: the article states what a slide says, never that a slide says it.
THE_DECK = {"en": re.compile(r"\bslides?\b", re.IGNORECASE), "zh": re.compile("幻灯片")}
# The talk as the subject: a sentence whose subject is the talk, its speaker or the article
# itself and whose verb is one of saying or showing ("The speaker said", "This talk covers",
# "This article explores", "讲者指出", "本文拆解") is about the talk or the text, not about
# what they are about. The verb is what tells: "The session is closed", "The speaker
# embeddings are clustered" and 说话人识别模型 are technical subjects.
REPORTING = (
    r"(?:says|said|states|stated|shows|showed|explains|explained|notes that|noted|describes|"
    r"described|discusses|discussed|presents|presented|demonstrates|demonstrated|compares|compared|"
    r"introduces|introduced|mentions|mentioned|argues|argued|highlights|highlighted|"
    r"covers|covered|walks|walked|talks|talked|points out|pointed out|will|would|also|then|"
    r"is about|was about|focuses on|focused on|looks at|looked at|goes through|went through|"
    r"begins|began|starts|started|ends|ended|concludes|concluded|explores|explored|examines|"
    r"examined|takes apart|took apart|reviews|reviewed|outlines|outlined)"
)
ROLE = (
    r"(?:speakers?|presenters?|(?:this|today['’]s|our)\s+(?:talk|presentation|lecture|session)s?"
    r"|(?:this|the)\s+(?:article|post|piece))"
)
THE_TALK = {
    "en": re.compile(
        rf"^(?:[^,.;]{{0,40}},\s*)?(?:the\s+|this\s+|our\s+)?{ROLE}\s+{REPORTING}\b"
        rf"|\b(?:according to|as)\s+(?:the\s+)?{ROLE}\b"
        r"|^(?:[^,.;]{0,40},\s*)?(?:the\s+)?(?:speakers|presenters)\s+(?:say|show|explain|compare|discuss|present|"
        r"describe|note|argue|mention|introduce|highlight|cover)\b"
        r"|^(?:in|during)\s+(?:this|today['’]s|our)\s+(?:talk|presentation|lecture|session)\b",
        re.IGNORECASE,
    ),
    "zh": re.compile(
        r"(?:演讲者|主讲人|讲者|说话人|(?:本次|这次|这场|本)(?:讲座|演讲|分享)|本文|(?:这|本)篇文章)"
        r"(?:首先|也|还|又|则|所|自己)?(?:指出|认为|表示|提到|介绍|说|讲到|展示|讨论|比较|强调|解释|"
        r"演示|分享了|谈到|总结|回顾|探讨|拆解|分析|阐述|讲述|聚焦|依次讲)"
    ),
}


# Words a speaker opens an English sentence with that say nothing in writing: "So, ...",
# "Okay", "Well, the ...", "And so we ..." (a comma or a word that opens a clause follows;
# "So many", "So far", "Well known" and "and so on" are content). No sentence of the
# article opens with one, and a spoken source is given to the model without it.
DISCOURSE_OPENER_EN = (
    r"(?:(?:and\s+)?so|okay|ok|well|alright|anyway)(?:\s*,|\s+(?=(?:the|a|an|this|these|that|"
    r"those|it|its|we|i|you|they|there|here|now|if|when|what|only|our|my|each|every|all)\b))"
)
# An English sentence opened as speech opens one ("So, ...", "Okay", "Here is an example",
# "Let's look at", "Thanks to ..."): of the 459 English sentences of the readings
# (benchmarks/readings, 2026-12-06) all 7 so opened were marked edit.
SPOKEN_OPENER_EN = re.compile(
    rf"^\W*(?:{DISCOURSE_OPENER_EN}|here(?:'s| is| are)\b|let(?:'s| us)\b"
    r"|as you can see\b|thanks?(?: you)?\b)",
    re.IGNORECASE,
)
LEADING_MARKERS_EN = re.compile(rf"^(?:\W*{DISCOURSE_OPENER_EN}\s*)+", re.IGNORECASE)


def without_opener(said: str) -> str:
    """A spoken English sentence without the discourse markers it opens with ("So, okay,
    the cache ..." is "the cache ...")."""
    return LEADING_MARKERS_EN.sub("", said) or said


def voice_check(text: str, lang: str, source: str = "") -> SentenceCheck:
    """The article's voice: not the speaker's ("I", "我们"), not spoken ("So, ...", "然后"),
    not about the talk ("The speaker said", "This talk covers"), and not a narrator of the
    deck ("is discussed in the slide") where its source does not speak of a slide."""
    said = FIRST_PERSON[lang].findall(text) + [m.group() for m in THE_TALK[lang].finditer(text)]
    if lang == "zh":
        said += spoken_zh(text)
    else:
        said += [m.group().strip(" ,") for m in SPOKEN_OPENER_EN.finditer(text)]
    if not THE_DECK[lang].search(source):
        said += THE_DECK[lang].findall(text)
    return SentenceCheck(check="voice", passed=not said, detail=", ".join(dict.fromkeys(said)))
