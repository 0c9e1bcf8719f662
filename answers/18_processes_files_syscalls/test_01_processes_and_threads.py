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


def test_every_thread_sees_the_same_process_id():
    """A thread is not a new program: threads share the process's memory, its open files and its
    process id. Asking for the pid from several threads asks the same process each time."""
    pids = [*run_threads(3, os.getpid), os.getpid()]
    assert len(set(pids)) == 1  # one process, one pid


def test_each_thread_is_a_separate_task_for_the_kernel():
    """The kernel schedules each thread on its own and gives it an id of its own, which
    threading.get_native_id() returns. Ids are reused only after a thread exits, so threads that
    are alive at the same moment (the barrier makes sure of that) all have different ids."""
    native_ids = [*run_threads(3, threading.get_native_id), threading.get_native_id()]
    assert len(set(native_ids)) == 4  # three started threads and the main one


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread ids are pids on Linux")
def test_on_linux_the_first_thread_is_named_after_its_process():
    """Linux implements threads and processes with the same kind of kernel task. A process is
    created together with its first task, and that task's id becomes the process id; the
    threads started later get new ids of their own."""
    main_id = threading.main_thread().native_id
    assert (main_id == os.getpid()) == True  # the first task's id is the pid


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
