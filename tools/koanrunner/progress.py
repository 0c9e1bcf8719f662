"""The progress store: ``.koans/progress.json``.

- keyed by stable koan identity ('topic/file.py::test_name'), so an updated suite keeps it;
- written atomically (a temporary file, fsync, ``os.replace``);
- guarded by ``fcntl.flock`` on ``.koans/progress.lock``, so two runners never lose updates;
- a missing or corrupted file is rebuilt (the bad one is kept aside), never fatal.
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


class Store:
    def __init__(self, state_dir: Path) -> None:
        self.dir = state_dir
        self.path = state_dir / "progress.json"
        self.lock_path = state_dir / "progress.lock"
        self.notes: list[str] = []

    @contextlib.contextmanager
    def _locked(self, exclusive: bool) -> Iterator[None]:
        self.dir.mkdir(parents=True, exist_ok=True)
        if fcntl is None:
            yield
            return
        with open(self.lock_path, "a+") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def _load(self) -> dict[str, Any]:
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return empty()
        except OSError as err:
            self.notes.append(f"could not read {self.path.name} ({err.strerror}); starting afresh")
            return empty()
        try:
            data = json.loads(raw)
            if not isinstance(data, dict) or data.get("version") != VERSION:
                raise ValueError("unknown layout")
            fresh = empty()
            for key, value in fresh.items():
                if not isinstance(data.get(key), type(value)) and value is not None:
                    data[key] = value
            return data
        except ValueError:
            aside = self.path.with_name(f"progress.corrupt-{time.strftime('%Y%m%d-%H%M%S')}.json")
            with contextlib.suppress(OSError):
                os.replace(self.path, aside)
            self.notes.append(
                f"the progress file was unreadable; it was rebuilt (the old one is kept as {aside.name})"
            )
            return empty()

    def _save(self, data: dict[str, Any]) -> None:
        tmp = self.path.with_name(f".progress.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1, sort_keys=True)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)

    def read(self) -> dict[str, Any]:
        with self._locked(exclusive=False):
            return self._load()

    def update(self, change: Callable[[dict[str, Any]], Any]) -> Any:
        """Read, change and write back under the lock; returns what ``change`` returns."""
        with self._locked(exclusive=True):
            data = self._load()
            result = change(data)
            self._save(data)
            return result
