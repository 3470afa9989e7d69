"""Check a recording before decoding it, so bad media gets a message a maintainer can act on."""

from pathlib import Path

import av

from pipeline.core.errors import StageFailure


def probe_audio(path: Path) -> float | None:
    """Duration in seconds (None when the container does not say); raises StageFailure for an
    empty file, an unreadable or truncated container, no audio stream, or an unknown codec."""
    if path.stat().st_size == 0:
        raise StageFailure("the file is empty (0 bytes)", path)
    try:
        container = av.open(str(path))
    except (av.FFmpegError, UnicodeDecodeError) as err:
        raise StageFailure(
            f"cannot read the media (corrupt, truncated or not media): {err}", path
        ) from err
    with container:
        if not container.streams.audio:
            kinds = ", ".join(sorted({s.type for s in container.streams})) or "none"
            raise StageFailure(f"no audio stream (streams found: {kinds})", path)
        stream = container.streams.audio[0]
        if stream.codec_context is None or not stream.codec_context.name:
            raise StageFailure("the audio codec is not supported", path)
        return container.duration / av.time_base if container.duration else None
