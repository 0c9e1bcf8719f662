"""Three ways to start a child: fork, spawn and forkserver.

*fork* copies the running parent (fast; the child inherits everything, threads' locks
included). *spawn* starts a fresh interpreter that imports the parent's main module again and
unpickles its instructions (slow, safe, available everywhere). *forkserver* starts one clean
server process early and forks each child from it. The default depends on the platform and
on the Python version.
"""

import concurrent.futures
import multiprocessing
import subprocess
import sys
import textwrap

import pytest

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="start methods and their default differ by platform: Windows has only spawn, and "
    "macOS defaults to spawn since Python 3.8",
)


def run_script(path, source):
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=120, check=False
    )


@linux_only
def test_linux_offers_every_start_method():
    """`get_all_start_methods()` lists the start methods this platform supports (the default
    first). Linux supports all of them; sorted by name, which are they?"""
    assert sorted(multiprocessing.get_all_start_methods()) == ["fork", "forkserver", "spawn"]


@linux_only
def test_the_default_start_method_on_linux_through_python_3_13():
    """The context you get without naming a method uses the platform's default. On Linux that
    stayed the oldest and fastest method through 3.13. Copying a process that has threads can
    deadlock the child, so Python 3.12 began warning about it, and 3.14 moved the default to a
    safer method."""
    if sys.version_info >= (3, 14):
        pytest.skip("Python 3.14 made forkserver the default start method on Linux")
    assert multiprocessing.get_context().get_start_method() == "fork"


def test_a_spawned_child_starts_a_fresh_interpreter():
    """A spawned child runs a new interpreter, started from scratch like any `python` command.
    The pool pickles the function `sys.getswitchinterval` by name and calls it in the
    child."""
    spawn = multiprocessing.get_context("spawn")
    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
            seen_in_child = pool.submit(sys.getswitchinterval).result(timeout=60)
    finally:
        sys.setswitchinterval(old)
    assert seen_in_child == 0.005


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
    assert result.stdout.split() == ["__main__", "__mp_main__", "child"]


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
    assert (result.stdout.split(), "RuntimeError" in result.stderr) == (["__main__", "1"], True)
