"""Watch mode: re-run on every save, redraw, keep going whatever the learner's file does.

File events come from inotify (through ctypes, Linux) or, where that is unavailable, from polling
``os.stat`` every 0.1 s. A burst of events (an editor writing a temporary file, renaming it,
touching the swap file) is debounced into one run: once every file written has been closed (or
renamed into place), 5 ms without events end the burst; while one is still open, 30 ms do.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import struct
import sys
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable

from .keys import Keys, _is_tty

QUIET = 0.03  # a save burst is over after this long without events
SETTLED = 0.005  # ... or after this long, once every file written in it was closed
POLL = 0.1


def _interesting(name: str) -> bool:
    return (name.endswith((".py", ".toml", ".md")) and not name.startswith((".", "#"))
            and not name.endswith("~"))


class PollWatcher:
    kind = "polling"
    settled = True  # a change is seen only once the file's size and mtime moved

    def __init__(self, base: Path) -> None:
        self.base = base
        self.state = self._scan()

    def _scan(self) -> dict[str, tuple[int, int]]:
        state = {}
        with contextlib.suppress(OSError):
            for topic in os.scandir(self.base):
                if not topic.is_dir():
                    continue
                with contextlib.suppress(OSError):
                    for entry in os.scandir(topic.path):
                        if _interesting(entry.name):
                            with contextlib.suppress(OSError):
                                st = entry.stat()
                                state[entry.path] = (st.st_mtime_ns, st.st_size)
        return state

    def fileno(self) -> int | None:
        return None

    def changes(self) -> set[str]:
        new = self._scan()
        changed = {p for p in set(new) | set(self.state) if new.get(p) != self.state.get(p)}
        self.state = new
        return changed

    def close(self) -> None:
        pass


class InotifyWatcher:
    kind = "inotify"
    MASK = 0x2 | 0x8 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800  # modify, close_write, moves, create, delete, self
    IN_ISDIR = 0x40000000

    def __init__(self, base: Path) -> None:
        self.base = base
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(0o4000 | 0o2000000)  # IN_NONBLOCK | IN_CLOEXEC
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1 failed")
        self.dirs: dict[int, str] = {}
        self.writing: set[str] = set()  # files modified and not yet closed
        self._add(str(base))
        for entry in os.scandir(base):
            if entry.is_dir():
                self._add(entry.path)

    def _add(self, path: str) -> None:
        wd = self.libc.inotify_add_watch(self.fd, os.fsencode(path), self.MASK)
        if wd >= 0:
            self.dirs[wd] = path

    def fileno(self) -> int | None:
        return self.fd

    def changes(self) -> set[str]:
        changed: set[str] = set()
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return changed
            offset = 0
            while offset + 16 <= len(data):
                wd, mask, _cookie, length = struct.unpack_from("iIII", data, offset)
                name = data[offset + 16: offset + 16 + length].rstrip(b"\0").decode(errors="replace")
                offset += 16 + length
                parent = self.dirs.get(wd, "")
                path = os.path.join(parent, name) if name else parent
                if mask & self.IN_ISDIR:
                    if mask & (0x100 | 0x80):
                        self._add(path)
                    changed.add(path)
                elif _interesting(name):
                    changed.add(path)
                    if mask & (0x2 | 0x100):  # modified or created: being written
                        self.writing.add(path)
                    if mask & (0x8 | 0x40 | 0x80 | 0x200):  # closed, moved, deleted: done
                        self.writing.discard(path)

    @property
    def settled(self) -> bool:
        return not self.writing

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


class KqueueWatcher(PollWatcher):
    """macOS and the BSDs: the kernel's kqueue wakes the watcher the moment a watched folder or
    file is written, renamed or deleted (editors often save by renaming a new file into place);
    what changed is then read as the polling watcher reads it, so the two agree on every
    change. ``kqueue`` may be passed in (the tests fake it where the OS has none)."""

    kind = "kqueue"
    EVENTS = 0x2 | 0x4 | 0x1 | 0x20 | 0x8  # NOTE_WRITE, NOTE_EXTEND, NOTE_DELETE, NOTE_RENAME, NOTE_ATTRIB
    O_EVTONLY = 0x8000  # watch without keeping a volume busy (macOS); 0 elsewhere is fine too

    def __init__(self, base: Path, kqueue: Any = None) -> None:
        import select as selectmod

        self.sel = selectmod if kqueue is None else kqueue
        self.kq = self.sel.kqueue()
        self.fds: dict[str, int] = {}
        super().__init__(base)
        self._watch()

    def _watch(self) -> None:
        """A watch on the base folder, each topic folder and each file the scan found."""
        wanted = {str(self.base)} | {os.path.dirname(p) for p in self.state} | set(self.state)
        for path in list(self.fds):
            if path not in wanted:
                with contextlib.suppress(OSError):
                    os.close(self.fds.pop(path))
        events = []
        for path in sorted(wanted - set(self.fds)):
            try:
                fd = os.open(path, os.O_RDONLY | (self.O_EVTONLY if sys.platform == "darwin" else 0))
            except OSError:
                continue
            self.fds[path] = fd
            events.append(self.sel.kevent(fd, filter=self.sel.KQ_FILTER_VNODE,
                                          flags=self.sel.KQ_EV_ADD | self.sel.KQ_EV_CLEAR,
                                          fflags=self.EVENTS))
        if events:
            self.kq.control(events, 0, 0)

    def fileno(self) -> int | None:
        return int(self.kq.fileno())

    def changes(self) -> set[str]:
        with contextlib.suppress(OSError):
            self.kq.control(None, 64, 0)  # drain what woke us; the scan says what changed
        changed = super().changes()
        if changed:
            self._watch()  # new files and folders, renamed-in files
        return changed

    def close(self) -> None:
        for fd in self.fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds.clear()
        with contextlib.suppress(OSError):
            self.kq.close()


def make_watcher(base: Path) -> PollWatcher | InotifyWatcher:
    """inotify on Linux, kqueue on macOS and the BSDs, else polling (or KOANS_WATCH=poll)."""
    if os.environ.get("KOANS_WATCH") != "poll":
        if sys.platform.startswith("linux"):
            with contextlib.suppress(Exception):
                return InotifyWatcher(base)
        elif hasattr(select, "kqueue"):
            with contextlib.suppress(Exception):
                return KqueueWatcher(base)
    return PollWatcher(base)


def wait(watcher: PollWatcher | InotifyWatcher, timeout: float, keys: Keys | None = None
         ) -> tuple[set[str], bool]:
    """Block until files change (debounced), a key is typed, or ``timeout`` passes. Returns
    the changed files and whether a key is there to read."""
    end = time.monotonic() + timeout
    changed: set[str] = set()
    stdin = keys.selectable() if keys is not None else None
    polled = keys is not None and stdin is None and keys.mode == "console"
    while True:
        now = time.monotonic()
        wfd = watcher.fileno()
        step = min(end - now, POLL) if (wfd is None or polled) else end - now
        if changed:
            step = SETTLED if watcher.settled else QUIET
        fds = ([stdin] if stdin is not None else []) + ([wfd] if wfd is not None else [])
        if fds:
            ready, _, _ = select.select(fds, [], [], max(step, 0))
        else:  # nothing select can wait on (Windows: only sockets): sleep, then look again
            time.sleep(max(min(step, POLL), 0))
            ready = []
        key = (stdin is not None and stdin in ready) or (polled and keys is not None and keys.ready())
        got = watcher.changes() if (wfd is None or wfd in ready) else set()
        if got:
            changed |= got
            if wfd is None:  # polling: a change seen at this tick is quiet enough
                return changed, key
            continue
        if changed or key or time.monotonic() >= end:
            return changed, key


Command = Callable[[str], bool]


def loop(app: Any, on_tick: Callable[[], bool] | None = None,
         on_command: Command | None = None, finished: Callable[[Any], bool] | None = None) -> int:
    """Draw, then re-run on each change until 'q', end of input plus ``finished``, or Ctrl-C."""
    view = app.view
    watcher = make_watcher(app.course.koans_dir)
    app.runner.start()
    keys = Keys(sys.stdin)  # on a terminal: h, l, q act at once, without Enter
    pending: set[str] = set()

    def interrupt() -> bool:
        """A save while a koan runs (an endless loop, say) cancels that run."""
        found = watcher.changes()
        pending.update(found)
        return bool(found)

    def slow(rel: str) -> None:
        view.write(view.style(f"checking {rel} ... still running{app.slow_note(rel)} (save "
                              f"again to start over; a koan may run {app.runner.timeout:g} s, a "
                              "slow one longer)", "dim"))

    app.runner.interrupt, app.runner.slow = interrupt, slow

    def step() -> Any:
        shown = app.step(clear=True)
        while shown.walk.cancelled:  # saved again mid-run: let the save settle, then again
            wait(watcher, 0.05)
            pending.clear()
            shown = app.step(clear=True)
        return shown

    try:
        shown = step()
        _footer(view, watcher)
        _warm(app, shown)
        if finished and finished(shown):
            return 0
        where = _where(app)
        while True:
            changed, ready = wait(watcher, 1.0, keys if keys.mode != "none" else None)
            if not changed and not ready and _where(app) != where:
                changed = {"(goto or skip in another terminal)"}
            if ready:
                line = keys.read()
                if not line:
                    keys.mode = "none"  # the end of input: no more keys to wait for
                else:
                    command = line.strip().lower()
                    if command in ("q", "quit", "exit"):
                        return 0
                    if on_command and on_command(command):
                        continue
                    if command in ("h", "hint"):
                        app.hint()
                    elif command in ("l", "list", "status"):
                        rows = app.path.totals()
                        current = app.store.read().get("current") or {}
                        view.table(rows, (current.get("file") or "/").split("/")[1] if current else None)
                    elif command in ("", "r", "run"):
                        changed = {"(rerun)"}
                        app.path.full_run = True  # every koan of the file, nothing kept
                    else:
                        view.write("keys: Enter re-run, h hint, l list, q quit")
            if pending:
                changed |= pending
                pending.clear()
            if changed:
                shown = step()
                app.path.full_run = False
                where = _where(app)
                _footer(view, watcher)
                _warm(app, shown)
                if finished and finished(shown):
                    return 0
            if on_tick and on_tick():
                return 0
    except KeyboardInterrupt:
        view.write()
        view.write("Stopped watching. Your progress is saved.")
        return 0
    finally:
        app.runner.interrupt = app.runner.slow = None
        keys.restore()
        watcher.close()


def _where(app: Any) -> tuple[Any, ...]:
    """Where the path starts and what is put aside: `goto` and `skip`, typed anywhere."""
    data = app.store.read()
    return (data.get("start"), tuple(data.get("skipped") or ()))




def _footer(view: Any, watcher: Any) -> None:
    keys = "keys (no Enter needed): r re-run, h hint, l list, q quit" if _is_tty(sys.stdin) \
        else "type r, h, l or q and Enter: re-run, hint, list, quit"
    view.write(view.style(f"watching for saves ({watcher.kind}): save the koan file and its "
                          f"verdict appears here. {keys}", "dim"))




def _warm(app: Any, shown: Any) -> None:
    """Have the server import what the current and next files need before the next save."""
    stop = shown.walk.stop
    if stop is None:
        return
    files = [f for t in app.path.topics() for f in t.files]
    needs: list[str] = []
    warm: list[str] = []
    with contextlib.suppress(ValueError):
        index = files.index(stop.file)
        for f in files[index:index + 2]:
            needs += [n for n in f.needs() if n not in needs]
            warm.append(f.rel)
    app.runner.preload(needs, warm)
    with contextlib.suppress(Exception):  # the pristine koan a solved koan's answer is shown from
        app.pristine.text(stop.file.rel)
