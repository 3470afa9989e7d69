"""PPTX decks (python-pptx): titles, bullets with levels, tables, notes, hidden slides.

A PPTX is a zip archive, so it is checked against size and compression-ratio limits
before python-pptx unpacks it: a small file must not be able to expand into gigabytes.
"""

import shutil
import struct
import subprocess
import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO

from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pptx.exc import PackageNotFoundError

from pipeline.core.errors import StageFailure
from pipeline.core.text import markdown_table
from pipeline.schema import Bullet, Slide

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # encrypted Office files and binary .ppt
MB = 1024 * 1024
SMALL_MEMBER = MB  # members below this may compress as well as they like (XML does)
CHUNK = 64 * 1024
LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature ... file name length, extra length


def refused(path: Path, why: str) -> StageFailure:
    return StageFailure(f"{why} (zip bomb?); refused before unpacking", path)


def check_declared(
    path: Path, members: list[zipfile.ZipInfo], max_unpacked: int, max_ratio: float
) -> None:
    unpacked = sum(m.file_size for m in members)
    if unpacked > max_unpacked:
        raise refused(
            path,
            f"PPTX would unpack to {unpacked / MB:.1f} MB, over the {max_unpacked / MB:.0f} MB "
            "limit",
        )
    for member in members:
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > SMALL_MEMBER and ratio > max_ratio:
            raise refused(
                path,
                f"PPTX member {member.filename} expands {ratio:.0f}x, over the "
                f"{max_ratio:.0f}x limit",
            )


def inflated_size(handle: BinaryIO, member: zipfile.ZipInfo, limit: int) -> int:
    """What the member's data really decompresses to, counted in bounded chunks and up
    to `limit` + 1 bytes: zipfile stops at the declared size, but decompresses all
    the data in one call first, so a header that lies takes gigabytes of memory."""
    handle.seek(member.header_offset)
    signature, name_length, extra_length = LOCAL_HEADER.unpack(handle.read(LOCAL_HEADER.size))
    if signature != zipfile.stringFileHeader:
        raise zipfile.BadZipFile(f"bad local header of {member.filename}")
    handle.seek(name_length + extra_length, 1)
    if member.compress_type == zipfile.ZIP_STORED:
        return member.compress_size
    if member.compress_type != zipfile.ZIP_DEFLATED:
        raise zipfile.BadZipFile(f"{member.filename}: compression method {member.compress_type}")
    inflater, left, total = zlib.decompressobj(-zlib.MAX_WBITS), member.compress_size, 0
    while left > 0 and not inflater.eof and total <= limit:
        data = handle.read(min(CHUNK, left))
        if not data:
            break
        left -= len(data)
        while data and total <= limit:
            total += len(inflater.decompress(data, CHUNK))
            data = inflater.unconsumed_tail
    return total


def check_archive(path: Path, max_unpacked: int, max_ratio: float) -> None:
    """Refuse a PPTX that is encrypted, not a zip, or would unpack too far: by the sizes
    its headers declare, then by what each member's data really decompresses to."""
    with path.open("rb") as handle:
        if handle.read(len(OLE_MAGIC)) == OLE_MAGIC:
            raise StageFailure(
                "PPTX is encrypted (password protected) or an old binary .ppt; "
                "save it unprotected as .pptx or export a PDF",
                path,
            )
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
        check_declared(path, members, max_unpacked, max_ratio)
        with path.open("rb") as handle:
            for member in members:
                if inflated_size(handle, member, member.file_size) > member.file_size:
                    raise refused(
                        path,
                        f"PPTX member {member.filename} holds more than the "
                        f"{member.file_size / MB:.1f} MB its header declares",
                    )
    except (zipfile.BadZipFile, zlib.error, struct.error, OSError) as err:
        raise StageFailure(f"cannot open PPTX (corrupt or not a PPTX): {err}", path) from err


def _walk(shapes):
    """Every shape, looking inside groups."""
    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from _walk(shape.shapes)
        else:
            yield shape


def _notes(slide) -> str:
    if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
        return slide.notes_slide.notes_text_frame.text.strip()
    return ""


def read_slide(slide, index: int) -> Slide:
    title_shape = slide.shapes.title
    title = title_shape.text.strip() if title_shape is not None else ""
    # Shape proxies are rebuilt on each access, so compare ids, not identity.
    title_id = title_shape.shape_id if title_shape is not None else None
    bullets, tables, images = [], [], 0
    for shape in _walk(slide.shapes):
        if shape.shape_id == title_id:
            continue
        if shape.has_text_frame:
            bullets += [
                Bullet(text=p.text.strip(), level=p.level)
                for p in shape.text_frame.paragraphs
                if p.text.strip()
            ]
        elif getattr(shape, "has_table", False) and shape.has_table:
            rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
            if rows:
                tables.append(markdown_table(rows))
        if shape.shape_type == MSO_SHAPE_TYPE.PICTURE:
            images += 1
    return Slide(
        index=index,
        title=title,
        text="\n".join(b.text for b in bullets),
        bullets=bullets,
        tables=tables,
        images=images,
        notes=_notes(slide),
        hidden=slide._element.get("show") == "0",  # python-pptx has no public accessor
    )


def read_pptx(path: Path) -> list[Slide]:
    """Slides of an archive that passed `check_archive`."""
    try:
        presentation = Presentation(str(path))
        return [read_slide(s, i) for i, s in enumerate(presentation.slides, start=1)]
    except PackageNotFoundError as err:
        raise StageFailure(f"cannot read PPTX: {err}", path) from err
    except Exception as err:  # a damaged package or another Office file raises anything
        raise StageFailure(
            f"cannot read PPTX (damaged, or not a presentation): {type(err).__name__}: {err}",
            path,
        ) from err


def libreoffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def convert_to_pdf(path: Path, out_dir: Path, timeout_s: float) -> Path:
    """The deck as PDF via headless LibreOffice, in `out_dir`."""
    binary = libreoffice()
    if binary is None:
        raise StageFailure("LibreOffice (soffice) is not installed", path)
    with tempfile.TemporaryDirectory(prefix="talk2article-lo-") as profile:
        # A private profile: a desktop LibreOffice that is running would otherwise
        # hold the lock and the headless call would silently do nothing.
        command = [
            binary, f"-env:UserInstallation=file://{profile}", "--headless",
            "--convert-to", "pdf", "--outdir", str(out_dir), str(path),
        ]  # fmt: skip
        try:
            subprocess.run(command, capture_output=True, timeout=timeout_s, check=True)
        except (subprocess.SubprocessError, OSError) as err:
            raise StageFailure(f"LibreOffice could not convert the deck: {err}", path) from err
    pdf = out_dir / f"{path.stem}.pdf"
    if not pdf.exists():
        raise StageFailure("LibreOffice wrote no PDF", path)
    return pdf
