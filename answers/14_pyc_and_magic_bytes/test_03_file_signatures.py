"""Magic bytes: a file says what it is in its first (or last) bytes, whatever its name."""

import io
import mimetypes
import os
import struct
import sys
import zipfile

import pytest

PNG_SIGNATURE = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
SIGNATURES = [
    (PNG_SIGNATURE, "png"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"%PDF-", "pdf"),
    (b"PAR1", "parquet"),
]


def small_zip():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "hi")
    return buffer.getvalue()


def sniff(data):
    """What the `file` utility does, in miniature: look at the bytes, never at the name."""
    for magic, kind in SIGNATURES:
        if data.startswith(magic):
            return kind
    return "unknown"


@pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="Linux executables are ELF; macOS uses Mach-O, Windows PE",
)
def test_the_python_binary_is_an_elf_file():
    """The interpreter is itself a compiled C program, stored on Linux in the Executable and
    Linkable Format. Its signature, one non-printable byte and then the format's initials, is
    how execve() knows it can load the file. (sys.executable may be a symlink, as in a
    virtualenv, so resolve it first.)"""
    with open(os.path.realpath(sys.executable), "rb") as binary:
        head = binary.read(4)
    if head.startswith(b"#!"):
        pytest.skip("sys.executable is a wrapper script here, not the interpreter binary")
    assert head == b"\x7fELF"


def test_the_png_signature_is_broken_by_newline_translation():
    """The signature embeds \\r\\n and a lone \\n on purpose: a text-mode transfer that turns
    CRLF into LF (or LF into CRLF) changes the first eight bytes, so the damage is detected before
    any image data is read. The .pyc magic uses the same trick."""
    assert len(PNG_SIGNATURE.replace(b"\r\n", b"\n")) == 7


def test_zipfile_writes_the_local_header_signature_first():
    """Every member of a zip starts with a local file header whose signature is 'PK' (for Phil
    Katz) followed by two small numbers. An archive normally starts with its first member."""
    assert small_zip()[:4] == b"PK\x03\x04"


def test_a_zip_is_really_read_from_its_end():
    """Readers start from the end-of-central-directory record, the last 22 bytes of an archive
    without a comment. Its signature is PK followed by two small numbers, different from a
    member's, so the two records cannot be confused."""
    assert small_zip()[-22:-18] == b"PK\x05\x06"


def test_a_zip_still_opens_with_a_shebang_glued_in_front():
    """Because the directory is found from the end, bytes prepended to a zip do not stop
    zipfile. zipapp (.pyz) files use this: a #! line, then a zip that Python runs."""
    script = b"#!/usr/bin/env python3\n" + small_zip()
    with zipfile.ZipFile(io.BytesIO(script)) as archive:
        assert archive.read("hello.txt") == b"hi"


def test_the_name_says_one_thing_and_the_bytes_another(tmp_path):
    """mimetypes guesses from the extension only; the bytes are what they are. A PDF saved as
    notes.txt is still a PDF to anything that reads its signature."""
    path = tmp_path / "notes.txt"
    path.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")
    by_name = mimetypes.MimeTypes().guess_type(path.name)[0]
    assert (by_name, sniff(path.read_bytes())) == ("text/plain", "pdf")


def parquet_shaped(columns, footer):
    """The outline of a Parquet file: magic, column data, footer metadata, the footer's length as
    a little-endian uint32, magic again. (Real footers are Thrift-encoded metadata.)"""
    return b"PAR1" + columns + footer + struct.pack("<I", len(footer)) + b"PAR1"


def test_a_parquet_reader_finds_the_footer_from_the_last_eight_bytes():
    """A Parquet writer streams the column data first and only knows the metadata at the end,
    so the file ends (as it starts) with PAR1, right after the metadata's length. A reader seeks
    to the end, reads those 8 bytes and jumps straight to the metadata without scanning the
    data. The length is little-endian."""
    data = parquet_shaped(b"\x01\x02\x03", b"metadata")
    assert data[-8:-4] == b"\x08\x00\x00\x00"
