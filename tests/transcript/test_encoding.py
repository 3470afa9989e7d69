import random

import opencc
import pytest

from pipeline.core.errors import StageFailure
from pipeline.transcript.encoding import decode_text

CUES = (
    "1\n00:00:01,000 --> 00:00:03,000\n大家好，今天我们讲推理框架的总体情况\n\n"
    "2\n00:00:03,000 --> 00:00:06,000\n首先看显存怎么管理，然后看调度\n"
)


@pytest.mark.parametrize(
    ("encoding", "found"),
    [
        ("utf-8", "utf-8"),
        ("utf-8-sig", "utf-8-sig"),
        ("utf-16", "utf-16"),
        ("utf-16-le", "utf-16-le"),
        ("utf-16-be", "utf-16-be"),
        ("gbk", "gb18030"),
        ("gb18030", "gb18030"),
    ],
)
def test_chinese_subtitles_decode_in_common_encodings(tmp_path, encoding, found):
    text, name = decode_text(CUES.encode(encoding), tmp_path / "talk.srt")
    assert name == found and text.lstrip("\ufeff") == CUES


def test_big5_traditional_subtitles_decode():
    traditional = opencc.OpenCC("s2tw").convert(CUES)
    text, name = decode_text(traditional.encode("big5"), None)
    assert name == "big5" and text == traditional


def test_a_short_western_file_in_cp1252_decodes():
    line = "1\n00:00:01,000 --> 00:00:02,000\nÇa va très bien, merci à vous\n"
    assert decode_text(line.encode("cp1252"), None) == (line, "cp1252")


def test_an_undecodable_file_is_a_clear_error(tmp_path):
    noise = random.Random(0).randbytes(2000)  # a binary file renamed .srt
    with pytest.raises(StageFailure) as caught:
        decode_text(noise, tmp_path / "talk.srt")
    assert "encoding" in caught.value.message and caught.value.file.endswith("talk.srt")
