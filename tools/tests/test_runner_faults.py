"""Fault injection: whatever the learner's files or the progress store hold, the runner never
reports a koan as solved that did not run and pass, never shows a traceback, and never loses a
byte the learner typed."""

from __future__ import annotations

import os

import pytest
from runner_support import MORE_FILE, NUMBERS_FILE, STRINGS_FILE

SOLVED_ALL = "Every koan on the path is solved"


def solve_all_but(course, keep: str) -> None:
    """Fill every koan with its answer except in ``keep``."""
    for rel in (NUMBERS_FILE, STRINGS_FILE, MORE_FILE):
        if rel != keep:
            answer = course.path(rel.replace("koans/", "answers/", 1)).read_text(encoding="utf-8")
            course.path(rel).write_text(answer, encoding="utf-8")


def no_traceback(result) -> None:
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr


@pytest.mark.parametrize("fault", ["emptied", "renamed", "skip in body", "assert True", "bom",
                                   "latin-1 comment", "keyboard interrupt"])
def test_a_tampered_koan_file_is_never_solved(course, fault: str) -> None:
    course.run()  # the pristine copies are taken
    solve_all_but(course, MORE_FILE)
    path = course.path(MORE_FILE)
    text = path.read_text(encoding="utf-8")
    if fault == "emptied":
        path.write_text("")
    elif fault == "renamed":
        path.write_text(text.replace("def test_", "def check_"))
    elif fault == "skip in body":
        path.write_text(text.replace("    assert True + True == __", "    import pytest\n    pytest.skip('later')"))
    elif fault == "assert True":
        path.write_text(text.replace("== __", "or True"))
    elif fault == "bom":
        path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    elif fault == "latin-1 comment":
        path.write_bytes(b"# caf\xe9\n" + text.encode())
    elif fault == "keyboard interrupt":
        path.write_text(text.replace("    assert True + True == __", "    raise KeyboardInterrupt"))
    result = course.run()
    no_traceback(result)
    assert SOLVED_ALL not in result.stdout, result.stdout
    assert result.returncode != 0
    plain = course.pytest("koans")
    assert "Every koan in this run is solved" not in plain.stdout, plain.stdout
    assert plain.returncode != 0


def test_a_fill_that_kills_the_server_is_not_solved(course) -> None:
    course.run()
    solve_all_but(course, MORE_FILE)
    course.edit(MORE_FILE, "assert True + True == __",
                "assert True + True == __import__('os').kill(__import__('os').getppid(), 9)")
    result = course.run()
    no_traceback(result)
    assert SOLVED_ALL not in result.stdout
    assert result.returncode != 0


@pytest.mark.parametrize("value", ["inf", "nan", "1e309", "0", "-1"])
def test_an_endless_or_negative_timeout_is_refused(course, value: str) -> None:
    result = course.run("--timeout", value)
    assert result.returncode == 2
    assert "give a finite number of seconds, 0.5 or more" in result.stderr
    no_traceback(result)


@pytest.mark.parametrize("content", [b"\x00\xff random bytes", b'{"version": 1, "koans": {"K": 5}}',
                                     b'{"version": 1, "skipped": [1], "current": [2]}',
                                     b"[" * 100000 + b"]" * 100000],
                         ids=["random bytes", "a number for a koan", "lists of numbers", "deep nesting"])
def test_a_corrupted_progress_file_is_rebuilt_and_kept_aside(course, content: bytes) -> None:
    course.run()
    course.path(".koans/progress.json").write_bytes(content)
    for command in ((), ("list",), ("hint",), ("skip",)):
        result = course.run(*command)
        no_traceback(result)
    assert any(p.name.startswith(("progress.corrupt-", "progress.odd-"))
               for p in course.path(".koans").iterdir())


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions: a read-only folder is "
                    "tested through the user id")
def test_a_read_only_state_folder_still_gives_verdicts(course) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes through any file mode: a read-only folder needs another user")
    course.run()
    os.chmod(course.path(".koans"), 0o500)
    try:
        result = course.run()
    finally:
        os.chmod(course.path(".koans"), 0o700)
    no_traceback(result)
    assert "test_one_plus_one_is_two" in result.stdout


def test_a_koan_file_replaced_by_a_folder_is_reset_without_losing_it(course) -> None:
    course.run()
    path = course.path(NUMBERS_FILE)
    path.unlink()
    path.mkdir()
    (path / "notes.txt").write_text("mine")
    result = course.run("reset", NUMBERS_FILE)
    no_traceback(result)
    assert path.is_file() and "__" in path.read_text()
    backups = list(course.path(".koans/backups").rglob("notes.txt"))
    assert backups and backups[0].read_text() == "mine"
    assert not list(course.path("koans/01_basics").glob(".*.tmp"))


def test_a_deleted_topic_comes_back_whole(course) -> None:
    course.run()
    import shutil

    shutil.rmtree(course.path("koans/01_basics"))
    result = course.run("reset", "01_basics")
    no_traceback(result)
    for name in ("README.md", "hints.toml", "test_01_numbers.py", "test_02_strings.py"):
        assert course.path(f"koans/01_basics/{name}").is_file(), name


def test_reset_twice_then_restore_brings_the_typed_work_back(course) -> None:
    course.run()
    course.edit(NUMBERS_FILE, "assert 1 + 1 == __", "assert 1 + 1 == 2  # mine")
    course.run("reset", NUMBERS_FILE)
    course.run("reset", NUMBERS_FILE)
    result = course.run("restore")
    no_traceback(result)
    assert "# mine" in course.path(NUMBERS_FILE).read_text()


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads the process tree from "
                    "Linux's /proc (elsewhere the closed request pipe ends the server, untested)")
def test_the_server_ends_when_the_runner_is_killed(course) -> None:
    import signal
    import time

    course.run()
    course.edit(NUMBERS_FILE, "    assert 1 + 1 == __", "    while True:\n        pass")
    n = len(course.read_events())
    proc = course.popen("--timeout", "600")
    course.wait_for(lambda e: e["event"] == "run-start", after=n, proc=proc)
    children = _descendants(proc.pid)
    assert children
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(pid) for pid in children):
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in children)


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            with open(f"/proc/{parent}/task/{parent}/children") as handle:
                kids = [int(x) for x in handle.read().split()]
        except OSError:
            kids = []
        out += kids
        todo += kids
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split()[2] != "Z"
    except OSError:
        return False


def test_a_read_only_course_keeps_its_state_in_the_temporary_folder(tmp_path, monkeypatch) -> None:
    from koanrunner import early

    root = tmp_path / "course"
    root.mkdir()
    assert early.state_dir(root) == os.path.join(root, ".koans")
    writable = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: path != root and writable(path, mode))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    elsewhere = early.state_dir(root)
    assert os.path.dirname(elsewhere) == str(tmp_path / "tmp")
    assert os.path.basename(elsewhere).startswith(f"koans-{os.getuid()}-")
    assert early.state_dir(root) == elsewhere  # the same course, the same folder
    (root / ".koans").mkdir()  # a .koans/ already there is used, writable or not
    assert early.state_dir(root) == os.path.join(root, ".koans")


def test_reset_and_restore_say_what_they_could_not_write(course, monkeypatch) -> None:
    from koanrunner import pristine as pristine_module
    from koanrunner.course import Course as Model

    course.run()
    course.edit(NUMBERS_FILE, "1 + 1 == __", "1 + 1 == 3")
    mine = course.path(NUMBERS_FILE).read_text(encoding="utf-8")
    store = pristine_module.Pristine(Model(course.root))

    def refuse(path, data):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(pristine_module, "_atomic_write", refuse)
    done, refused, stamp = store.reset([NUMBERS_FILE])
    assert done == [] and stamp is not None
    assert refused == [f"{NUMBERS_FILE} cannot be written (Permission denied)"]
    assert course.path(NUMBERS_FILE).read_text(encoding="utf-8") == mine  # nothing lost
    files, _, failed = store.restore(stamp)
    assert files == [] and failed == [f"{NUMBERS_FILE} cannot be written (Permission denied)"]

    monkeypatch.setattr(pristine_module.Pristine, "backup", lambda self, rels, reason: refuse(self.backups, b""))
    done, refused, stamp = store.reset([NUMBERS_FILE])
    assert (done, stamp) == ([], None)
    assert refused[-1].startswith("nothing was reset: your version could not be backed up in ")


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions: a read-only checkout "
                    "is tested through the user id")
def test_a_read_only_checkout_gives_verdicts_and_keeps_progress_elsewhere(course, tmp_path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes through any file mode: a read-only checkout needs another user")
    os.chmod(course.root, 0o500)
    try:
        outside = {"TMPDIR": str(tmp_path), "KOANS_EVENT_LOG": str(tmp_path / "events.jsonl")}
        result = course.run(**outside)
        listed = course.run("list", **outside)
    finally:
        os.chmod(course.root, 0o700)
    no_traceback(result)
    assert "you cannot write to" in result.stdout
    assert "test_one_plus_one_is_two" in result.stdout
    assert not course.path(".koans").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("koans-")]
    no_traceback(listed)


def test_runs_log_to_a_temporary_folder_where_the_state_folder_is_read_only(tmp_path, monkeypatch) -> None:
    from koanrunner.server import usable_log_dir

    logs = tmp_path / ".koans" / "logs"
    assert usable_log_dir(logs) == logs and logs.is_dir()
    writable = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: path != logs and writable(path, mode))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    elsewhere = usable_log_dir(logs)
    assert elsewhere != logs and elsewhere.parent == tmp_path and elsewhere.name.startswith("koans-logs-")
