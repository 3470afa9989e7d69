import json

import jiwer
import pytest

from pipeline.core.errors import StageFailure
from pipeline.core.models import resolve_whisper
from pipeline.core.text import has_cjk
from pipeline.deck import read_deck
from pipeline.deck.options import DeckOptions
from pipeline.deck.vocabulary import collect_terms
from pipeline.schema import Segment
from pipeline.settings import Settings
from pipeline.talk import read_talk
from pipeline.transcript import keep_speech, spoken_magnitudes, transcribe
from pipeline.transcript.options import TranscriptOptions
from tests.helpers import DATA, EXAMPLE, talk_with

OPTS = TranscriptOptions()


@pytest.mark.models
def test_english_with_bundled_tiny_en():
    model = resolve_whisper("auto", "en", Settings().cache_dir)
    assert model.id == "whisper-tiny.en"
    result = transcribe(talk_with(DATA / "jfk.flac", language="en"), model, OPTS, [])
    reference = (DATA / "jfk.transcript.txt").read_text()
    hypothesis = " ".join(s.text for s in result.segments)
    normalise = jiwer.Compose(
        [
            jiwer.ToLowerCase(),
            jiwer.RemovePunctuation(),
            jiwer.RemoveMultipleSpaces(),
            jiwer.Strip(),
        ]
    )
    assert jiwer.wer(normalise(reference), normalise(hypothesis)) < 0.15
    assert result.language == "en"
    assert 10 < result.duration < 12
    assert all(0 <= s.start < s.end <= result.duration + 0.5 for s in result.segments)
    words = [w for s in result.segments for w in s.words]
    assert words and all(0 <= w.start <= w.end <= result.duration + 0.5 for w in words)
    assert [w.text.strip(",.").lower() for w in words][-3:] == ["for", "your", "country"]


@pytest.mark.models
def test_mandarin_with_bundled_base_comes_out_simplified():
    model = resolve_whisper("auto", None, Settings().cache_dir)
    assert model.id == "whisper-base"
    result = transcribe(talk_with(DATA / "asr_example.wav"), model, OPTS, [])
    text = "".join(s.text for s in result.segments)
    assert result.language == "zh"
    assert has_cjk(text)
    # Characters whose Traditional form differs: 語/语, 識/识, 體/体, 驗/验, 達/达, 摩.
    assert not set(text) & set("語識體驗達樣")


def test_corrupt_media_is_a_clear_error_naming_the_file(tmp_path):
    broken = tmp_path / "talk.mp4"
    broken.write_bytes(b"\x00\x00\x00\x18ftypmp42" + b"garbage" * 100)
    model = resolve_whisper("auto", "en", Settings().cache_dir)
    with pytest.raises(StageFailure) as caught:
        transcribe(talk_with(broken, language="en"), model, OPTS, [])
    assert caught.value.file == str(broken)


@pytest.mark.models
def test_deck_vocabulary_steers_the_spelling_of_names(tmp_path):
    talk = read_talk(EXAMPLE, "t")
    deck = read_deck(talk, DeckOptions(libreoffice=False), tmp_path / "slides")
    vocabulary = collect_terms(deck, talk.meta.glossary)
    assert "PagedAttention" in vocabulary
    model = resolve_whisper("auto", "en", Settings().cache_dir)
    result = transcribe(talk, model, OPTS, vocabulary)
    text = " ".join(s.text for s in result.segments)
    assert "PagedAttention" in text and "continuous batching" in text
    assert result.vocabulary == vocabulary
    for correction in result.corrections:  # every change is auditable
        assert correction.corrected in vocabulary and correction.original not in vocabulary


@pytest.mark.models
def test_chunked_recognition_stitches_times_across_chunks():
    talk = read_talk(EXAMPLE, "t")
    model = resolve_whisper("auto", "en", Settings().cache_dir)
    result = transcribe(talk, model, TranscriptOptions(chunk_minutes=0.5), [])
    starts = [s.start for s in result.segments]
    assert starts == sorted(starts)
    assert result.segments[-1].end > 0.9 * result.duration  # reaches the end of the talk
    truth = json.loads((DATA / "kv-cache-serving.truth.json").read_text())
    assert abs(result.duration - truth["duration"]) < 0.5
    text = " ".join(s.text for s in result.segments).lower()
    assert "thank you" in text and "hello everyone" in text


def deck_vocabulary(tmp_path, name: str) -> list[str]:
    path = DATA / name
    return collect_terms(
        read_deck(talk_with(path, [path]), DeckOptions(libreoffice=False), tmp_path), []
    )


def heard(clip: str, vocabulary: list[str]):
    """One of our Piper clips (benchmarks/cases/vocabulary.yaml), through tiny.en."""
    model = resolve_whisper("auto", "en", Settings().cache_dir)
    return transcribe(
        talk_with(DATA / f"vocabulary-{clip}.ogg", language="en"), model, OPTS, vocabulary
    )


@pytest.mark.models
def test_a_variant_of_a_deck_term_comes_out_in_the_decks_spelling(tmp_path):
    result = heard("canonical", deck_vocabulary(tmp_path, "constrained_decoding.pdf"))
    text = " ".join(s.text for s in result.segments)
    assert "SGLang" in text and "xgrammar" in text, text
    assert {c.corrected for c in result.corrections} & {"SGLang", "xgrammar"}  # recorded


@pytest.mark.models
def test_deck_phrases_whisper_gets_wrong_alone_come_out_right(tmp_path):
    alone = " ".join(s.text for s in heard("phrase", []).segments)
    assert "cache hit rate" not in alone or "radix trees" not in alone  # "cash", "rate trees"
    result = heard("phrase", deck_vocabulary(tmp_path, "sglang-router.pdf"))
    text = " ".join(s.text for s in result.segments)
    assert "cache hit rate" in text and "radix trees" in text, text


@pytest.mark.models
def test_ordinary_words_are_not_corrected_towards_a_deck(tmp_path):
    vocabulary = deck_vocabulary(tmp_path, "constrained_decoding.pdf")
    vocabulary += deck_vocabulary(tmp_path, "sglang-router.pdf")
    result = heard("ordinary", vocabulary)
    text = " ".join(s.text for s in result.segments)
    assert result.corrections == [], text
    assert "outlines" in text and "grammar" in text


def test_an_unsure_segment_of_nothing_but_glossary_words_is_dropped_as_an_echo():
    echo = Segment(start=4.56, end=4.84, text="SGLang,", avg_logprob=-1.02, no_speech_prob=0.54)
    said = echo.model_copy(update={"avg_logprob": -0.2})
    sentence = echo.model_copy(update={"text": "We use SGLang."})
    kept, dropped = keep_speech([echo, said, sentence], ["SGLang", "radix trees"])
    assert kept == [said, sentence]
    assert dropped[0].text == "SGLang," and "glossary" in dropped[0].reason


def test_a_spoken_quantity_keeps_its_magnitude_whatever_the_slide_shows():
    said = "one node served 52.3000 prefill tokens and 1.5000000 users, 2.000 GPUs"
    assert (
        spoken_magnitudes(said) == "one node served 52.3k prefill tokens and 1.5M users, 2.000 GPUs"
    )
    for written in ("version 1.2.3000", "3.14 and 10,000", "a 4096 context"):
        assert spoken_magnitudes(written) == written  # no decimal ending in zeros
