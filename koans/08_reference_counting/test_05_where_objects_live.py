"""Where objects live in the process: which allocation a line made, and which memory mapping
holds an object.

tracemalloc hooks Python's memory allocators and remembers where each block was allocated.
On Linux, /proc/self/maps lists every mapping of the process's address space: its address
range, its permissions and, if a file backs it, that file's path; the kernel names the brk
heap "[heap]" and the main thread's stack "[stack]".
"""

import ctypes
import linecache
import os
import sys
import sysconfig
import tracemalloc

import pytest

linux_only = pytest.mark.skipif(
    not os.path.exists("/proc/self/maps"),
    reason="/proc/self/maps is Linux's view of a process's memory; other systems have no such file",
)


def make_buffer():
    return bytearray(10**6)


def mappings():
    """(start, end, path) for each line of /proc/self/maps; path is "" for anonymous memory."""
    rows = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split(maxsplit=5)
            start, end = (int(bound, 16) for bound in fields[0].split("-"))
            rows.append((start, end, fields[5].strip() if len(fields) > 5 else ""))
    return rows


def region(address):
    """Name the mapping that holds `address`: "the interpreter" for the file that holds
    CPython's own machine code and static data (the python executable, or libpython where the
    executable links to it); the kernel's own names such as "[heap]" and "[stack]"; "anonymous"
    for memory mapped with no file behind it, including memory a program has labelled (Linux
    5.17+ shows such a label as "[anon:label]"); "another file" for anything else."""
    interpreter = os.path.realpath(sys.executable)
    for start, end, path in mappings():
        if start <= address < end:
            if path == interpreter or os.path.basename(path).startswith("libpython"):
                return "the interpreter"
            if path.startswith("[anon:"):
                return "anonymous"
            if path.startswith("["):
                return path
            return "another file" if path else "anonymous"
    return "not mapped"


def address_of(buffer):
    """The address of the first byte of a writable buffer."""
    return ctypes.addressof(ctypes.c_char.from_buffer(buffer))


def test_tracemalloc_charges_a_block_to_the_line_that_allocated_it():
    """While tracing, every allocation through Python's allocators records the traceback at that
    moment, by default one frame deep: the line that was running when the memory was asked for.
    A snapshot's statistics by line add up the blocks still alive per line."""
    if tracemalloc.is_tracing():
        pytest.skip("tracemalloc is already tracing here, perhaps with more than one frame")
    tracemalloc.start()
    try:
        kept = make_buffer()
        snapshot = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    assert len(kept) == 10**6
    biggest = max(snapshot.statistics("lineno"), key=lambda stat: stat.size)
    frame = biggest.traceback[0]
    assert linecache.getline(frame.filename, frame.lineno).strip() == __


@linux_only
@pytest.mark.skipif(
    os.environ.get("PYTHONMALLOC", "").startswith(("malloc", "mimalloc")),
    reason="PYTHONMALLOC here tells CPython to take every object from another allocator "
    "instead of pymalloc's arenas",
)
def test_none_is_compiled_into_the_interpreter_and_a_new_object_is_not():
    """None, True, False and the built-in types are static C variables in CPython's source,
    compiled into the interpreter's binary, so the loader maps them from that file along with
    the machine code; since 3.11 the small ints are static objects too. An object made at run
    time comes from pymalloc, which carves small objects out of arenas it maps from the kernel
    with no file behind them."""
    where = (region(id(None)), region(id(7)), region(id(object())))
    if sys.version_info >= (3, 11):
        assert where == __
    else:
        assert where == __


@linux_only
@pytest.mark.skipif(
    os.environ.get("PYTHONMALLOC", "").startswith("mimalloc")
    or bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
    reason="here Python's allocator is mimalloc (PYTHONMALLOC=mimalloc, or a free-threaded "
    "build), which serves large buffers itself and may keep freed memory mapped for reuse",
)
def test_a_huge_buffer_gets_a_mapping_of_its_own():
    """C malloc serves a request beyond its mmap threshold (128 KiB at first, adjusting itself up
    to 32 MiB on 64-bit glibc) with a fresh anonymous mapping from the kernel, and `free` hands
    that mapping straight back, while memory freed inside the heap or a pymalloc arena usually
    stays mapped, for reuse. `returned` is the share of the buffer's size by which the
    process's mapped address space shrank when the buffer was freed."""
    size = 64 * 2**20
    big = bytearray(size)
    kind = region(address_of(big))
    mapped_before = sum(end - start for start, end, _ in mappings())
    del big
    mapped_after = sum(end - start for start, end, _ in mappings())
    returned = round((mapped_before - mapped_after) / size, 1)
    assert (kind, returned) == __
