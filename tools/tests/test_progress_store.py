"""The progress store reads the file once per version and writes a step's changes once, and a
second runner writing meanwhile loses nothing: its changes and the step's both land."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from koanrunner import progress
from koanrunner.progress import Store


def writes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A row for every progress file the stores write from now on (each is synced)."""
    seen: list[int] = []
    real = progress.os.fsync

    def fsync(fd: int) -> None:
        real(fd)
        seen.append(fd)

    monkeypatch.setattr(progress.os, "fsync", fsync)
    return seen


def solve(key: str):  # a change as the runner makes one: to the progress it is given, only
    def change(data: dict[str, Any]) -> str:
        data["koans"][key] = {"kind": "passed", "hints": 0}
        return key
    return change


def on_disk(store: Store) -> dict[str, Any]:
    return dict(json.loads(store.path.read_bytes()))


def test_a_read_of_the_same_bytes_parses_nothing_again(tmp_path: Path, monkeypatch) -> None:
    store = Store(tmp_path)
    store.update(solve("a.py::test_a"))
    parses: list[bytes] = []  # by this store
    real = Store._parse

    def parse(self: Store, raw: bytes) -> Any:
        if self is store:
            parses.append(raw)
        return real(self, raw)

    monkeypatch.setattr(Store, "_parse", parse)
    first = store.read()
    assert store.read() is first and parses == []
    Store(tmp_path).update(solve("b.py::test_b"))  # another runner writes the file
    assert "b.py::test_b" in store.read()["koans"] and len(parses) == 1


def test_a_batch_writes_once_at_its_end_what_its_changes_made(tmp_path: Path, monkeypatch) -> None:
    store = Store(tmp_path)
    seen = writes(monkeypatch)
    with store.batch():
        assert store.update(solve("a.py::test_a")) == "a.py::test_a"
        assert "a.py::test_a" in store.read()["koans"]  # the batch reads its own changes
        store.update(solve("b.py::test_b"))
        assert seen == [] and not store.path.exists()
    assert len(seen) == 1 and set(on_disk(store)["koans"]) == {"a.py::test_a", "b.py::test_b"}


def test_an_update_that_changes_nothing_writes_nothing(tmp_path: Path, monkeypatch) -> None:
    store = Store(tmp_path)
    store.update(solve("a.py::test_a"))
    seen = writes(monkeypatch)
    store.update(solve("a.py::test_a"))
    with store.batch():
        store.update(lambda data: data.__setitem__("start", None))
    assert seen == []


def test_a_runner_that_writes_during_a_batch_loses_nothing(tmp_path: Path) -> None:
    step, other = Store(tmp_path), Store(tmp_path)
    step.update(solve("a.py::test_a"))
    with step.batch():
        step.update(solve("b.py::test_b"))
        other.update(lambda data: data.__setitem__("start", "koans/01_x"))  # `goto`, elsewhere
        other.update(solve("c.py::test_c"))
        step.update(lambda data: data.__setitem__("current", {"key": "d.py::test_d", "file": "d.py"}))
    data = on_disk(step)
    assert set(data["koans"]) == {"a.py::test_a", "b.py::test_b", "c.py::test_c"}
    assert data["start"] == "koans/01_x" and data["current"]["key"] == "d.py::test_d"
    assert step.read() == data and other.read() == data


def test_a_change_that_fails_in_a_batch_leaves_no_half_of_it(tmp_path: Path) -> None:
    store = Store(tmp_path)

    def half(data: dict[str, Any]) -> None:
        data["koans"]["half.py::test_half"] = {"kind": "passed"}
        raise RuntimeError("a bug in the middle of a change")

    with store.batch():
        store.update(solve("a.py::test_a"))
        with pytest.raises(RuntimeError):
            store.update(half)
        assert set(store.read()["koans"]) == {"a.py::test_a"}
        store.update(solve("b.py::test_b"))
    assert set(on_disk(store)["koans"]) == {"a.py::test_a", "b.py::test_b"}
    with pytest.raises(RuntimeError), store.batch():
        store.update(half)
    assert set(store.read()["koans"]) == {"a.py::test_a", "b.py::test_b"}


def test_a_change_that_fails_outside_a_batch_is_not_kept_in_memory(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.update(solve("a.py::test_a"))

    def half(data: dict[str, Any]) -> None:
        data["start"] = "koans/99_half"
        raise RuntimeError("a bug in the middle of a change")

    with pytest.raises(RuntimeError):
        store.update(half)
    assert store.read()["start"] is None


def test_an_odd_entry_is_noted_once_and_dropped_at_the_next_write(tmp_path: Path) -> None:
    store = Store(tmp_path)
    data = progress.empty()
    data["koans"]["a.py::test_a"] = "not an entry"
    store.path.write_text(json.dumps(data))
    assert store.read()["koans"] == {}
    assert len(store.notes) == 1 and "made no sense" in store.notes[0]
    store.update(solve("b.py::test_b"))
    assert set(on_disk(store)["koans"]) == {"b.py::test_b"}
    store.read()
    assert len(store.notes) == 1


def test_a_store_that_cannot_write_still_gives_what_the_file_holds(tmp_path: Path, monkeypatch) -> None:
    store = Store(tmp_path)
    store.update(solve("a.py::test_a"))

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(progress.os, "fsync", refuse)
    with store.batch():
        store.update(solve("b.py::test_b"))
    assert "cannot be saved" in store.notes[-1]
    assert set(store.read()["koans"]) == {"a.py::test_a"}
    assert not list(tmp_path.glob(".progress.*.tmp"))


def test_a_run_whose_progress_cannot_be_saved_says_so(course) -> None:
    course.run()
    progress_file = course.path(".koans/progress.json")
    progress_file.unlink()
    progress_file.mkdir()  # neither readable nor replaceable as a file
    result = course.run()
    assert "cannot be saved" in result.stdout, result.stdout
    assert result.stdout.count("cannot be saved") == 1
