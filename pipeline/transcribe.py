"""Speech to timestamped segments with faster-whisper; SRT next to the JSON."""

from collections.abc import Callable

import opencc
from faster_whisper import WhisperModel

from pipeline.errors import StageFailure
from pipeline.models import WhisperModelRef
from pipeline.schema import Provenance, Segment, TalkInputs, Transcript
from pipeline.settings import WhisperOptions
from pipeline.store import provenance, sha256_bytes, sha256_file
from pipeline.vocabulary import whisper_prompt

STAGE = "transcribe"
Progress = Callable[[float, float], None]


def transcript_provenance(
    talk: TalkInputs, model: WhisperModelRef, opts: WhisperOptions, vocabulary: list[str]
) -> Provenance:
    return provenance(
        STAGE,
        inputs={talk.media.name: sha256_file(talk.media)},
        model=model.id,
        options={
            "language": talk.meta.language or "auto",
            "beam_size": str(opts.beam_size),
            "compute_type": opts.compute_type,
            "vocabulary": sha256_bytes("\n".join(vocabulary).encode()),
        },
    )


def load_whisper(model: WhisperModelRef, opts: WhisperOptions) -> WhisperModel:
    return WhisperModel(
        model.location,
        device=opts.device,
        compute_type=opts.compute_type,
        cpu_threads=opts.cpu_threads,
    )


def transcribe(
    talk: TalkInputs,
    model: WhisperModelRef,
    opts: WhisperOptions,
    vocabulary: list[str],
    progress: Progress | None = None,
) -> Transcript:
    """Transcribe the talk's recording, steered by `vocabulary` (deck and glossary terms);
    `progress(done_s, total_s)` is called per segment."""
    whisper = load_whisper(model, opts)
    try:
        segments, info = whisper.transcribe(
            str(talk.media),
            language=talk.meta.language,
            beam_size=opts.beam_size,
            vad_filter=True,
            initial_prompt=whisper_prompt(vocabulary),
        )
        # `segments` is lazy: decoding happens while iterating, so errors surface here too.
        collected = []
        for seg in segments:
            collected.append(
                Segment(
                    start=round(seg.start, 2),
                    end=round(seg.end, 2),
                    text=seg.text.strip(),
                    avg_logprob=seg.avg_logprob,
                    no_speech_prob=seg.no_speech_prob,
                    compression_ratio=seg.compression_ratio,
                )
            )
            if progress:
                progress(seg.end, info.duration)
    except Exception as err:  # PyAV and CTranslate2 raise many types for unreadable media
        raise StageFailure(
            STAGE, f"cannot transcribe: {type(err).__name__}: {err}", talk.media
        ) from err
    if info.language == "zh":
        collected = to_simplified(collected)
    if not any(s.text for s in collected):
        raise StageFailure(STAGE, "no speech found in the recording", talk.media)
    return Transcript(
        language=info.language,
        language_probability=info.language_probability,
        duration=info.duration,
        segments=collected,
        vocabulary=vocabulary,
        provenance=transcript_provenance(talk, model, opts, vocabulary),
    )


def to_simplified(segments: list[Segment]) -> list[Segment]:
    """Whisper often writes Mandarin in Traditional characters; the site uses Simplified."""
    converter = opencc.OpenCC("t2s")
    return [s.model_copy(update={"text": converter.convert(s.text)}) for s in segments]


def srt_time(seconds: float) -> str:
    millis = round(seconds * 1000)
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d},{millis:03d}"


def to_srt(transcript: Transcript) -> str:
    blocks = [
        f"{i}\n{srt_time(s.start)} --> {srt_time(s.end)}\n{s.text}\n"
        for i, s in enumerate(transcript.segments, start=1)
    ]
    return "\n".join(blocks)
