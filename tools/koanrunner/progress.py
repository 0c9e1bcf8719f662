"""The progress store: ``.koans/progress.json``.

- keyed by stable koan identity ('topic/file.py::test_name'), so an updated suite keeps it;
- written atomically (a temporary file, fsync, ``os.replace``);
- guarded by ``fcntl.flock`` on ``.koans/progress.lock``, so two runners never lose updates;
- a missing or corrupted file is rebuilt (the bad one is kept aside), never fatal;
- parsed once per version: a read whose bytes are those last read or written reuses their parse,
  and a ``batch`` (one step of the runner) writes its changes once, at its end.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, atomic replace still holds
    fcntl = None  # type: ignore[assignment]

VERSION = 1


def empty() -> dict[str, Any]:
    return {
        "version": VERSION,
        "koans": {},  # key -> {"kind", "solved_at", "hints", "runs", "first_seen"}
        "files": {},  # rel -> {"digest", "env", "keys", "all_solved"}
        "skipped": [],  # keys the learner put aside with `skip`
        "start": None,  # where `goto` starts the path
        "current": None,  # the koan on screen: its key and file
        "stuck": {"key": None, "runs": 0},  # failed runs in a row on the same koan
    }


def _sane(data: dict[str, Any]) -> dict[str, Any]:
    """The stored progress with every entry of the wrong shape dropped (valid JSON can still be
    nonsense: a hand edit, another tool, a half-written file from an old version)."""
    fresh = empty()
    out: dict[str, Any] = {"version": VERSION}
    koans = data.get("koans")
    out["koans"] = {str(k): v for k, v in koans.items() if isinstance(v, dict)} \
        if isinstance(koans, dict) else {}
    for entry in out["koans"].values():
        if not isinstance(entry.get("kind", ""), str):
            entry.pop("kind")
        if not isinstance(entry.get("hints", 0), int) or isinstance(entry.get("hints"), bool):
            entry["hints"] = 0
    files = data.get("files")
    out["files"] = {str(k): v for k, v in files.items()
                    if isinstance(v, dict) and isinstance(v.get("keys", []), list)
                    and all(isinstance(key, str) for key in v.get("keys", []))} \
        if isinstance(files, dict) else {}
    skipped = data.get("skipped")
    out["skipped"] = [k for k in skipped if isinstance(k, str)] if isinstance(skipped, list) else []
    out["start"] = data["start"] if isinstance(data.get("start"), str) else None
    current = data.get("current")
    out["current"] = current if isinstance(current, dict) and isinstance(current.get("key"), str) \
        and isinstance(current.get("file"), str) else None
    stuck = data.get("stuck")
    out["stuck"] = stuck if isinstance(stuck, dict) and isinstance(stuck.get("runs", 0), int) \
        else fresh["stuck"]
    for key, value in data.items():  # anything newer versions added, kept as it is
        out.setdefault(key, value)
    return out


class Store:
    def __init__(self, state_dir: Path) -> None:
        self.dir = state_dir
        self.path = state_dir / "progress.json"
        self.lock_path = state_dir / "progress.lock"
        self.notes: list[str] = []
        self.warned = False
        self._raw: bytes | None = None  # the file's bytes as last read or written ...
        self._data: dict[str, Any] | None = None  # ... and what they hold
        self._pending: list[Callable[[dict[str, Any]], Any]] | None = None  # a batch's changes
        self._base: bytes | None = None  # the file's bytes when the batch first read it
        self._work: dict[str, Any] | None = None  # the progress as the batch has changed it

    @contextlib.contextmanager
    def _locked(self, exclusive: bool) -> Iterator[None]:
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            handle = open(self.lock_path, "a+")  # noqa: SIM115 - closed below
        except OSError:  # a read-only checkout: no lock to take, and nothing will be written
            yield
            return
        if fcntl is None:
            handle.close()
            yield
            return
        with handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def _load(self) -> dict[str, Any]:
        """The progress as the file holds it now. The same bytes give the same object back, so
        a caller changes it only through ``update`` (which writes it, or forgets it)."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            self._forget()
            return empty()
        except OSError as err:
            self._forget()
            self.notes.append(f"could not read {self.path.name} ({err.strerror}); starting afresh")
            return empty()
        if self._data is not None and raw == self._raw:
            return self._data
        self._forget()
        data, read = self._parse(raw)
        if read:
            self._raw, self._data = raw, data
        return data

    def _forget(self) -> None:
        self._raw = self._data = None

    def _bytes(self) -> bytes | None:
        try:
            return self.path.read_bytes()
        except OSError:
            return None

    def _parse(self, raw: bytes) -> tuple[dict[str, Any], bool]:
        """What ``raw`` holds, and whether it was read (False: unreadable, so rebuilt)."""
        try:
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict) or data.get("version") != VERSION:
                raise ValueError("unknown layout")
            clean = _sane(data)
            if clean != data:
                aside = self.path.with_name(f"progress.odd-{time.strftime('%Y%m%d-%H%M%S')}.json")
                with contextlib.suppress(OSError):
                    aside.write_bytes(raw)
                self.notes.append(f"some entries of the progress file made no sense and were "
                                  f"dropped (the file as it was is kept as {aside.name})")
            return clean, True
        except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError included
            aside = self.path.with_name(f"progress.corrupt-{time.strftime('%Y%m%d-%H%M%S')}.json")
            with contextlib.suppress(OSError):
                os.replace(self.path, aside)
            self.notes.append(
                f"the progress file was unreadable; it was rebuilt (the old one is kept as {aside.name})"
            )
            return empty(), False

    def _save(self, data: dict[str, Any]) -> None:
        # one line, so that the C encoder writes it: a whole course's progress is large
        raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode("utf-8")
        if raw == self._raw and self.path.exists():
            self._data = data  # nothing changed: nothing to write
            return
        self._forget()
        tmp = self.path.with_name(f".progress.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as handle:
                handle.write(raw)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
            self._raw, self._data = raw, data
        except OSError as err:
            with contextlib.suppress(OSError):
                tmp.unlink()
            note = (f"progress cannot be saved in {self.dir} ({err.strerror}): the verdicts are "
                    "right, but nothing is remembered between runs")
            if note not in self.notes and not self.warned:
                self.notes.append(note)
                self.warned = True

    def read(self) -> dict[str, Any]:
        """The progress, not to be changed but through ``update``."""
        if self._pending is not None:
            return self._batch_data()
        with self._locked(exclusive=False):
            return self._load()

    def update(self, change: Callable[[dict[str, Any]], Any]) -> Any:
        """Read, change and write back under the lock; returns what ``change`` returns. Inside
        a ``batch`` the change is made at once to the batch's progress and written at its end.
        ``change`` changes nothing but the progress it is given: it may be made twice."""
        if self._pending is not None:
            data = self._batch_data()
            try:
                result = change(data)
            except BaseException:
                self._work = None  # half changed: the batch's end starts again from the file
                self._forget()
                raise
            self._pending.append(change)
            return result
        with self._locked(exclusive=True):
            data = self._load()
            try:
                result = change(data)
            except BaseException:
                self._forget()
                raise
            self._save(data)
            return result

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Changes made inside are written once, at the end: one write a step, not one a change.
        Where another runner wrote the file meanwhile, the changes are made again to what it
        wrote, so that neither loses anything."""
        if self._pending is not None:
            yield
            return
        self._pending, self._base, self._work = [], None, None
        try:
            yield
        finally:
            pending, work, base = self._pending, self._work, self._base
            self._pending = self._work = self._base = None
            if pending:
                with self._locked(exclusive=True):
                    if work is None or self._bytes() != base:
                        self._forget()
                        work = self._load()
                        for change in pending:
                            change(work)
                    self._save(work)

    def _batch_data(self) -> dict[str, Any]:
        if self._work is None:  # first read, or again after a change that failed half made
            with self._locked(exclusive=False):
                self._work = self._load()
                self._base = self._raw if self._data is self._work else self._bytes()
            for change in self._pending or ():
                change(self._work)
        return self._work
