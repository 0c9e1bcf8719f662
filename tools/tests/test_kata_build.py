"""``kata NAME`` builds a kata test-first: each kata driven end to end through a terminal.

For every kata: the pair sees step 1 red, writes (the reference's code for) step 1, sees it go
green and the next step revealed, is told to swap, writes step 2, and quits with 'q'; the
summary tells time per step, swaps and hints, and is saved in the workspace.
"""

from __future__ import annotations

import ast
import json
import re
import signal

import pytest
from kata_support import PtySession, make_kata_course, written
from runner_support import REPO


# What a pair writes for the first two steps of each kata: the functions those steps need.
FIRST_TWO_STEPS = {
    "01_ieee754": (["fields"], ["classify"]),
    "02_refcount_heap": (["Heap.new", "Heap.refcount", "Heap.alive", "Heap.incref"], ["Heap.decref"]),
    "03_calculator_vm": (["tokenize"], ["parse_atom"]),
    "04_struct_layout": (["primitive_size", "primitive_alignment"],
                         ["Struct.field_alignment", "Struct.offsets"]),
    "05_event_loop": (["Loop.run", "Loop._step", "Loop._finish"], ["Loop.spawn"]),
    "06_autograd": (["Value.__add__", "Value.__mul__", "Value.__radd__", "Value.__rmul__"],
                    ["Value.topological_order"]),
    "07_caching_allocator": (["round_size"], ["segment_size"]),
}
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
CLOCK = re.compile(r"\rkata (\d\d:\d\d) ")


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


def ticked(text: str) -> bool:
    """The status line was drawn with at least two different times: the clock ticks."""
    return len(set(CLOCK.findall(ANSI.sub("", text)))) >= 2


def test_every_kata_has_a_scripted_pair():
    assert sorted(FIRST_TWO_STEPS) == sorted(p.name for p in REPO.joinpath(
        "koans", "katas").iterdir() if p.is_dir() and p.name[:1].isdigit())


@pytest.mark.parametrize("name", sorted(FIRST_TWO_STEPS))
def test_a_pair_turns_two_steps_green_swaps_and_quits_with_a_summary(tmp_path, name):
    course = make_kata_course(tmp_path / "course", [name])
    kata = course.path(f"koans/katas/{name}")
    stub_file = next(p for p in kata.glob("*.py") if p.name not in ("test_steps.py",))
    pristine_stub = stub_file.read_text()
    reference = course.path(f"answers/katas/{name}/{stub_file.name}").read_text()
    steps = [n.name for n in ast.parse(kata.joinpath("test_steps.py").read_text()).body
             if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]
    first, second = FIRST_TWO_STEPS[name]
    workspace = course.path(f".koans/kata/{name}")
    module = workspace / stub_file.name
    session = PtySession(course, "kata", name, "--pair", "ana,bo", "--swap-minutes", "0")
    try:
        verdict = session.wait_for_event(lambda e: e["event"] == "kata-verdict")
        assert (verdict["number"], verdict["kind"], verdict["green"]) == (1, "stub", [])
        assert module.read_text() == pristine_stub

        n = session.count()
        module.write_text(written(pristine_stub, reference, [first]))
        green = session.wait_for_event(lambda e: e["event"] == "kata-green", after=n)
        assert green["number"] == 1 and green["driver"] == "ana"
        swap = session.wait_for_event(lambda e: e["event"] == "swap", after=n)
        assert (swap["driver"], swap["navigator"]) == ("bo", "ana")
        revealed = session.wait_for_event(lambda e: e["event"] == "kata-verdict" and e["number"] == 2,
                                          after=n)
        assert revealed["step"] == steps[1]

        n = session.count()
        module.write_text(written(pristine_stub, reference, [first, second]))
        green = session.wait_for_event(lambda e: e["event"] == "kata-green" and e["number"] == 2, after=n)
        assert green["driver"] == "bo"
        session.wait_for_event(lambda e: e["event"] == "kata-verdict" and (e["number"] or 99) > 2,
                               after=n)
        session.wait_for_text(ticked)
        session.send("h")
        session.wait_for_event(lambda e: e["event"] == "hint", after=n)
        session.send("q")
        end = session.wait_for_event(lambda e: e["event"] == "kata-end")
        assert session.close() == 0
    finally:
        session.kill()

    out = plain(session.output())
    assert f"step 1 of {len(steps)}: {steps[0]}" in out
    assert "still a stub" in out and f".koans/kata/{name}/{stub_file.name}:" in out
    assert "SWAP (step" in out and "bo drives now, ana navigates" in out
    assert "Kata summary" in out and f"Saved for the pair: .koans/kata/{name}/summary.json" in out
    assert steps[-1] not in out, "a step was shown before it was revealed"
    assert "Traceback" not in out
    saved = json.loads((workspace / "summary.json").read_text())
    assert saved["steps"] == end["steps"]
    assert [row["state"] for row in saved["steps"][:2]] == ["green", "green"]
    assert saved["steps"][-1] == {"number": len(steps), "step": None, "state": "not revealed",
                                  "seconds": 0.0, "hints": 0, "driver": None}
    assert saved["swaps"] >= 1 and saved["pair"] == ["ana", "bo"] and saved["hints"] >= 1
    assert saved["finished"] is False and saved["total"] == len(steps)
    # the learner's own koans and progress are untouched
    assert stub_file.read_text() == pristine_stub
    assert not course.path(".koans/progress.json").exists()


def test_a_kata_name_builds_the_kata_and_a_topic_name_replays_the_topic(tmp_path):
    course = make_kata_course(tmp_path / "course", ["05_event_loop"])
    listed = course.run("kata")
    assert listed.returncode == 0 and "05_event_loop" in listed.stdout and "4 steps" in listed.stdout
    for number, name in enumerate(("05_event_loop", "event_loop", "katas/05")):
        session = PtySession(course, "kata", name, "--swap-minutes", "0")
        try:
            start = session.wait_for_event(lambda e: e["event"] == "kata-start")
            assert start["kind"] == "build" and start["kata"] == "05_event_loop"
            assert start["resumed"] is (number > 0)  # the same kata again carries on
            session.wait_for_event(lambda e: e["event"] == "kata-verdict")
            if name == "katas/05":  # Ctrl-C ends a kata as 'q' does: with the summary
                session.proc.send_signal(signal.SIGINT)
            else:
                session.send("q")
            session.wait_for_event(lambda e: e["event"] == "kata-end")
            assert session.close() == 0
        finally:
            session.kill()
        course.events.unlink()
    assert "Stopped." in session.output() and "Kata summary" in session.output()
    assert not course.path(".koans/kata/.previous").exists()  # nothing was started over
    session = PtySession(course, "kata", "katas/05", "--fresh", "--swap-minutes", "0")
    try:
        start = session.wait_for_event(lambda e: e["event"] == "kata-start")
        assert start["resumed"] is False
        session.send("q")
        session.wait_for_event(lambda e: e["event"] == "kata-end")
    finally:
        session.kill()
    assert len(list(course.path(".koans/kata/.previous").iterdir())) == 1  # kept, not deleted
    missing = course.run("kata", "katas/99")
    assert missing.returncode == 2 and "No kata matches" in missing.stdout


def test_a_regression_a_broken_module_an_edited_step_file_and_a_loop_are_shown_not_crashed(tmp_path):
    name = "07_caching_allocator"
    course = make_kata_course(tmp_path / "course", [name])
    workspace = course.path(f".koans/kata/{name}")
    session = PtySession(course, "kata", name, KOANS_TIMEOUT="1")
    try:
        session.wait_for_event(lambda e: e["event"] == "kata-verdict")
        module = workspace / "allocator.py"
        pristine = module.read_text()
        reference = course.path(f"answers/katas/{name}/allocator.py").read_text()
        n = session.count()
        module.write_text(written(pristine, reference, [["round_size"]]))
        session.wait_for_event(lambda e: e["event"] == "kata-green", after=n)
        n = session.count()
        module.write_text(pristine)
        again = session.wait_for_event(lambda e: e["event"] == "kata-verdict", after=n)
        assert (again["number"], again["kind"], again["green"]) == (1, "stub", [])
        n = session.count()
        module.write_text(pristine.replace("def round_size(size: int) -> int:", "def round_size(size: int) -> int"))
        broken = session.wait_for_event(lambda e: e["event"] == "kata-verdict", after=n)
        assert broken["kind"] == "broken"
        n = session.count()
        module.write_text(pristine.replace('raise NotImplementedError("round_size")',
                                           "while True:\n        pass"))
        looping = session.wait_for_event(lambda e: e["event"] == "kata-verdict", after=n)
        assert looping["kind"] == "timeout"
        n = session.count()
        steps = workspace / "test_steps.py"
        steps.chmod(0o644)
        steps.write_text(steps.read_text() + "\n\ndef test_mine():\n    pass\n")
        session.wait_for_event(lambda e: e["event"] == "kata-verdict", after=n)
        session.send("q")
        session.wait_for_event(lambda e: e["event"] == "kata-end")
        assert session.close() == 0
    finally:
        session.kill()
    out = plain(session.output())
    assert "step 1 was green and is red again" in out
    assert "your module does not load" in out and "Python cannot read allocator.py" in out
    assert "stopped: it ran too long" in out
    assert "test_steps.py is the kata's and was put back" in out
    assert "def test_mine" in (workspace / "test_steps.py.yours").read_text()
    assert "def test_mine" not in (workspace / "test_steps.py").read_text()
    assert "Traceback" not in out
