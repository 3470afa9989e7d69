import numpy as np
from PIL import Image, ImageDraw

from pipeline.frames import (
    distinctive_similarities,
    has_video,
    picture_signatures,
    sample_frames,
    signature,
    similarities,
)
from tests.helpers import DATA, EXAMPLE


def slide_picture(text: str, size=(640, 360)) -> Image.Image:
    picture = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(picture)
    draw.rectangle((40, 30, 600, 80), fill=(30, 60, 160))
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


def test_video_detection():
    assert has_video(EXAMPLE / "talk.mp4")
    assert not has_video(DATA / "jfk.flac")


def test_frames_of_the_example_match_its_rendered_pages(tmp_path):
    times, frames = sample_frames(EXAMPLE / "talk.mp4", 10.0)
    assert times[:3] == [0.0, 10.0, 20.0] and len(times) == 11
    paths = []
    for number in range(2):
        picture = tmp_path / f"{number}.png"
        slide_picture(f"slide {number}").save(picture)
        paths.append(picture)
    assert similarities(frames, picture_signatures(paths)).shape == (11, 2)
