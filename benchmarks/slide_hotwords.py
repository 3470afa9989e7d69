"""Slide-aware recognition, measured before it is built: each slide's stretch of speech
decoded again with that slide's own terms first among the hotwords, where the first pass
missed some of them, and the new text kept when it says more of the slide's terms.

    .venv/bin/python benchmarks/slide_hotwords.py sglang-2025 xgrammar mlcengine

On the narrated dev cases (their narration is the reference), per case: word error rate
and the share of deck terms said that come out spelled as on the deck, after the first
pass and after the stretches were decoded again. The last line printed is one JSON object.
"""

import json
import sys
import tempfile
from pathlib import Path

import jiwer
from faster_whisper import WhisperModel, decode_audio

from pipeline.core.grounding import mentions
from pipeline.core.models import bundled_whisper_tiny_en
from pipeline.deck import read_deck
from pipeline.deck.options import DeckOptions
from pipeline.deck.vocabulary import collect_terms
from pipeline.schema import Talk, TalkMeta
from pipeline.timeline import build_timeline
from pipeline.timeline.options import TimelineOptions
from pipeline.transcript import to_segment, transcribe, whisper_hotwords
from pipeline.transcript.audio import SAMPLE_RATE
from pipeline.transcript.corrections import correct_terms
from pipeline.transcript.options import TranscriptOptions

CASES = Path(__file__).resolve().parents[1] / "evals" / "cases"
NORMALISE = jiwer.Compose(
    [jiwer.ToLowerCase(), jiwer.RemovePunctuation(), jiwer.RemoveMultipleSpaces(), jiwer.Strip()]
)
OPTS = TranscriptOptions()


def decoded_again(whisper, audio, start, end, hotwords):
    """The stretch [start, end] decoded alone with `hotwords`, times in the talk's."""
    stretch = audio[int(start * SAMPLE_RATE) : int(end * SAMPLE_RATE)]
    segments, _ = whisper.transcribe(
        stretch,
        language="en",
        beam_size=OPTS.beam_size,
        vad_filter=True,
        word_timestamps=True,
        hotwords=hotwords,
        condition_on_previous_text=False,
    )
    return [to_segment(segment, start) for segment in segments]


def narrated_case(case: str, root: Path):
    """A narrated dev case: its talk, its deck read (pictures into `root`) and its
    narration, the reference text."""
    folder = CASES / case / "talk"
    narration = json.loads((CASES / case / "narration.json").read_text())
    reference = " ".join(slide["narration"] for slide in narration["slides"])
    deck_file = folder / "slides.pdf"
    talk = Talk(
        slug=case, folder=folder, media=folder / "talk.mp4", decks=[deck_file],
        meta=TalkMeta(language="en"),
    )  # fmt: skip
    return talk, read_deck(talk, DeckOptions(libreoffice=False), root), reference


def slide_aware(case: str, whisper, model) -> dict:
    root = Path(tempfile.mkdtemp())
    talk, deck, reference = narrated_case(case, root)
    vocabulary = collect_terms(deck, [])
    transcript = transcribe(talk, model, OPTS, vocabulary)
    first = transcript.segments
    timeline = build_timeline(talk, transcript, deck, root, TimelineOptions())
    audio = decode_audio(str(talk.media), sampling_rate=SAMPLE_RATE)
    count = lambda text: len(whisper.hf_tokenizer.encode(text))  # noqa: E731
    segments = list(first)
    for span in timeline.spans:
        slide = next(s for s in deck.slides if s.index == span.slide)
        own = collect_terms(deck.model_copy(update={"slides": [slide]}), [])
        inside = [s for s in first if span.start <= (s.start + s.end) / 2 < span.end]
        said = " ".join(s.text for s in inside)
        if not inside or all(mentions(said, t) for t in own):
            continue
        hotwords = whisper_hotwords(list(dict.fromkeys(own + vocabulary)), count)
        again = decoded_again(whisper, audio, inside[0].start, inside[-1].end, hotwords)
        again, _ = correct_terms(again, vocabulary)
        heard = " ".join(s.text for s in again)
        if sum(mentions(heard, t) for t in own) > sum(mentions(said, t) for t in own):
            segments = [s for s in segments if s not in inside] + again
    terms = [t for t in vocabulary if t.lower() in reference.lower()]
    result = {}
    for name, found in (("first", first), ("slide_aware", sorted(segments, key=lambda s: s.start))):
        text = " ".join(s.text for s in found)
        result[name] = {
            "wer": round(jiwer.wer(NORMALISE(reference), NORMALISE(text)), 4),
            "terms_right": round(sum(t.lower() in text.lower() for t in terms) / len(terms), 3),
        }
    return result


def main() -> None:
    model = bundled_whisper_tiny_en()
    whisper = WhisperModel(model.location, cpu_threads=OPTS.cpu_threads)
    results = {}
    for case in sys.argv[1:]:
        results[case] = slide_aware(case, whisper, model)
        print(case, results[case], flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
