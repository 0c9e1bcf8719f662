"""To the operating system a running Python program is a process: an id, an address space, a
table of open files. Its threads are separate tasks that the kernel schedules, all inside that
one process."""

import os
import subprocess
import sys
import threading

import pytest


def run_threads(count, work):
    """Run `work` in `count` threads that all wait at a barrier with the caller, so that every
    one of them is alive at the same moment; join them whatever happens."""
    barrier = threading.Barrier(count + 1, timeout=10)
    results = []

    def body():
        results.append(work())
        barrier.wait()

    threads = [threading.Thread(target=body) for _ in range(count)]
    try:
        for thread in threads:
            thread.start()
        barrier.wait()
    except BaseException:
        barrier.abort()  # release the threads that are waiting, then let the error through
        raise
    finally:
        for thread in threads:
            if thread.ident is not None:  # started, so it can be joined
                thread.join(10)
    return results


def test_what_threads_share_with_their_process_and_what_they_do_not():
    """A thread is not a new program: threads share the process's memory, its open files and its
    process id. But the kernel schedules each thread on its own, as a task with an id of its
    own, which threading.get_native_id() returns. Ids are reused only after a thread exits, and
    the barrier keeps all the threads here alive at the same moment. Each of three started
    threads and the main one reports its pid and its native id."""
    reports = [*run_threads(3, lambda: (os.getpid(), threading.get_native_id()))]
    reports.append((os.getpid(), threading.get_native_id()))
    distinct = (len({pid for pid, _ in reports}), len({native for _, native in reports}))
    assert distinct == (1, 4)  # one process, four kernel tasks


CHILD_IDS = """
import os, threading
ids = {"main": threading.get_native_id(), "ident": threading.get_ident()}
worker = threading.Thread(target=lambda: ids.update(worker=threading.get_native_id()))
worker.start()
worker.join()
print(" ".join(name for name, number in ids.items() if number == os.getpid()))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread ids are pids on Linux")
def test_where_the_main_threads_kernel_id_comes_from():
    """Linux implements threads and processes with the same kind of kernel task. A process is
    created together with its first task, and the id the kernel gives that task is the one the
    whole process is known by; the threads started later get new ids of their own.
    threading.get_ident() is another number altogether: the C library's handle for the thread,
    an address in memory. A fresh interpreter names which of three numbers equal its pid: its
    main thread's native id, its get_ident(), and the native id of a thread it starts. (Fresh,
    because in a child made by os.fork the thread that called fork becomes the main one, and
    before 3.14 its native_id still held the value from the parent.)"""
    done = subprocess.run(
        [sys.executable, "-c", CHILD_IDS], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["main"]  # the first task, the one the process is named after


def test_a_child_process_gets_only_the_descriptors_it_is_handed(tmp_path):
    """A new process gets a copy of its parent's descriptor table, but subprocess closes every
    descriptor above 2 in the child (close_fds, on by default) except those listed in pass_fds.
    The child checks whether the number it was told still refers to an open file."""
    code = (
        "import os, sys\n"
        "try:\n"
        "    os.fstat(int(sys.argv[1]))\n"
        "    print('open')\n"
        "except OSError:\n"
        "    print('closed')\n"
    )
    fd = os.open(tmp_path / "shared.txt", os.O_CREAT | os.O_WRONLY)
    try:
        seen = []
        for passed in ((), (fd,)):
            command = [sys.executable, "-c", code, str(fd)]
            done = subprocess.run(
                command, pass_fds=passed, capture_output=True, text=True, check=True
            )
            seen.append(done.stdout.strip())
    finally:
        os.close(fd)
    assert seen == ["closed", "open"]  # only the passed descriptor survives into the child


CHILD_SWITCHES = """
import time

def voluntary_switches():
    with open("/proc/thread-self/status") as status:
        for line in status:
            if line.startswith("voluntary_ctxt_switches:"):
                return int(line.split()[1])

slept = computed = 0
for _ in range(10):
    before = voluntary_switches()
    time.sleep(0.001)
    slept += voluntary_switches() > before
    before = voluntary_switches()
    sum(range(20_000))
    computed += voluntary_switches() > before
print(slept, computed)
"""


@pytest.mark.skipif(
    not os.path.exists("/proc/thread-self/status"),
    reason="the kernel's per-thread counts of context switches are Linux's /proc/thread-self",
)
def test_what_sleeping_and_computing_do_to_the_voluntary_switch_count():
    """The kernel counts, for each thread, how often it stopped running. A voluntary switch is
    one the thread asked for by blocking: a sleep, a read with nothing to read, a lock held by
    someone else; the kernel then runs something else and wakes it later. A thread that only
    computes is switched out only when the scheduler decides (its time slice used up, a more
    urgent task woken), and that counts as involuntary. A
    fresh single-threaded child does ten short sleeps and ten short sums, and counts how many
    of each moved its voluntary count."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD_SWITCHES], capture_output=True, text=True, check=True
    )
    slept, computed = (int(word) for word in done.stdout.split())
    assert (slept, computed) == (10, 0)  # every sleep blocks; a sum never does


CHILD_MAPS = """
import ctypes, sys

def mapping(address):
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split(maxsplit=5)
            low, high = (int(end, 16) for end in fields[0].split("-"))
            if low <= address < high:
                name = fields[5].strip() if len(fields) == 6 else ""
                return "file" if name.startswith("/") else name or "anonymous"
    return "unmapped"

libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
environment = ctypes.c_void_p.in_dll(libc, "environ").value
small_object = object()
places = [id(None), id(small_object), libc.malloc(64), environment]
print(" ".join(mapping(address) for address in places))
"""


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or sys.implementation.name != "cpython",
    reason="/proc/self/maps is Linux's, and id() is an address only in CPython",
)
def test_which_mapping_holds_each_kind_of_memory():
    """A process's address space is a list of mappings, which /proc/self/maps shows: the
    program's files (the interpreter, libpython, libc), anonymous memory the process asked for
    with mmap(), and regions the kernel names itself: [heap], grown with brk() for the C
    library's small malloc() blocks, and [stack], at whose top the kernel put the program's
    arguments and environment. Python's own small objects live in arenas it maps itself, and
    objects built into the interpreter, such as None, lie in its file's data. A fresh child
    names the mapping of four addresses."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONMALLOC"}
    env["PYTHONCOERCECLOCALE"] = "0"  # so that start-up does not set LC_CTYPE in the environment
    done = subprocess.run(
        [sys.executable, "-c", CHILD_MAPS], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.split() == [
        "file",
        "anonymous",
        "[heap]",
        "[stack]",
    ]  # None, an object, malloc, environ
