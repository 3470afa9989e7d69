"""Spoken Chinese made ready to write from: credits, fillers, greetings and talk about the
recording left out (punctuation is pipeline.transcript.punctuate's).

Chinese subtitles often carry the video's credits as their first cue ("讲解：…，后期/配音：
…") and the speaker's fillers ("嗯", "呃", "哎呀"), and are mostly unpunctuated: one
cue, one breath. Lecturers also talk about the video itself ("录个课真不容易", "这段又
NG 了", "记得点赞关注"). None of that is content, and a paragraph written from raw cues reads as
raw cues.
"""

import re

from pipeline.core.text import has_cjk

CREDIT_ROLES = (
    "录制",
    "剪辑",
    "字幕",
    "后期",
    "制作",
    "出品",
    "策划",
    "配音",
    "摄像",
    "校对",
    "监制",
)
ENGLISH_CREDITS = re.compile(r"\b(?:subtitles?|captions?|edited|transcribed|filmed) by\b", re.I)
# Interjections that open a cue without saying anything ("嗯 我们先看", "哎呀这张图").
LEADING_FILLERS = re.compile(r"^(?:[嗯啊呃哦唉欸诶额]+|哎呀|哎|那个那个)[\s，,、。…]*")
# A greeting that opens a cue ("Hello everyone, today …", "大家好，我们来看…"): the rest stays.
GREETING = re.compile(
    r"^(?:(?:hello|hi|hey|good (?:morning|afternoon|evening))"
    r"(?: (?:everyone|everybody|all|folks|guys))?[,.!]*\s+"
    r"|(?:各位)?(?:大家|同学们|朋友们)(?:好|晚上好|早上好|下午好)(?![像几多久处些])[\s，,、。！!]*)",
    re.IGNORECASE,
)
FILLER_ONLY = re.compile(r"^[嗯啊呃哦唉欸诶额哎呀\s，,、。…！？!?]*$")
# Talk about the recording or the channel, not the subject: retakes ("NG", "重录"), the
# video's making ("录个课"), its quality ("这期视频有点水"), and calls to like or
# comment. Narrow on purpose: "录制 trace", "关注延迟", "发布订阅", "本期视频我们讲…"
# are content.
RECORDING_TALK = re.compile(
    r"(?<![A-Za-z])NG(?![A-Za-z])|重录|录了.{0,3}[遍次]|录(?:个|这个|这节|这期)?(?:课|视频)"
    r"|视频(?:非常|很|有点|比较)?水|图个乐|点赞|三连|投币"
    r"|欢迎(?:大家)?(?:来)?(?:指正|吐槽|留言|评论)|评论区|留言区"
    r"|(?i:\blike and subscribe\b|\bsubscribe to (?:the|my|our) channel\b)"
)
# Words a lecturer opens a clause with that say nothing in writing ("那这几个框架", "其实类似
# 于", "说实话"), and the particles that end a spoken clause ("TGI啦", "对吧嘛"). "那" that
# points at something (那些, 那个, 那就是) stays, and so does "的话" of a condition left
# without its comma.
CLAUSE_START = r"(?:^|(?<=[，。！？；：、,.!?;:\s]))"
DISCOURSE_FILLERS = re.compile(
    CLAUSE_START
    + r"(?:那么(?=[，,])|那(?![些个种里样时么儿边就是年天次位])|其实|说实话|说白了)[，,]?"
    r"|(?<=[^\s，。！？,.!?])(?:啦|嘛|哦|呀)(?=[，。！？,.!?\s]|$)"
    r"|(?<=另外)的话"
)


def is_credits(text: str) -> bool:
    """A cue naming who recorded, edited or subtitled the video."""
    roles = sum(role in text for role in CREDIT_ROLES)
    named = roles >= 1 and bool(re.search(r"[：:]", text))
    return roles >= 2 or named or bool(ENGLISH_CREDITS.search(text))


def is_recording_talk(text: str) -> bool:
    """A cue about the video or the channel ("这段又 NG 了", "记得点赞关注"), not the subject."""
    return bool(RECORDING_TALK.search(text))


def without_fillers(text: str) -> str:
    """The cue without the interjections and greeting it opens with, and in Chinese
    without its spoken clause openers and particles; empty if it is nothing else."""
    if FILLER_ONLY.match(text):
        return ""
    text = GREETING.sub("", LEADING_FILLERS.sub("", text.strip()))
    if not has_cjk(text):
        return text
    for _ in range(3):  # "那说实话，…": one opener after another
        text, before = DISCOURSE_FILLERS.sub("", text).strip(), text
        if text == before:
            break
    return text
