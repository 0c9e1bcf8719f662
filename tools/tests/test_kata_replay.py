"""``kata TOPIC`` replays a topic's koans against the clock (issue 11, section 5): real paths,
the kata's own keys, a ticking clock that does not flicker, sensible names, an honest summary."""

from __future__ import annotations

import json
import re

from kata_support import PtySession
from runner_support import NUMBERS_FILE

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
CLOCK = re.compile(r"\rkata (\d\d:\d\d) ")


def test_a_replay_shows_real_paths_kata_keys_a_ticking_clock_and_an_honest_summary(course):
    course.run()  # the learner's first run snapshots the pristine koans
    course.edit(NUMBERS_FILE, "1 + 1 == __", "1 + 1 == 5")  # the learner's own work
    workspace = course.path(".koans/kata/01_basics")
    before = len(course.read_events())
    session = PtySession(course, "kata", "01")
    try:
        session.wait_for_event(lambda e: e["event"] == "verdict", after=before)
        n = session.count()
        session.send("h")
        session.wait_for_event(lambda e: e["event"] == "hint", after=n)
        n = session.count()
        koan = workspace / NUMBERS_FILE
        koan.write_text(koan.read_text().replace("1 + 1 == __", "1 + 1 == 2"))
        session.wait_for_event(lambda e: e["event"] == "verdict" and e["solved"] == 1, after=n)
        session.wait_for_text(lambda text: len(set(CLOCK.findall(ANSI.sub("", text)))) >= 2)
        session.send("q")
        end = session.wait_for_event(lambda e: e["event"] == "kata-end", after=before)
        assert session.close() == 0
    finally:
        session.kill()
    raw = session.output()
    out = ANSI.sub("", raw).replace("\r", "\n")
    real = f".koans/kata/01_basics/{NUMBERS_FILE}"
    assert f"{real}:6" in out and f"Next: edit {real} line 6" in out
    assert re.search(r"(?<![./\w])(koans|answers)/01_basics", out) is None, "a path of the scratch folder"
    assert ".koans/kata/01_basics/answers/01_basics/test_01_numbers.py" in out  # the answer, shown
    assert "python tools/koans.py hint" not in out and "press h again" in out
    assert "driver: A, navigator: B" in out and "driver: driver" not in out
    # the clock ticks on its own line; only a new verdict redraws the screen
    verdicts = sum(e["event"] == "verdict" for e in course.read_events()[before:])
    assert raw.count("\x1b[2J") <= verdicts
    assert end["koans"] == [
        {"koan": "01_basics/test_01_numbers.py::test_one_plus_one_is_two", "solved": True,
         "seconds": end["koans"][0]["seconds"], "hints": 1},
        {"koan": "01_basics/test_01_numbers.py::test_indexing_past_the_end_raises", "solved": False,
         "seconds": end["koans"][1]["seconds"], "hints": 0},
    ]
    assert end["not_reached"] == 2 and end["pair"] == ["A", "B"]
    assert "and 2 koan(s) not reached" in out and "test_len_counts_characters" not in out.split("Kata summary")[1]
    assert "Saved for the pair: .koans/kata/01_basics/summary.json" in out
    assert json.loads((workspace / "summary.json").read_text())["koans"] == end["koans"]
    assert "1 + 1 == 5" in course.path(NUMBERS_FILE).read_text()


def test_a_replay_without_a_terminal_still_tells_the_time_after_each_run(course):
    course.run()
    before = len(course.read_events())
    proc = course.popen("kata", "01_basics", "--pair", "ana,bo", "--swap-koans", "1")
    try:
        course.wait_for(lambda e: e["event"] == "verdict", after=before, proc=proc)
        proc.stdin.write("s\n")
        proc.stdin.flush()
        swap = course.wait_for(lambda e: e["event"] == "swap", after=before, proc=proc)
        assert (swap["why"], swap["driver"]) == ("asked for", "bo")
        proc.stdin.write("q\n")
        proc.stdin.flush()
        course.wait_for(lambda e: e["event"] == "kata-end", after=before, proc=proc)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    out = course.output()
    assert "kata 00:" in out and "driver: ana, navigator: bo" in out
    assert "\r" not in out and "\x1b" not in out
