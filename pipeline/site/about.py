"""The site's about page: how every article is made, in both languages."""

ABOUT = {
    "zh": """# 关于本站

本站的文章由开源流水线 talk2article 生成，每一篇都经过同样的步骤：

1. **带时间戳的转写**：用 Whisper 模型把演讲录音转成逐句带时间的文字（或直接读取演讲的字幕）。
2. **幻灯片分析**：读取 PPTX/PDF 的标题、正文、表格和备注，并判断每一刻屏幕上是哪一页。
3. **证据与章节结构**：把讲话和幻灯片切成可引用的证据单元，由代码选出每一段讲的事实（幻灯片的
   每一行、每个表格行，以及讲到名称或数字的句子；语音识别可能听错的句子不用），
   再沿“问题 → 原因 → 机制 → 结果 → 边界”的因果链排出章节。
4. **逐句写作**：每个句子只由一条事实改写而成，并只对照这一条事实检查数字、名称和意思；
   再逐句翻译成另一种语言。改写两次都没通过检查时不用改写：幻灯片的行保留原样并标出，
   讲话的句子不写入。
5. **审校**：代码复查每个句子的出处、语言和重复，审稿卡给出结论和理由；
   人工审阅者可以批准、搁置或退回。
6. **中英排版与发布**：按中文排版规范处理空格与标点，用 MkDocs Material 构建本站，自动发布。

文中的 `[mm:ss]` 链接跳到视频的对应秒数，`slide N` 链接打开对应的幻灯片。
""",
    "en": """# About this site

The articles here are made by the open-source pipeline talk2article, each by the same steps:

1. **Timestamped transcription** of the recording with a Whisper model (or the talk's own
   subtitles).
2. **Deck analysis**: titles, text, tables and notes of the PPTX/PDF, and which slide is on
   screen when.
3. **Evidence and chapter structure**: speech and slides cut into citable units; code picks
   what each of the talk's own sections states (every table row, the slide lines that state
   something on their own, and the sentences said that name or measure something, never
   one recognition may have misheard), and chapters are laid along the causal chain
   (problem → cause → mechanism → results → limits).
4. **Sentence by sentence**: each sentence is rewritten from one fact alone and checked
   against that fact only (its numbers, names and meaning), then translated sentence by
   sentence. A rewrite that fails its checks twice is not used: a slide line then stands
   as shown, in the deck's own words; a sentence said is left out.
5. **Review**: code checks every sentence's source, language and repeats; the review card
   at the top of each article gives the verdict and why, and reviewers approve, hold or
   reject.
6. **Bilingual typesetting and publishing**: built with MkDocs Material and published
   automatically.

`[mm:ss]` links open the video at that second; `slide N` links open that slide.
""",
}


def about_page(lang: str) -> str:
    return ABOUT[lang]
