"""The transcript stage: speech to timestamped segments and words with faster-whisper,
or the talk's subtitle file read as they are (`read_subtitles`, subtitles.py).

Steered by the deck's vocabulary, then corrected against it; likely hallucinations and
repetition loops are dropped and recorded; Mandarin comes out in Simplified characters.
"""

import re
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path

from faster_whisper import WhisperModel

from pipeline.core.errors import StageFailure
from pipeline.core.models import WhisperModelRef
from pipeline.core.prompts import Prompt
from pipeline.llm.client import LLM
from pipeline.schema import DroppedSegment, Segment, Talk, Transcript, Word
from pipeline.transcript.audio import audio_chunks
from pipeline.transcript.chinese import to_simplified
from pipeline.transcript.corrections import correct_terms
from pipeline.transcript.media import probe_audio
from pipeline.transcript.options import TranscriptOptions
from pipeline.transcript.punctuate import punctuate, unpunctuated
from pipeline.transcript.subtitles import read_subtitles

__all__ = ["read_punctuated", "read_subtitles", "transcribe"]

Progress = Callable[[float, float], None]
# Whisper's own fallback thresholds: above this compression ratio text is repetitive...
MAX_COMPRESSION_RATIO = 2.4
# ...and a segment the model thinks is silence, decoded with low confidence, is invented.
NO_SPEECH_PROB = 0.6
MIN_AVG_LOGPROB = -1.0
# Hotwords lead every window's prompt, and in a silent tail the model may just say one
# ("SGLang," at avg_logprob -1.02, no_speech_prob 0.54 after a 4.6 s clip). A segment of
# nothing but glossary words decoded this unsurely is taken for such an echo.
HOTWORD_LOGPROB = -0.7
# Longer prompts make Whisper skip speech: on narrations over two real decks (tiny.en),
# deck terms came out right 0.87 / 0.91 / 0.89 / 0.83 of the time with prompts capped at
# 60 / 80 / 100 / 120 tokens, and at 145 a whole sentence was dropped (Whisper allows 223).
MAX_PROMPT_TOKENS = 80


def spoken(term: str) -> str:
    """An identifier as speech has it: `max_worker_retries` -> "max worker retries"."""
    return term.replace("_", " ").lstrip("/-").strip() or term


def whisper_hotwords(
    terms: list[str], count_tokens: Callable[[str], int] | None = None
) -> str | None:
    """The terms as Whisper's hotwords, most characteristic first, as many as fit
    MAX_PROMPT_TOKENS (measured with `count_tokens`, the model's own tokenizer).

    Hotwords, not the initial prompt: with condition_on_previous_text off (it feeds
    repetition loops), faster-whisper drops the initial prompt after the first 30 s window,
    while hotwords lead the prompt of every window. Identifiers are given as they are said
    ("max worker retries"); the corrections then restore the deck's spelling.
    """
    said = [spoken(term) for term in terms]
    words = None
    for n in range(1, len(said) + 1):
        candidate = ", ".join(said[:n])
        if count_tokens and count_tokens(candidate) > MAX_PROMPT_TOKENS:
            break
        words = candidate
    return words


def options_key(opts: TranscriptOptions) -> dict[str, object]:
    """The settings a transcript depends on (thread count and the subtitles switch do not)."""
    return opts.model_dump(exclude={"cpu_threads", "force_asr"})


def load_whisper(model: WhisperModelRef, opts: TranscriptOptions) -> WhisperModel:
    return WhisperModel(
        model.location,
        device=opts.device,
        compute_type=opts.compute_type,
        cpu_threads=opts.cpu_threads,
    )


# Speech recognition writes "fifty-two point three thousand" as 52.3000: a decimal whose
# fraction ends in groups of three zeros after a non-zero digit. A fraction written to that
# precision is not how anyone speaks, so the zeros are the magnitude word.
SPOKEN_MAGNITUDE = re.compile(r"(?<![\d.,])(\d+\.\d*[1-9])((?:000){1,3})(?![\d.,])")
MAGNITUDES = {1: "k", 2: "M", 3: "B"}  # thousand, million, billion


def spoken_magnitudes(text: str) -> str:
    """52.3000 -> 52.3k, 1.5000000 -> 1.5M: a spoken quantity keeps its magnitude."""
    return SPOKEN_MAGNITUDE.sub(lambda m: f"{m[1]}{MAGNITUDES[len(m[2]) // 3]}", text)


def to_segment(seg, offset: float) -> Segment:
    """faster-whisper's segment as ours, with times shifted by the chunk's offset."""
    words = [
        Word(
            start=round(offset + w.start, 2),
            end=round(offset + w.end, 2),
            text=w.word.strip(),
            probability=round(w.probability, 3),
        )
        for w in seg.words or []
    ]
    return Segment(
        start=round(offset + seg.start, 2),
        end=round(offset + seg.end, 2),
        text=spoken_magnitudes(seg.text.strip()),
        avg_logprob=seg.avg_logprob,
        no_speech_prob=seg.no_speech_prob,
        compression_ratio=seg.compression_ratio,
        words=words,
    )


def only_hotwords(segment: Segment, glossary: AbstractSet[str]) -> bool:
    """Every word of the segment is a word of the vocabulary ("SGLang,")."""
    said = [w.strip(".,;:!?").lower() for w in segment.text.split()]
    return bool(said) and all(w in glossary for w in said)


def drop_reason(segment: Segment, glossary: AbstractSet[str] = frozenset()) -> str | None:
    """Why the segment is not kept; `glossary` holds the vocabulary's words, lower case."""
    if not segment.text:
        return "empty"
    if only_hotwords(segment, glossary) and (segment.avg_logprob or 0) < HOTWORD_LOGPROB:
        return f"only glossary words, unsure (avg_logprob {segment.avg_logprob:.2f}): echoed"
    if (segment.compression_ratio or 0) > MAX_COMPRESSION_RATIO:
        return f"repetitive (compression ratio {segment.compression_ratio:.2f})"
    if (segment.no_speech_prob or 0) > NO_SPEECH_PROB and (
        segment.avg_logprob or 0
    ) < MIN_AVG_LOGPROB:
        return f"likely not speech (no_speech_prob {segment.no_speech_prob:.2f})"
    return None


def keep_speech(
    segments: list[Segment], vocabulary: Sequence[str] = ()
) -> tuple[list[Segment], list[DroppedSegment]]:
    glossary = {word.lower() for term in vocabulary for word in term.split()}
    kept, dropped = [], []
    for segment in segments:
        reason = drop_reason(segment, glossary)
        if reason is None:
            kept.append(segment)
        else:
            dropped.append(
                DroppedSegment(
                    start=segment.start, end=segment.end, text=segment.text, reason=reason
                )
            )
    return kept, dropped


@dataclass
class Recognised:
    segments: list[Segment]
    language: str | None
    language_probability: float | None
    duration: float


def recognise(talk, whisper, opts, vocabulary, progress, total_s) -> Recognised:
    """Chunk by chunk (bounded memory); the language found in the first chunk holds after."""
    result = Recognised([], talk.meta.language, None, 0.0)
    tokens = whisper.hf_tokenizer.encode
    for offset, samples in audio_chunks(talk.media, opts.chunk_minutes * 60):
        segments, info = whisper.transcribe(
            samples,
            language=result.language,
            beam_size=opts.beam_size,
            vad_filter=True,
            word_timestamps=True,
            hotwords=whisper_hotwords(vocabulary, lambda text: len(tokens(text))),
            # Conditioning on earlier text is what lets a repetition loop feed itself.
            condition_on_previous_text=False,
        )
        if result.language_probability is None:
            result.language, result.language_probability = info.language, info.language_probability
        for seg in segments:  # lazy: decoding happens while iterating
            result.segments.append(to_segment(seg, offset))
            if progress:
                progress(offset + seg.end, total_s or offset + info.duration)
        result.duration = offset + info.duration
    return result


def transcribe(
    talk: Talk,
    model: WhisperModelRef,
    opts: TranscriptOptions,
    vocabulary: list[str],
    progress: Progress | None = None,
) -> Transcript:
    """Transcribe the talk's recording, steered by `vocabulary` (deck and glossary terms);
    `progress(done_s, total_s)` is called per segment."""
    total_s = probe_audio(talk.media)
    whisper = load_whisper(model, opts)
    try:
        heard = recognise(talk, whisper, opts, vocabulary, progress, total_s)
    except Exception as err:  # PyAV and CTranslate2 raise many types for unreadable media
        raise StageFailure(f"cannot transcribe: {type(err).__name__}: {err}", talk.media) from err
    collected = to_simplified(heard.segments) if heard.language == "zh" else heard.segments
    kept, dropped = keep_speech(collected, vocabulary)
    if not kept:
        raise StageFailure("no speech found in the recording (silence or noise only)", talk.media)
    kept, corrections = correct_terms(kept, vocabulary)
    return Transcript(
        language=heard.language or "unknown",
        language_probability=heard.language_probability,
        duration=round(heard.duration, 3),
        segments=kept,
        vocabulary=vocabulary,
        corrections=corrections,
        dropped=dropped,
    )


def read_punctuated(
    path: Path, language: str | None, recording: Path | None, llm: Callable[[], LLM], prompt: Prompt
) -> Transcript:
    """The subtitles (pipeline.transcript.subtitles), unpunctuated Chinese ones punctuated
    by the model (pipeline.transcript.punctuate; `llm` is called only then)."""
    read = read_subtitles(path, language, recording)
    return punctuate(read, llm(), prompt) if unpunctuated(read) else read
