"""Evidence units with stable ids: speech windows (t-MM:SS), slides (s-NN), notes (n-NN)."""

from pydantic import Field

from pipeline.schema import Contract, Deck, Evidence, EvidenceUnit, Provenance, Transcript
from pipeline.store import provenance, sha256_model

STAGE = "evidence"


class EvidenceOptions(Contract):
    max_words: int = Field(60, ge=5, description="words per speech unit, at most (roughly)")


def evidence_provenance(
    transcript: Transcript, deck: Deck | None, opts: EvidenceOptions
) -> Provenance:
    inputs = {"transcript": sha256_model(transcript)}
    if deck is not None:
        inputs["deck"] = sha256_model(deck)
    return provenance(STAGE, inputs=inputs, options={"max_words": str(opts.max_words)})


def timestamp(seconds: float) -> str:
    """mm:ss below an hour, h:mm:ss above: the form citations use."""
    total = int(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def speech_units(transcript: Transcript, max_words: int) -> list[EvidenceUnit]:
    """Consecutive segments joined up to `max_words`; the id is the start time."""
    units, texts, start, end = [], [], None, 0.0
    for seg in transcript.segments:
        if not seg.text:
            continue
        if texts and sum(len(t.split()) for t in texts) + len(seg.text.split()) > max_words:
            units.append((start, end, " ".join(texts)))
            texts, start = [], None
        start = seg.start if start is None else start
        texts.append(seg.text)
        end = seg.end
    if texts:
        units.append((start, end, " ".join(texts)))
    result, seen = [], set()
    for start, end, text in units:
        uid = f"t-{timestamp(start)}"
        suffix = 2
        while uid in seen:  # two units starting within the same second
            uid, suffix = f"t-{timestamp(start)}-{suffix}", suffix + 1
        seen.add(uid)
        result.append(EvidenceUnit(id=uid, kind="transcript", text=text, start=start, end=end))
    return result


def slide_units(deck: Deck) -> list[EvidenceUnit]:
    units = []
    for slide in deck.slides:
        body = "\n".join(part for part in (slide.title, slide.text) if part)
        if body:
            units.append(
                EvidenceUnit(id=f"s-{slide.index:02d}", kind="slide", text=body, slide=slide.index)
            )
        if slide.notes:
            units.append(
                EvidenceUnit(
                    id=f"n-{slide.index:02d}", kind="notes", text=slide.notes, slide=slide.index
                )
            )
    return units


def build_evidence(transcript: Transcript, deck: Deck | None, opts: EvidenceOptions) -> Evidence:
    units = speech_units(transcript, opts.max_words)
    if deck is not None:
        units += slide_units(deck)
    return Evidence(units=units, provenance=evidence_provenance(transcript, deck, opts))
