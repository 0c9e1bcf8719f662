"""Bad input is normal input: broken files, endless koans, deleted files, Ctrl-C."""

from __future__ import annotations

import json
import multiprocessing
import signal
import sys
from pathlib import Path

import pytest


NUMBERS = "koans/01_basics/test_01_numbers.py"
STRINGS = "koans/01_basics/test_02_strings.py"


def test_a_syntax_error_points_at_the_line(course):
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == (2")
    result = course.run()
    assert "this file does not load" in result.stdout
    assert "koans/01_basics/test_01_numbers.py:6" in result.stdout or ":7" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_an_import_error_points_at_the_line(course):
    course.edit(NUMBERS, "import pytest", "import pytest\nimport not_a_module_anywhere")
    out = course.run().stdout
    assert "koans/01_basics/test_01_numbers.py:2" in out
    assert "ModuleNotFoundError" in out and "not_a_module_anywhere" in out


def test_an_infinite_loop_is_stopped_with_the_learners_line(course):
    course.edit(NUMBERS, "    assert 1 + 1 == __", "    while True:\n        pass")
    result = course.run("--timeout", "1")
    assert "stopped: it ran too long" in result.stdout
    assert "more than 1 s" in result.stdout
    # The loop is two lines; the stack is sampled wherever the loop happens to be.
    assert any(f"koans/01_basics/test_01_numbers.py:{n}" in result.stdout for n in (6, 7))
    assert result.returncode == 1


def test_a_deadlock_is_stopped_and_the_rest_of_the_path_still_works(course):
    course.edit(NUMBERS, "    assert 1 + 1 == __",
                "    import threading\n    lock = threading.Lock()\n    lock.acquire()\n    lock.acquire()")
    out = course.run("--timeout", "1").stdout
    assert "stopped: it ran too long" in out and ":9" in out
    course.edit(NUMBERS, "    import threading\n    lock = threading.Lock()\n    lock.acquire()\n"
                "    lock.acquire()", "    assert 1 + 1 == 2")
    out = course.run("--timeout", "1").stdout
    assert "test_indexing_past_the_end_raises" in out


def test_a_deleted_koan_file_is_named_with_the_command_that_restores_it(course):
    course.run()
    course.path(NUMBERS).unlink()
    out = course.run().stdout
    assert "this koan file is missing" in out
    assert f"reset {NUMBERS}" in out
    course.run("reset", NUMBERS)
    assert "__" in course.path(NUMBERS).read_text()


@pytest.mark.skipif(sys.platform == "win32", reason="Ctrl-C is a console event on Windows, not a "
                    "signal a test can send to a process")
def test_ctrl_c_exits_cleanly_with_state_saved(course):
    course.run()
    course.edit(NUMBERS, "    assert 1 + 1 == __", "    while True:\n        pass")
    n = len(course.read_events())
    proc = course.popen("--timeout", "600")
    course.wait_for(lambda e: e["event"] == "run-start", after=n, proc=proc)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130
    out = course.output()
    assert "Stopped. Your progress is saved" in out
    assert "Traceback" not in out
    data = json.loads(course.path(".koans/progress.json").read_text())
    assert data["version"] == 1


# -- the progress store --------------------------------------------------------------------


def test_a_corrupted_progress_file_is_rebuilt_and_kept_aside(course):
    course.run()
    course.path(".koans/progress.json").write_text("{not json")
    out = course.run().stdout
    assert "rebuilt" in out
    assert list(course.path(".koans").glob("progress.corrupt-*.json"))
    assert json.loads(course.path(".koans/progress.json").read_text())["version"] == 1


def test_a_deleted_progress_file_is_rebuilt(course):
    course.edit(NUMBERS, "1 + 1 == __", "1 + 1 == 2")
    course.run()
    course.path(".koans/progress.json").unlink()
    assert "1/7 solved" in course.run().stdout


def _bump(state_dir: str, n: int) -> None:
    from koanrunner.progress import Store

    store = Store(Path(state_dir))
    for _ in range(n):
        def change(data):
            data["koans"].setdefault("k", {"hints": 0})["hints"] += 1
        store.update(change)


def test_two_writers_at_once_lose_nothing(tmp_path):
    from koanrunner.progress import Store

    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_bump, args=(str(tmp_path), 40)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert Store(tmp_path).read()["koans"]["k"]["hints"] == 80
    assert not list(tmp_path.glob("*.tmp"))
