"""Keys typed while watch mode or a kata runs: one key at a time on a terminal, a line at a time
otherwise, on every platform.

- POSIX terminal: cbreak mode (no Enter, no echo), put back on every way out, and set again when
  the process is continued after Ctrl-Z (SIGCONT: the shell restores its own mode on ``fg``).
- Windows console: ``msvcrt.kbhit`` and ``msvcrt.getwch`` (``select`` takes only sockets there).
- Anything else (a pipe, a file, a test driving the runner): ``readline``.

``wait_ready(timeout)`` says whether a key (or a line) is there to read; the watch loop combines
it with file events through ``selectable()``: a file descriptor ``select`` can wait on, or None
when the keys must be polled.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from typing import Any

POLL = 0.05


def _is_tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _readable(stream: Any) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


class Keys:
    """Keys from ``stream`` (sys.stdin): ``read()`` gives one key, or one line off a terminal;
    '' at the end of input. ``msvcrt`` may be passed in (tests fake the Windows console)."""

    def __init__(self, stream: Any, msvcrt: Any = None, windows: bool | None = None) -> None:
        self.stream = stream
        self.saved: Any = None
        self.msvcrt = msvcrt
        self.mode = "lines" if _readable(stream) else "none"
        windows = sys.platform == "win32" if windows is None else windows
        if not _is_tty(stream) and msvcrt is None:
            return
        if windows:
            if self.msvcrt is None:
                with contextlib.suppress(ImportError):
                    import msvcrt as console

                    self.msvcrt = console
            if self.msvcrt is not None:
                self.mode = "console"
            return
        with contextlib.suppress(Exception):
            import termios

            self.saved = termios.tcgetattr(stream.fileno())
            self._cbreak()
            self.mode = "cbreak"
            self._previous = signal.signal(signal.SIGCONT, self._continued)

    def _cbreak(self) -> None:
        import termios
        import tty

        tty.setcbreak(self.stream.fileno(), termios.TCSANOW)  # keys typed ahead are kept

    def _continued(self, signum: int, frame: Any) -> None:
        """Back from Ctrl-Z: the shell put the terminal in its own mode; take cbreak again."""
        with contextlib.suppress(Exception):
            self._cbreak()
        previous = getattr(self, "_previous", None)
        if callable(previous):
            previous(signum, frame)

    def selectable(self) -> Any:
        """What ``select`` can wait on for keys (the stream), or None: poll ``ready()``."""
        return self.stream if self.mode in ("cbreak", "lines") else None

    def ready(self) -> bool:
        """A key is waiting (console mode only; the others are waited on with select)."""
        return self.mode == "console" and bool(self.msvcrt.kbhit())

    def wait_ready(self, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while True:
            if self.ready():
                return True
            left = end - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(POLL, left))

    def read(self) -> str:
        if self.mode == "console":
            key = self.msvcrt.getwch()
            return "r" if key in ("\r", "\n") else key
        if self.mode == "cbreak":
            data = os.read(self.stream.fileno(), 1)
            if not data:
                return ""
            key = data.decode(errors="replace")
            return "r" if key in ("\n", "\r") else key
        if self.mode == "none":
            return ""
        return str(self.stream.readline())

    def restore(self) -> None:
        if self.saved is None:
            return
        with contextlib.suppress(Exception):
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self.saved)
            signal.signal(signal.SIGCONT, getattr(self, "_previous", signal.SIG_DFL) or signal.SIG_DFL)
        self.saved = None
