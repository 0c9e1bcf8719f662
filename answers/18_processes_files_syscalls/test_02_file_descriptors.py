"""Every open file, pipe or socket is known to the kernel by a small integer, a file
descriptor: an index into the process's table of open files. The os module works at this level,
one system call per function."""

import os
import signal
import socket
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="these koans use POSIX descriptors")


def test_which_descriptors_the_standard_streams_use():
    """A process starts with three descriptors already open: standard input, output and error,
    by a convention that every Unix program follows. sys.__stdin__, sys.__stdout__ and
    sys.__stderr__ are the streams Python built on them at start-up (a test runner may replace
    sys.stdout while capturing; the dunder names keep the originals)."""
    streams = (sys.__stdin__, sys.__stdout__, sys.__stderr__)
    if None in streams:
        pytest.skip("this process was started without all three standard streams")
    assert tuple(stream.fileno() for stream in streams) == (0, 1, 2)  # stdin, stdout, stderr


def test_which_numbers_new_descriptors_get(tmp_path):
    """POSIX requires open() to return the lowest descriptor number not in use, so numbers are
    not handed out in ever-growing order: a closed number is free for the next open. Three
    files are opened, the first and the third closed, and two more opened; each of the two is
    found among the three numbers handed out before (the numbers in between may belong to
    descriptors this process already had)."""
    opened = [os.open(tmp_path / name, os.O_CREAT | os.O_WRONLY) for name in "abc"]
    os.close(opened[0])
    os.close(opened[2])
    fourth = os.open(tmp_path / "d", os.O_CREAT | os.O_WRONLY)
    fifth = os.open(tmp_path / "e", os.O_CREAT | os.O_WRONLY)
    try:
        assert [opened.index(fd) for fd in (fourth, fifth)] == [0, 2]  # freed ones, lowest first
    finally:
        for descriptor in (opened[1], fourth, fifth):
            os.close(descriptor)


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
    assert positions == (2, 0)  # the twin shares the position; the separate open does not


def test_which_descriptors_a_program_started_by_exec_inherits(tmp_path):
    """A descriptor marked close-on-exec is closed when the process runs a new program with
    exec; os.get_inheritable reports whether that mark is missing. Since Python 3.4 (PEP 446)
    os.open, os.pipe, os.dup, socket and open() create descriptors with the mark, so a
    program you start does not silently inherit your open files. os.dup2, which puts a
    duplicate at a number you choose, is the exception: it makes that number inheritable unless
    you pass inheritable=False, as the C function dup2 does."""
    fd = os.open(tmp_path / "secret.txt", os.O_CREAT | os.O_WRONLY)
    spare = os.open(tmp_path / "spare.txt", os.O_CREAT | os.O_WRONLY)
    twin = os.dup(fd)
    chosen = os.dup2(fd, spare)  # closes spare, then makes that number a duplicate of fd
    try:
        inheritable = [os.get_inheritable(d) for d in (fd, twin, chosen)]
    finally:
        for descriptor in (fd, twin, chosen):
            os.close(descriptor)
    assert inheritable == [False, False, True]  # only dup2 leaves the mark off


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_what_the_kernel_shows_for_each_descriptor_in_proc(tmp_path):
    """The descriptor table belongs to the kernel, and Linux shows it in /proc/self/fd: one
    symbolic link per open descriptor, named by its number. A descriptor refers to an open
    file, not to the name it was opened by; for a file on disk the kernel writes the link's
    target when you read it, from the directory entry the open file holds at that moment. An
    object with no path at all shows the kind of kernel object, a colon, and its inode number
    in brackets. Here a file is renamed while open; the koan keeps the file's last path
    component, and for the other two the part before the colon."""
    fd = os.open(tmp_path / "draft.txt", os.O_CREAT | os.O_WRONLY)
    os.rename(tmp_path / "draft.txt", tmp_path / "final.txt")
    reader, writer = os.pipe()
    left, right = socket.socketpair()
    try:
        file_link, *others = (
            os.readlink(f"/proc/self/fd/{number}") for number in (fd, reader, left.fileno())
        )
    finally:
        for descriptor in (fd, reader, writer):
            os.close(descriptor)
        left.close()
        right.close()
    kinds = [os.path.basename(file_link), *(target.split(":")[0] for target in others)]
    assert kinds == ["final.txt", "pipe", "socket"]  # the name it has now


def test_how_much_a_read_from_a_pipe_returns():
    """A pipe is a buffer inside the kernel with a descriptor at each end. os.read(fd, n) asks
    for at most n bytes: it blocks only while nothing at all is available, then returns what
    it has."""
    reader, writer = os.pipe()
    try:
        os.write(writer, b"hi")
        assert os.read(reader, 100) == b"hi"  # only the two bytes that were there
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
        assert os.read(reader, 100) == b""  # end of file
    finally:
        os.close(reader)


def test_sending_to_a_peer_that_closed_its_end():
    """When the other end of a pipe or a stream socket is closed, nobody can ever read what you
    send, and the kernel refuses the send with EPIPE. Before returning that error it sends the
    process the signal SIGPIPE, whose default action kills a program that did not expect it;
    CPython sets SIGPIPE to be ignored at start-up, so the error arrives as an exception, of
    the OSError subclass PEP 3151 gives to EPIPE."""
    left, right = socket.socketpair()
    right.close()
    try:
        with pytest.raises(BrokenPipeError):
            left.send(b"anyone there?")
    finally:
        left.close()


CHILD_SIGPIPE = """
import signal, socket
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # what a C program starts with
left, right = socket.socketpair()
right.close()
left.send(b"anyone there?")
print("still alive")
"""


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="SIGPIPE is a POSIX signal")
def test_what_sigpipe_does_to_a_process_that_does_not_ignore_it():
    """A signal's default action is decided by the kernel: for SIGPIPE it is to end the process
    at once, with no chance to clean up or print anything. That is how `yes | head -1` stops
    `yes`. The child below puts SIGPIPE back to its default and then sends to a closed peer.
    subprocess reports a child killed by signal N as the return code -N."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD_SIGPIPE], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (
        -signal.SIGPIPE,
        "",
    )  # killed by signal 13, printed nothing
