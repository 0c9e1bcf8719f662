"""watch re-runs on save from a warm server; kata runs a topic for a pair in a scratch copy."""

from __future__ import annotations

import json
import signal
import sys


NUMBERS = "koans/01_basics/test_01_numbers.py"
STRINGS = "koans/01_basics/test_02_strings.py"

import pytest  # noqa: E402


def _count(course):
    return len(course.read_events())


@pytest.mark.parametrize("mode", [
    pytest.param("inotify", marks=pytest.mark.skipif(not sys.platform.startswith("linux"),
                                                     reason="inotify is Linux's (macOS: kqueue, "
                                                     "test_platform_seams)")),
    "poll"])
def test_watch_reruns_on_save_and_survives_a_broken_file(course, mode):
    env = {"KOANS_WATCH": "poll"} if mode == "poll" else {}
    proc = course.popen("watch", **env)
    try:
        course.wait_for(lambda e: e["event"] == "verdict", proc=proc)
        n = _count(course)
        course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")
        event = course.wait_for(lambda e: e["event"] == "verdict", after=n, proc=proc)
        assert event["solved"] == 1 and event["koan"].endswith("test_indexing_past_the_end_raises")
        n = _count(course)
        course.edit(NUMBERS, "raises(___):", "raises(___:")
        event = course.wait_for(lambda e: e["event"] == "verdict", after=n, proc=proc)
        assert event["kind"] == "broken"
        n = _count(course)
        course.edit(NUMBERS, "raises(___:", "raises(IndexError):")
        event = course.wait_for(lambda e: e["event"] == "verdict", after=n, proc=proc)
        assert event["solved"] == 2 and event["koan"].endswith("test_len_counts_characters")
        n = _count(course)
        proc.stdin.write("h\n")
        proc.stdin.flush()
        course.wait_for(lambda e: e["event"] == "hint", after=n, proc=proc)
        proc.stdin.write("q\n")
        proc.stdin.flush()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    out = course.output()
    assert "this file does not load" in out and "Does len count words" in out
    assert "Traceback" not in out


@pytest.mark.skipif(sys.platform == "win32", reason="Ctrl-C is a console event on Windows, not a "
                    "signal a test can send to a process")
def test_watch_ctrl_c_stops_cleanly(course):
    proc = course.popen("watch")
    course.wait_for(lambda e: e["event"] == "verdict", proc=proc)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 0
    assert "Stopped watching. Your progress is saved." in course.output()


def test_a_short_kata_swaps_drivers_and_ends_with_a_summary(course):
    course.run()  # the learner's first run snapshots the pristine koans
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 5")  # the learner's own work, untouched
    n = _count(course)
    proc = course.popen("kata", "01", "--swap-koans", "1", "--pair", "ana,bo")
    workspace = course.path(".koans/kata/01_basics")
    try:
        course.wait_for(lambda e: e["event"] == "verdict", after=n, proc=proc)
        assert "1 + 1 == __" in (workspace / NUMBERS).read_text()  # pristine in the kata
        n = _count(course)
        proc.stdin.write("h\n")
        proc.stdin.flush()
        course.wait_for(lambda e: e["event"] == "hint", after=n, proc=proc)
        fills = [(NUMBERS, "1 + 1 == __", "1 + 1 == 2"), (NUMBERS, "raises(___)", "raises(IndexError)"),
                 (STRINGS, '"ab c") == __', '"ab c") == 4'), (STRINGS, ".upper() == __", '.upper() == "AB"')]
        for rel, old, new in fills:
            n = _count(course)
            path = workspace / rel
            path.write_text(path.read_text().replace(old, new))
            course.wait_for(lambda e: e["event"] == "verdict" and e["solved"] >= 1, after=n, proc=proc)
        end = course.wait_for(lambda e: e["event"] == "kata-end", proc=proc)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert end["finished"] is True and end["swaps"] >= 3
    first = end["koans"][0]
    assert first["koan"].endswith("test_one_plus_one_is_two") and first["hints"] == 1
    out = course.output()
    assert "SWAP" in out and "driver: bo, navigator: ana" in out
    assert "Kata summary" in out
    assert "1 + 1 == 5" in course.path(NUMBERS).read_text()
    assert json.loads((workspace / "summary.json").read_text())["finished"] is True


def test_a_save_during_an_endless_koan_cancels_it_at_once(course):
    """The learner fixes the loop while it still runs: the new save starts a new check at once,
    without waiting for the timeout, and the screen said the check was still running."""
    course.edit(NUMBERS, "    assert 1 + 1 == __", "    while True:\n        pass")
    proc = course.popen("--timeout", "600", "watch")
    try:
        n = _count(course)
        course.wait_for(lambda e: e["event"] == "run-start", after=n, proc=proc)
        import time

        deadline = time.monotonic() + 60
        while "still running" not in course.output() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "still running" in course.output()
        n = _count(course)
        course.edit(NUMBERS, "    while True:\n        pass", "    assert 1 + 1 == 2")
        event = course.wait_for(lambda e: e["event"] == "verdict", after=n, timeout=60, proc=proc)
        assert event["solved"] == 1  # well before the 600 s timeout
        cancelled = [e for e in course.read_events()[n:] if e["event"] == "run-end"]
        assert cancelled and cancelled[0]["cancelled"] is True
    finally:
        proc.kill()


def test_single_keys_act_without_enter_on_a_terminal(course):
    import os
    import pty
    import subprocess
    import sys
    import time

    from runner_support import RUNNER

    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, str(RUNNER), "--root", str(course.root), "watch"],
                            stdin=follower, stdout=follower, stderr=follower,
                            env=course.env(), cwd=course.root)
    os.close(follower)
    seen = b""

    def read_until(text: bytes, timeout: float = 60) -> None:
        nonlocal seen
        end = time.monotonic() + timeout
        while text not in seen and time.monotonic() < end:
            import select

            ready, _, _ = select.select([leader], [], [], 0.1)
            if ready:
                try:
                    seen += os.read(leader, 65536)
                except OSError:
                    break
        assert text in seen, seen[-2000:]

    try:
        read_until(b"no Enter needed")
        os.write(leader, b"h")  # no Enter
        read_until(b"What is one plus one?")
        os.write(leader, b"q")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)


def test_watch_follows_a_goto_typed_in_another_terminal(course):
    proc = course.popen("watch")
    try:
        course.wait_for(lambda e: e["event"] == "verdict", proc=proc)
        m = len(course.read_events())  # counted before the goto: the watcher may answer first
        course.run("goto", "02_more")
        event = course.wait_for(lambda e: e["event"] == "verdict" and e.get("pid") == proc.pid
                                and "02_more" in str(e.get("koan")), after=m, timeout=60, proc=proc)
        assert event["koan"].endswith("test_true_plus_true_is_two")
    finally:
        proc.kill()
