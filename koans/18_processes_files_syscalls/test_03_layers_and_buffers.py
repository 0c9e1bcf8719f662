"""open() is three objects stacked on a file descriptor: a text layer that encodes and decodes,
a buffer that collects bytes in memory, and a raw layer that makes the system calls. What you
wrote is in the file only once the buffer has been handed to the kernel."""

import _io
import io
import os

import pytest


def test_open_in_text_mode_stacks_three_layers(tmp_path):
    """The file object open() returns in text mode is the top of a stack: it turns str into
    bytes and hands them to the object in its .buffer attribute, which collects them in memory
    and is specialised by direction (reading, writing, or both); that one's .raw attribute is
    the bottom layer, whose methods are thin wrappers around read() and write() system calls
    on one descriptor. All three classes live in the io module."""
    with open(tmp_path / "log.txt", "w", encoding="utf-8") as text:
        layers = (type(text).__name__, type(text.buffer).__name__, type(text.buffer.raw).__name__)
    assert layers == __


def test_binary_and_unbuffered_modes_drop_layers(tmp_path):
    """Binary mode has no text to encode, so open() returns the buffered layer itself; with
    buffering=0 there is no buffer either, and you get the raw layer: every call on it is one
    system call."""
    path = tmp_path / "data.bin"
    path.write_bytes(b"abc")
    with open(path, "rb") as buffered, open(path, "rb", buffering=0) as raw:
        assert (type(buffered).__name__, type(raw).__name__) == __


def test_where_the_builtin_open_is_implemented():
    """Python's I/O stack is written in C, in _io, a module built into the interpreter; io is
    the module you import, and builtins gets its open at start-up. A function written in
    Python carries its bytecode in __code__; a C function has none. Is any Python code between
    your call to open() and the C code that makes the open() system call?"""
    assert (open is io.open, io.open is _io.open, hasattr(open, "__code__")) == __


def test_text_write_counts_characters_and_os_write_counts_bytes(tmp_path):
    """A text file's write() returns how many characters it accepted; os.write() returns how
    many bytes the kernel took. In UTF-8 'é' is one character stored in two bytes."""
    path = tmp_path / "word.txt"
    with open(path, "w", encoding="utf-8") as text:
        characters = text.write("héllo")
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    try:
        written = os.write(fd, "héllo".encode())
    finally:
        os.close(fd)
    assert (characters, written) == __


def test_text_io_cannot_be_unbuffered(tmp_path):
    """The text layer is written to sit on a buffered stream: it encodes and decodes in chunks,
    and one character may take several bytes. So open() rejects buffering=0 in text mode as an
    invalid combination of argument values."""
    with pytest.raises(___):
        open(tmp_path / "log.txt", "w", buffering=0)  # noqa: SIM115  (it never opens)


def test_written_data_waits_in_the_buffer_until_flush(tmp_path):
    """A small write() only copies bytes into memory inside the process; the file on disk, which
    os.path.getsize asks the kernel about, has not changed yet. flush() makes the write()
    system call."""
    path = tmp_path / "log.txt"
    with open(path, "w", encoding="utf-8") as text:
        text.write("abc")
        before = os.path.getsize(path)
        text.flush()
        after = os.path.getsize(path)
    assert (before, after) == __


def test_line_buffering_flushes_everything_once_a_newline_is_written(tmp_path):
    """With buffering=1 a text file is line buffered: a write() whose text contains a newline
    flushes the buffer, all of it, the characters after that newline included. A write
    without a newline waits in the buffer as usual. (newline="\\n" keeps a newline one byte on
    every system: Windows would otherwise write it as two.)"""
    path = tmp_path / "log.txt"
    sizes = []
    with open(path, "w", encoding="utf-8", buffering=1, newline="\n") as text:
        for piece in ("ab", "c\nde", "f"):
            text.write(piece)
            sizes.append(os.path.getsize(path))
    assert sizes == __


def test_a_write_bigger_than_the_buffer_goes_straight_to_the_kernel(tmp_path):
    """A buffered writer holds at most its buffer size in memory. When a write does not fit beside
    what it holds, it flushes what it holds; a block larger than the whole buffer then goes
    straight to the kernel instead of being copied through memory."""
    path = tmp_path / "data.bin"
    sizes = []
    with open(path, "wb", buffering=16) as binary:
        binary.write(b"a" * 10)
        sizes.append(os.path.getsize(path))
        binary.write(b"b" * 100)
        sizes.append(os.path.getsize(path))
    assert sizes == __


def test_the_order_in_which_os_write_and_a_buffered_write_reach_the_file(tmp_path):
    """os.write on the file's descriptor goes to the kernel at once, while the file object's own
    write is still sitting in its buffer. Closing flushes the buffer afterwards, so the file
    holds the two pieces in the order they reached the kernel."""
    path = tmp_path / "order.txt"
    with open(path, "wb") as binary:
        binary.write(b"first ")
        os.write(binary.fileno(), b"second ")
    assert path.read_bytes() == __


def test_a_buffered_reader_reads_ahead(tmp_path):
    """Asking a buffered file for one byte makes one read() system call for a whole buffer's
    worth, and later reads are served from memory. So the object's position (tell) and the
    descriptor's position in the kernel (lseek) part ways."""
    path = tmp_path / "data.bin"
    path.write_bytes(bytes(100))
    with open(path, "rb") as binary:
        binary.read(1)
        positions = (binary.tell(), os.lseek(binary.fileno(), 0, os.SEEK_CUR))
    assert positions == __
    assert io.DEFAULT_BUFFER_SIZE > 100


def write_calls():
    """How many write-family system calls this thread has made so far (syscw in Linux's
    /proc/thread-self/io). Reading that file is itself a read() call, so it does not count."""
    with open("/proc/thread-self/io", encoding="ascii") as counters:
        for line in counters:
            if line.startswith("syscw:"):
                return int(line.split()[1])
    raise LookupError("no syscw line")


@pytest.mark.skipif(
    not os.path.exists("/proc/thread-self/io"),
    reason="the kernel's per-thread count of system calls is Linux's /proc/thread-self/io",
)
def test_how_many_system_calls_a_thousand_small_writes_make(tmp_path):
    """A system call costs a switch into the kernel and back, far more than copying a byte in
    memory, and that is why the buffered layer exists. The kernel counts the write-family
    system calls each thread makes, so the difference can be counted instead of timed: a
    thousand one-byte writes through a buffered file, then its flush, then a thousand one-byte
    os.write calls on a descriptor."""
    with open(tmp_path / "buffered.bin", "wb") as buffered:
        start = write_calls()
        for _ in range(1000):
            buffered.write(b"x")
        after_writes = write_calls()
        buffered.flush()
        after_flush = write_calls()
    fd = os.open(tmp_path / "raw.bin", os.O_CREAT | os.O_WRONLY)
    try:
        before_raw = write_calls()
        for _ in range(1000):
            os.write(fd, b"x")
        after_raw = write_calls()
    finally:
        os.close(fd)
    counts = (after_writes - start, after_flush - after_writes, after_raw - before_raw)
    assert counts == __
