"""The warm server: one pytest session, a fresh child per run, and what must never leak or stick."""

from __future__ import annotations

import os
import signal
import time

import pytest
from koanrunner import course as course_model
from koanrunner import early
from koanrunner.running import Runner
from koanrunner.watch import InotifyWatcher
from runner_support import NUMBERS_FILE, STRINGS_FILE

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the warm server needs os.fork")

LEAK = '''import builtins
import gc


def test_nothing_is_left_over_from_an_earlier_run():
    """doc"""
    assert not hasattr(builtins, "koan_leak")
    builtins.koan_leak = True


def test_the_cyclic_collector_is_on_as_in_plain_pytest():
    """doc"""
    assert gc.isenabled()
'''


@pytest.fixture
def runner(course):
    with Runner(course.root, timeout=10) as r:
        yield r


def kinds(result):
    return [k["kind"] for k in result["koans"]]


def test_runs_share_one_server_and_never_its_module_state(course, runner):
    course.path("koans/01_basics/test_03_leak.py").write_text(LEAK, encoding="utf-8")
    first = runner.run("koans/01_basics/test_03_leak.py", [])
    server = runner.pid
    second = runner.run("koans/01_basics/test_03_leak.py", [])
    assert kinds(first) == kinds(second) == ["passed", "passed"]
    assert runner.pid == server
    assert kinds(runner.run(NUMBERS_FILE, [])) == ["blank", "blank"]
    assert (course.root / ".koans/logs/server.log").is_file()


def test_a_changed_conftest_starts_a_fresh_server(course, runner):
    assert kinds(runner.run(NUMBERS_FILE, [])) == ["blank", "blank"]
    server = runner.pid
    conftest = course.path("conftest.py")
    conftest.write_text(conftest.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert kinds(runner.run(NUMBERS_FILE, [])) == ["blank", "blank"]
    assert runner.pid != server


def test_a_broken_conftest_is_reported_never_taken_for_solved_koans(course, runner):
    conftest = course.path("conftest.py")
    conftest.write_text(conftest.read_text(encoding="utf-8") + "\nraise RuntimeError('oops')\n",
                        encoding="utf-8")
    result = runner.run(NUMBERS_FILE, [])
    assert result["broken"]["kind"] == "broken"
    assert "conftest" in result["broken"]["message"]
    assert "RuntimeError: oops" in result["broken"]["message"]


def test_the_cli_says_so_when_conftest_is_broken(course):
    conftest = course.path("conftest.py")
    conftest.write_text(conftest.read_text(encoding="utf-8") + "\nraise RuntimeError('oops')\n",
                        encoding="utf-8")
    done = course.run()
    assert done.returncode == 1
    assert "RuntimeError: oops" in done.stdout and "solved. Well walked" not in done.stdout


def test_a_koan_using_hypothesis_runs_with_its_plugin(course, runner):
    pytest.importorskip("hypothesis")
    course.path("koans/02_more/test_02_props.py").write_text(
        "from hypothesis import given, strategies as st\n\n\n"
        "@given(st.integers())\n"
        "def test_adding_zero_changes_nothing(n):\n"
        '    """doc"""\n'
        "    assert n + 0 == __\n",
        encoding="utf-8",
    )
    result = runner.run("koans/02_more/test_02_props.py", ["hypothesis"])
    assert kinds(result) == ["blank"]
    assert result["koans"][0]["line"] == 7


def test_the_server_prints_nothing_on_the_learners_screen(course):
    done = course.run()
    lines = done.stdout.splitlines()
    assert not any(line.startswith(("===", "platform ", "rootdir:", "FAILED")) for line in lines)
    assert done.stderr == ""


def test_prestart_forks_only_for_commands_that_run_koans(course, monkeypatch):
    monkeypatch.setenv("KOANS_ROOT", str(course.root))
    for argv in (["list"], ["reset", "01"], ["--help"], ["--root", "x", "watch"]):
        early.prestart(argv)
        assert early.take(str(course.root)) is None, argv
    early.prestart(["--timeout", "3", "watch"])
    taken = early.take(str(course.root))
    assert taken is not None
    signature, (pid, req_w, rep_r) = taken
    assert signature == early.config_signature(course.root)
    os.close(req_w)  # end of requests: the server exits on its own
    os.close(rep_r)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) or os.WTERMSIG(status) == signal.SIGTERM


def test_a_runner_adopts_the_prestarted_server(course, monkeypatch):
    monkeypatch.setenv("KOANS_ROOT", str(course.root))
    early.prestart([])
    with Runner(course.root.resolve()) as runner:
        runner.start()
        assert runner.pid is not None
        assert early.take(str(course.root.resolve())) is None  # taken by the runner
        assert kinds(runner.run(NUMBERS_FILE, [])) == ["blank", "blank"]


def test_a_file_saved_twice_within_a_clock_tick_is_read_afresh(course):
    koan = course_model.Course(course.root).file(STRINGS_FILE)
    assert koan.test_names() == ["test_len_counts_characters", "test_upper_returns_capitals"]
    path = koan.path
    stamp = path.stat()
    text = path.read_text(encoding="utf-8").replace("test_upper", "test_lower")
    path.write_text(text, encoding="utf-8")  # same size
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # and the same mtime
    assert koan.test_names() == ["test_len_counts_characters", "test_lower_returns_capitals"]


@pytest.mark.skipif(not os.path.exists("/proc/self/fd"), reason="inotify is Linux-only")
def test_a_save_burst_settles_once_every_written_file_is_closed(tmp_path):
    topic = tmp_path / "01_topic"
    topic.mkdir()
    watcher = InotifyWatcher(tmp_path)
    try:
        handle = open(topic / "test_01_x.py", "w")  # noqa: SIM115 - closed below, on purpose
        handle.write("x = 1\n")
        handle.flush()
        assert wait_changes(watcher) == {str(topic / "test_01_x.py")}
        assert not watcher.settled  # still open: the editor may write more
        handle.close()
        wait_changes(watcher)
        assert watcher.settled
    finally:
        watcher.close()


def wait_changes(watcher: InotifyWatcher) -> set[str]:
    end = time.monotonic() + 10
    while time.monotonic() < end:
        got = watcher.changes()
        if got:
            return got
        time.sleep(0.01)
    raise AssertionError("no file event")

