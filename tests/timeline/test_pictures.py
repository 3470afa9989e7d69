import numpy as np
from PIL import Image, ImageDraw

from pipeline.timeline.pictures import (
    distinctive_similarities,
    find_layouts,
    frame_signatures,
    picture_signatures,
    sample_frames,
    signature,
    similarities,
)
from tests.helpers import DATA, EXAMPLE


def slide_picture(text: str, size=(640, 360)) -> Image.Image:
    picture = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(picture)
    draw.rectangle((40, 30, 600, 80), fill=(30, 60, 160))  # title bar
    draw.rectangle((0, 330, 640, 360), fill=(200, 120, 0))  # footer: the slide's extent
    draw.text((60, 120), text, fill="black", font_size=40)
    return picture


def test_letterboxed_darker_smaller_frame_still_matches_its_slide():
    slide, other = slide_picture("Paged attention"), slide_picture("Prefix caching")
    frame = Image.new("RGB", (960, 540), "black")  # 4:3-ish content with black bars
    frame.paste(slide.resize((800, 450)).point(lambda v: int(v * 0.8)), (80, 45))
    frames = np.stack([signature(frame)])
    pictures = np.stack([signature(slide), signature(other)])
    whole = similarities(frames, pictures)[0]
    assert whole[0] > 0.95 and whole[1] > 0.95  # one template: alike as whole pictures
    distinct = distinctive_similarities(frames, pictures)[0]
    assert distinct[0] > 0.8 and distinct[0] - distinct[1] > 1.0


def test_a_uniform_picture_matches_nothing():
    assert not signature(Image.new("RGB", (64, 48), "grey")).any()


def test_audio_has_no_frames_to_sample():
    assert sample_frames(DATA / "jfk.flac", 1.0) == ([], [])


def test_frames_are_sampled_small_and_grey_at_the_interval(tmp_path):
    times, grey = sample_frames(EXAMPLE / "talk.mp4", 10.0)
    assert times[:3] == [0.0, 10.0, 20.0] and len(times) == 11
    assert grey[0].mode == "L" and grey[0].width == 256
    paths = []
    for number in range(2):
        picture = tmp_path / f"{number}.png"
        slide_picture(f"slide {number}").save(picture)
        paths.append(picture)
    assert similarities(frame_signatures(grey), picture_signatures(paths)).shape == (11, 2)


def test_layout_search_finds_a_slide_shown_beside_the_speaker():
    slides = [slide_picture(f"Slide {n}") for n in range(3)]
    frame = Image.new("L", (256, 144), 70)
    frame.paste(slides[1].convert("L").resize((192, 108)), (6, 20))
    pictures = np.stack([signature(s) for s in slides])
    (box,) = find_layouts([frame] * 4, pictures, 16 / 9, 0.6)
    assert overlap(box, (6, 20, 198, 128)) > 0.85
    seen = similarities(frame_signatures([frame], box), pictures)[0]
    assert seen.argmax() == 1 and seen[1] > 0.9


def overlap(a, b) -> float:
    """Intersection over union of two boxes."""
    w = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1])
    return w * h / (area - w * h)
