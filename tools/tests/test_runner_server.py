"""The warm server: one pytest session, a fresh child per run, and what must never leak or stick."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from koanrunner import course as course_model
from koanrunner.watch import InotifyWatcher
from runner_support import STRINGS_FILE

TOOLS = Path(__file__).resolve().parents[1]

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


def drive(course, script: str, **env: str) -> dict:
    """Run ``script`` in a fresh Python (forking from a test worker, which has threads, could
    deadlock): it gets ``root``, ``Runner``, ``early``, ``kinds`` and ``report(key, value)``."""
    prelude = textwrap.dedent(f"""
        import json, os, sys
        from pathlib import Path
        sys.path.insert(0, {str(TOOLS)!r})
        from koanrunner import early
        from koanrunner.running import Runner
        root = Path({str(course.root.resolve())!r})
        found = {{}}
        def report(key, value):
            found[key] = value
        def kinds(result):
            return [k["kind"] for k in result["koans"]]
    """)
    code = prelude + textwrap.dedent(script) + "\nprint(json.dumps(found))\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, **env), check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_runs_share_one_server_and_never_its_module_state(course):
    course.path("koans/01_basics/test_03_leak.py").write_text(LEAK, encoding="utf-8")
    course.path("answers/01_basics/test_03_leak.py").write_text(LEAK, encoding="utf-8")
    found = drive(course, """
        with Runner(root, timeout=10) as runner:
            report("first", kinds(runner.run("koans/01_basics/test_03_leak.py", [])))
            server = runner.pid
            report("second", kinds(runner.run("koans/01_basics/test_03_leak.py", [])))
            report("same server", runner.pid == server)
            report("numbers", kinds(runner.run("koans/01_basics/test_01_numbers.py", [])))
    """)
    assert found["first"] == found["second"] == ["passed", "passed"]
    assert found["same server"]
    assert found["numbers"] == ["blank", "blank"]
    assert (course.root / ".koans/logs/server.log").is_file()


def test_a_changed_conftest_starts_a_fresh_server(course):
    found = drive(course, """
        with Runner(root, timeout=10) as runner:
            report("before", kinds(runner.run("koans/01_basics/test_01_numbers.py", [])))
            server = runner.pid
            conftest = root / "conftest.py"
            conftest.write_text(conftest.read_text() + "\\n# edited\\n")
            report("after", kinds(runner.run("koans/01_basics/test_01_numbers.py", [])))
            report("new server", runner.pid != server)
    """)
    assert found == {"before": ["blank", "blank"], "after": ["blank", "blank"], "new server": True}


def test_a_broken_conftest_is_reported_never_taken_for_solved_koans(course):
    conftest = course.path("conftest.py")
    conftest.write_text(conftest.read_text(encoding="utf-8") + "\nraise RuntimeError('oops')\n",
                        encoding="utf-8")
    found = drive(course, """
        with Runner(root, timeout=10) as runner:
            report("broken", runner.run("koans/01_basics/test_01_numbers.py", [])["broken"])
    """)
    assert found["broken"]["kind"] == "broken"
    assert "conftest" in found["broken"]["message"]
    assert "RuntimeError: oops" in found["broken"]["message"]


def test_the_cli_says_so_when_conftest_is_broken(course):
    conftest = course.path("conftest.py")
    conftest.write_text(conftest.read_text(encoding="utf-8") + "\nraise RuntimeError('oops')\n",
                        encoding="utf-8")
    done = course.run()
    assert done.returncode == 1
    assert "RuntimeError: oops" in done.stdout and "solved. Well walked" not in done.stdout


def test_a_koan_using_hypothesis_runs_with_its_plugin(course):
    pytest.importorskip("hypothesis")
    course.path("koans/02_more/test_02_props.py").write_text(
        "from hypothesis import given, strategies as st\n\n\n"
        "@given(st.integers())\n"
        "def test_adding_zero_changes_nothing(n):\n"
        '    """doc"""\n'
        "    assert n + 0 == __\n",
        encoding="utf-8",
    )
    found = drive(course, """
        with Runner(root, timeout=10) as runner:
            report("koans", runner.run("koans/02_more/test_02_props.py", ["hypothesis"])["koans"])
    """)
    assert [k["kind"] for k in found["koans"]] == ["blank"]
    assert found["koans"][0]["line"] == 7


def test_the_server_prints_nothing_on_the_learners_screen(course):
    done = course.run()
    lines = done.stdout.splitlines()
    assert not any(line.startswith(("===", "platform ", "rootdir:", "FAILED")) for line in lines)
    assert done.stderr == ""


def test_prestart_forks_only_for_commands_that_run_koans(course):
    found = drive(course, """
        import signal
        for argv in (["list"], ["reset", "01"], ["--help"], ["--root", "x", "watch"]):
            early.prestart(argv)
            report(" ".join(argv), early.take(str(root)) is None)
        early.prestart(["--timeout", "3", "watch"])
        taken = early.take(str(root))
        report("watch", taken is not None)
        signature, (pid, req_w, rep_r) = taken
        report("signature", signature == early.config_signature(root))
        os.close(req_w)  # end of requests: the server exits on its own
        os.close(rep_r)
        _, status = os.waitpid(pid, 0)
        report("exited", os.WIFEXITED(status))
    """, KOANS_ROOT=str(course.root))
    assert all(found.values()), found


def test_a_runner_adopts_the_prestarted_server(course):
    found = drive(course, """
        early.prestart([])
        pid = early._started[0][2][0]
        with Runner(root) as runner:
            runner.start()
            report("adopted", runner.pid == pid)
            report("taken", early.take(str(root)) is None)
            report("kinds", kinds(runner.run("koans/01_basics/test_01_numbers.py", [])))
    """, KOANS_ROOT=str(course.root))
    assert found == {"adopted": True, "taken": True, "kinds": ["blank", "blank"]}


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



def test_without_fork_each_run_is_a_pytest_subprocess_and_still_stops_a_loop(course):
    """Where os.fork is missing (Windows), or KOANS_NO_FORK=1: the same path, one subprocess
    per run, and the conftest's own per-koan timeout where the platform has SIGALRM."""
    out = course.run(KOANS_NO_FORK="1").stdout
    assert "koans/01_basics/test_01_numbers.py:6" in out and "a blank to fill" in out
    course.edit("koans/01_basics/test_01_numbers.py", "1 + 1 == __", "1 + 1 == 2")
    course.edit("koans/01_basics/test_01_numbers.py", "    with pytest.raises(___):",
                "    while True:\n        pass\n    with pytest.raises(___):")
    done = course.run("--timeout", "1", KOANS_NO_FORK="1")
    assert "test_one_plus_one_is_two is solved" in done.stdout
    assert "stopped: it ran too long" in done.stdout
    assert "test_indexing_past_the_end_raises" in done.stdout
