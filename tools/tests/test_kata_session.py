"""A pair's session at a kata, through a pseudo-terminal: one session per workspace, carrying on
where the last one stopped, a deleted workspace said plainly, the pair's own output shown,
single keys back after Ctrl-Z and fg, every name of the pair driving in turn, a hard mode,
and a facilitator's table of several pairs' sessions."""

from __future__ import annotations

import json
import os
import shutil
import signal
import termios
import time

from kata_support import PtySession, make_kata_course

KATA = "05_event_loop"
MODULE = "loop.py"


def start(course, *args: str) -> PtySession:
    n = len(course.read_events())
    session = PtySession(course, "kata", KATA, "--swap-minutes", "0", *args)
    session.wait_for_event(lambda e: e["event"] == "kata-verdict", after=n)
    return session


def quit_(session: PtySession) -> None:
    n = session.count()
    session.send("q")
    session.wait_for_event(lambda e: e["event"] == "kata-end", after=n)
    session.close()


def test_a_second_session_of_the_same_kata_is_told_where_the_first_is(tmp_path) -> None:
    course = make_kata_course(tmp_path / "course", [KATA])
    first = start(course)
    try:
        second = course.run("kata", KATA)
        assert second.returncode == 2
        assert "open in another terminal" in second.stdout and str(first.proc.pid) in second.stdout
        assert course.path(f".koans/kata/{KATA}/{MODULE}").is_file()  # untouched, not moved
        assert not course.path(".koans/kata/.previous").exists()
    finally:
        quit_(first)
    third = start(course)  # the lock died with the first session
    quit_(third)


def test_the_same_kata_again_carries_on_with_the_code_and_the_clock(tmp_path) -> None:
    course = make_kata_course(tmp_path / "course", [KATA])
    session = start(course, "--pair", "ana,bo")
    module = course.path(f".koans/kata/{KATA}/{MODULE}")
    module.write_text(module.read_text() + "\n# the pair's own note\n")
    time.sleep(1.5)
    quit_(session)
    state = json.loads(course.path(f".koans/kata/{KATA}/.session.json").read_text())
    assert state["elapsed"] >= 1.0 and state["pair"] == ["ana", "bo"]
    again = start(course)
    started = [e for e in course.read_events() if e["event"] == "kata-start"]
    assert started[-1]["resumed"] is True
    assert "# the pair's own note" in module.read_text()
    assert "Carrying on" in again.output() and "ana" in again.output()
    quit_(again)
    summary = json.loads(course.path(f".koans/kata/{KATA}/summary.json").read_text())
    assert summary["seconds"] >= state["elapsed"] and summary["pair"] == ["ana", "bo"]


def test_a_deleted_workspace_is_said_not_crashed(tmp_path) -> None:
    course = make_kata_course(tmp_path / "course", [KATA])
    session = start(course)
    n = session.count()
    workspace = course.path(f".koans/kata/{KATA}")
    for _ in range(100):  # a run still under way may write into it (its bytecode cache) meanwhile
        shutil.rmtree(workspace, ignore_errors=True)
        if not workspace.exists():
            break
        time.sleep(0.1)
    session.wait_for_text(lambda text: "is gone" in text)
    assert session.close() == 1
    out = session.output()
    assert "Traceback" not in out and "Your code is in" not in out
    assert not [e for e in course.read_events()[n:] if e["event"] == "kata-end" and "steps" in e]


def test_what_the_pairs_code_prints_is_shown_under_the_red_step(tmp_path) -> None:
    course = make_kata_course(tmp_path / "course", [KATA])
    session = start(course)
    try:
        module = course.path(f".koans/kata/{KATA}/{MODULE}")
        text = module.read_text()
        marker = "print('the pair was here')"
        module.write_text(text.replace('        raise NotImplementedError("Loop.run")',
                                       f'        {marker}\n        raise NotImplementedError("Loop.run")', 1))
        session.wait_for_text(lambda out: "what your code printed" in out and "the pair was here" in out)
    finally:
        quit_(session)


def test_ctrl_z_and_fg_give_the_single_keys_back(tmp_path) -> None:
    course = make_kata_course(tmp_path / "course", [KATA])
    session = start(course)
    try:
        os.killpg(session.proc.pid, signal.SIGSTOP)
        attrs = termios.tcgetattr(session.fd)  # the shell's mode again, as after fg
        attrs[3] |= termios.ICANON | termios.ECHO
        termios.tcsetattr(session.fd, termios.TCSANOW, attrs)
        os.killpg(session.proc.pid, signal.SIGCONT)
        time.sleep(0.5)
        n = session.count()
        os.write(session.fd, b"s")  # one key, no Enter
        event = session.wait_for_event(lambda e: e["event"] == "swap", after=n, timeout=30)
        assert event["why"] == "asked for"
    finally:
        quit_(session)


def test_every_name_of_the_pair_takes_its_turn_to_drive(tmp_path) -> None:
    course = make_kata_course(tmp_path / "course", [KATA])
    session = start(course, "--pair", "ana,bo,cy")
    try:
        for _ in range(3):
            n = session.count()
            session.send("s")
            session.wait_for_event(lambda e: e["event"] == "swap", after=n)
    finally:
        quit_(session)
    drivers = [e["driver"] for e in course.read_events() if e["event"] == "swap"]
    assert drivers == ["bo", "cy", "ana"]


def test_hard_mode_starts_from_the_signatures_alone(tmp_path) -> None:
    course = make_kata_course(tmp_path / "course", [KATA])
    hard = course.path(f"koans/katas/{KATA}/hard/{MODULE}")
    if not hard.is_file():  # a kata without its hard stub yet: make one for the test
        hard.parent.mkdir()
        hard.write_text(course.path(f"koans/katas/{KATA}/{MODULE}").read_text() + "\n# hard\n")
    session = start(course, "--hard")
    quit_(session)
    assert course.path(f".koans/kata/{KATA}/{MODULE}").read_text() == hard.read_text()


def test_a_facilitator_reads_every_pairs_session_in_one_table(tmp_path) -> None:
    course = make_kata_course(tmp_path / "course", [KATA])
    for names in ("ana,bo", "cy,di"):
        session = start(course, "--pair", names, "--fresh")
        quit_(session)
        saved = course.path(f".koans/kata/{KATA}")
        shutil.copytree(saved, tmp_path / names.replace(",", "-"))
    table = course.run("kata", "--summary", str(tmp_path / "ana-bo"), str(tmp_path / "cy-di"),
                       str(tmp_path / "nowhere"))
    assert table.returncode == 0, table.stdout + table.stderr
    assert "ana,bo" in table.stdout and "cy,di" in table.stdout
    assert "time per step" in table.stdout and "no summary.json there" in table.stdout
