"""Three ways to start a child: fork, spawn and forkserver.

*fork* copies the running parent (fast; the child inherits everything, threads' locks
included). *spawn* starts a fresh interpreter that imports the parent's main module again and
unpickles its instructions (slow, safe, available everywhere). *forkserver* starts one clean
server process the first time it is needed and forks each child from it. The default depends
on the platform and on the Python version.
"""

import subprocess
import sys
import textwrap

import pytest

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="start methods and their default differ by platform: Windows has only spawn, and "
    "macOS defaults to spawn since Python 3.8",
)


def run_script(path, source, *args):
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(path), *args],
        capture_output=True, text=True, timeout=120, check=False,
    )


GLOBAL_SEEN_BY_A_CHILD = """
import multiprocessing
import sys

GREETING = "from the import"


def report(queue):
    queue.put(GREETING)


if __name__ == "__main__":
    GREETING = "from __main__"  # rebound in the parent, after the import, before start()
    methods = sys.argv[1:] or [None]  # None: the default context
    for method in methods:
        context = multiprocessing.get_context(method)
        queue = context.SimpleQueue()
        child = context.Process(target=report, args=(queue,))
        child.start()
        print(context.get_start_method(), queue.get(), sep=": ", flush=True)
        child.join()
"""


@linux_only
def test_what_a_child_sees_of_a_global_rebound_before_start(tmp_path):
    """The script rebinds a global in its `__main__` block, after the module's top level ran
    and before `start()`, and each child reports the value it sees. A forked child is a copy
    of the parent at `start()`. A spawned child runs a fresh interpreter that imports the
    script again (as `__mp_main__`). A forkserver child is forked from a server process that
    was started clean and imports the script the same way. What does each child print?"""
    methods = ["fork", "forkserver", "spawn"]
    result = run_script(tmp_path / "greeting.py", GLOBAL_SEEN_BY_A_CHILD, *methods)
    assert result.stdout.splitlines() == __


@linux_only
def test_the_default_start_method_on_linux_changed_in_3_14(tmp_path):
    """A context got without naming a method uses the platform's default, chosen when the
    interpreter starts (so the script runs in a fresh one). On Linux that stayed the oldest
    and fastest method through 3.13. Copying a process that has threads can deadlock the
    child, so Python 3.12 began warning about it, and 3.14 made a safer method the default.
    Which method does the default context use, and what does its child see of the global?"""
    result = run_script(tmp_path / "greeting.py", GLOBAL_SEEN_BY_A_CHILD)
    if sys.version_info >= (3, 14):
        assert result.stdout.splitlines() == __
    else:
        assert result.stdout.splitlines() == __


def test_spawn_runs_the_main_module_again_under_another_name(tmp_path):
    """To rebuild the parent's functions, a spawned child imports the parent's main script
    again, this time under a module name of its own instead of `"__main__"`, so everything at
    the top level runs a second time, in the child. The `if __name__ == "__main__":` guard
    keeps the child from starting children of its own."""
    result = run_script(
        tmp_path / "spawning.py",
        """
        import multiprocessing

        print(__name__, flush=True)
        if __name__ == "__main__":
            child = multiprocessing.get_context("spawn").Process(target=print, args=("child",))
            child.start()
            child.join()
        """,
    )
    assert result.stdout.split() == __


def test_without_the_main_guard_the_spawned_child_dies_on_import(tmp_path):
    """Without the guard, the child's import of the script reaches `start()` again. A child
    still bootstrapping refuses to start processes (that would fork-bomb), raises while
    importing, and dies; the parent only sees its exit code."""
    result = run_script(
        tmp_path / "unguarded.py",
        """
        import multiprocessing

        child = multiprocessing.get_context("spawn").Process(target=print, args=("child",))
        child.start()
        child.join()
        print(__name__, child.exitcode, flush=True)
        """,
    )
    assert (result.stdout.split(), "RuntimeError" in result.stderr) == __
