"""Every open file, pipe or socket is known to the kernel by a small integer, a file
descriptor: an index into the process's table of open files. The os module works at this level,
one system call per function."""

import os
import sys

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="these koans use POSIX descriptors")


def test_standard_streams_are_descriptors_zero_one_and_two():
    """A process starts with three descriptors already open: standard input, output and error,
    by a convention that every Unix program follows. sys.__stdin__, sys.__stdout__ and
    sys.__stderr__ are the streams Python built on them at start-up (a test runner may replace
    sys.stdout while capturing; the dunder names keep the originals)."""
    streams = (sys.__stdin__, sys.__stdout__, sys.__stderr__)
    if None in streams:
        pytest.skip("this process was started without all three standard streams")
    assert tuple(stream.fileno() for stream in streams) == __


def test_a_new_descriptor_is_the_lowest_free_number(tmp_path):
    """POSIX requires open() to return the lowest descriptor number not in use. Close one and the
    next file opened takes its number again."""
    first = os.open(tmp_path / "a.txt", os.O_CREAT | os.O_WRONLY)
    os.close(first)
    second = os.open(tmp_path / "b.txt", os.O_CREAT | os.O_WRONLY)
    try:
        assert (second == first) == __
    finally:
        os.close(second)


def test_duplicated_descriptors_share_one_file_position(tmp_path):
    """os.dup makes a second descriptor for the same open file, and the position lives with the
    open file, not with the number: reading through one moves the other. A second os.open of
    the same path is a new open file with a position of its own."""
    path = tmp_path / "data.bin"
    path.write_bytes(b"0123456789")
    fd = os.open(path, os.O_RDONLY)
    twin = os.dup(fd)
    separate = os.open(path, os.O_RDONLY)
    try:
        os.read(fd, 2)
        positions = (os.lseek(twin, 0, os.SEEK_CUR), os.lseek(separate, 0, os.SEEK_CUR))
    finally:
        for descriptor in (fd, twin, separate):
            os.close(descriptor)
    assert positions == __


def test_new_descriptors_are_not_inherited_by_child_processes(tmp_path):
    """Since Python 3.4 (PEP 446) every descriptor Python creates has the close-on-exec flag, so a
    program started with exec does not silently inherit your open files. You opt in per
    descriptor with os.set_inheritable or subprocess's pass_fds."""
    fd = os.open(tmp_path / "secret.txt", os.O_CREAT | os.O_WRONLY)
    try:
        assert os.get_inheritable(fd) == __
    finally:
        os.close(fd)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_the_kernel_shows_each_descriptor_as_a_link_in_proc(tmp_path):
    """The descriptor table belongs to the kernel, and Linux shows it in /proc/self/fd: one
    symbolic link per open descriptor, named by its number, pointing at what it refers to."""
    fd = os.open(tmp_path / "notes.txt", os.O_CREAT | os.O_WRONLY)
    try:
        target = os.readlink(f"/proc/self/fd/{fd}")
    finally:
        os.close(fd)
    assert os.path.basename(target) == __


def test_a_read_returns_what_is_there_not_what_was_asked_for():
    """A pipe is a buffer inside the kernel with a descriptor at each end. os.read(fd, n) asks
    for at most n bytes: it blocks only while nothing at all is available, then returns what
    it has."""
    reader, writer = os.pipe()
    try:
        os.write(writer, b"hi")
        assert os.read(reader, 100) == __
    finally:
        os.close(reader)
        os.close(writer)


def test_closing_the_writing_end_is_end_of_file_for_the_reader():
    """A reader cannot know that no more data will come while a writing end is still open. Once
    every writing descriptor is closed, a read on an empty pipe no longer waits: it returns at
    once, and what it returns is how end of file looks at the system-call level."""
    reader, writer = os.pipe()
    os.close(writer)
    try:
        assert os.read(reader, 100) == __
    finally:
        os.close(reader)
