"""Running koan files with pytest, in a fresh child per run, forked from a warm server.

The learner's process never imports pytest. It forks a *server* that imports pytest (and, once a
koan needs them, numpy, hypothesis and torch; never initialising CUDA) and calls ``pytest.main``
once, on the course, with a small plugin: pytest parses its configuration, loads the conftest,
configures its plugins and starts a session, and then, at ``pytest_collection``, the plugin waits
for requests instead of collecting. Each run forks a *child* there: the child sets the session's
arguments to one koan file and returns from the hook, so pytest collects and runs just that file,
sends the conftest's verdicts (``report.user_properties``) back over a pipe, and exits; no module
state leaks between runs, and a run pays only for collecting and running its own file. The server
watches the child: a koan that runs past the timeout (an infinite loop, a deadlock) has its stack
dumped by ``faulthandler`` to find the learner's line, and the child's process group is killed.

If that session cannot start (a broken ``conftest.py``, say), every child runs a whole
``pytest.main`` instead, which reports the problem. Where ``os.fork`` does not exist, each run is
a plain ``python -m pytest --koans-json`` subprocess.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import sys
import time
from pathlib import Path
from typing import Any

from .early import Signature, config_signature, fork_server, state_dir, take
from .supervise import empty_run

DEFAULT_TIMEOUT = 10.0
class Runner:
    """Runs koan files for one course root. ``run`` blocks until the verdicts are in."""

    def __init__(self, root: Path, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.root = root
        self.timeout = timeout
        self.log_dir = Path(state_dir(root), "logs")
        self.pid: int | None = None
        self._requests: Any = None
        self._replies: Any = None
        self._config: Signature = ()
        self.fork = hasattr(os, "fork") and os.environ.get("KOANS_NO_FORK") != "1"

    def start(self) -> None:
        """Fork the server (if none is up): it warms up while the learner's process goes on."""
        if not self.fork:
            return
        signature = config_signature(self.root)
        if self.pid is not None and signature != self._config:
            self.close()  # conftest.py or pyproject.toml changed under the session
        if self.pid is not None:
            return
        early = take(self.root)
        if early is not None and early[0] == signature:
            pid, req_w, rep_r = early[1]
        else:
            if early is not None:  # forked before the configuration changed: not that one
                self._adopt(early[1])
                self.close()
            pid, req_w, rep_r = fork_server(self.root)
        self._config = signature
        self._adopt((pid, req_w, rep_r))

    def _adopt(self, server: tuple[int, int, int]) -> None:
        pid, req_w, rep_r = server
        self.pid = pid
        self._requests = os.fdopen(req_w, "wb", buffering=0)
        self._replies = os.fdopen(rep_r, "rb")

    def _send(self, request: dict[str, Any]) -> None:
        self._requests.write((json.dumps(request) + "\n").encode())

    def preload(self, modules: list[str], files: list[str] | None = None) -> None:
        """Have the server import ``modules`` and read what runs of ``files`` will need."""
        if (modules or files) and self.fork:
            self.start()
            with contextlib.suppress(OSError):
                self._send({"op": "preload", "modules": modules, "files": list(files or [])})

    def run(self, rel: str, needs: list[str], only: list[str] | None = None) -> dict[str, Any]:
        """The verdicts of koan file ``rel`` (of the koans named ``only``, when given)."""
        if not self.fork:
            return self._run_subprocess(rel, only)
        for _attempt in (1, 2):
            self.start()
            try:
                self._send({"op": "run", "file": rel, "needs": needs, "timeout": self.timeout,
                            "only": list(only or [])})
                self._wait_for_reply(rel)
                raw = self._replies.readline()
                if raw:
                    return dict(json.loads(raw))
            except (OSError, ValueError):
                pass
            self.close()  # the server died: start a fresh one once
        result = empty_run(rel)
        result["internal"] = "the koan server stopped unexpectedly"
        return result

    # Set by watch mode: ``interrupt()`` says whether to give up on the run in progress (the
    # learner saved again); ``slow(rel)`` is told once when a run takes longer than SLOW.
    interrupt: Any = None
    slow: Any = None
    SLOW = 0.3

    def _wait_for_reply(self, rel: str) -> None:
        if self.interrupt is None and self.slow is None:
            return
        started = time.monotonic()
        told = False
        fd = self._replies.fileno()
        while True:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                return
            if not told and self.slow is not None and time.monotonic() - started > self.SLOW:
                told = True
                self.slow(rel)
            if self.interrupt is not None and self.interrupt():
                self._send({"op": "cancel"})
                return  # the server replies at once, with "cancelled"

    def close(self) -> None:
        if self.pid is None:
            return
        pid, self.pid = self.pid, None
        with contextlib.suppress(OSError):
            self._send({"op": "quit"})
        with contextlib.suppress(OSError):
            self._requests.close()
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
        with contextlib.suppress(OSError, ChildProcessError):
            os.waitpid(pid, 0)
        with contextlib.suppress(OSError):
            self._replies.close()

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- no fork: one pytest subprocess per run -----------------------------------------------

    def _run_subprocess(self, rel: str, only: list[str] | None = None) -> dict[str, Any]:
        """Without fork (Windows, or KOANS_NO_FORK=1): a plain pytest process per run, with the
        server's own rule (no plugins autoloaded but Hypothesis's, PYTEST_ADDOPTS ignored). A
        save cancels it; the plugin stops a koan that runs past its time (SIGALRM, or a watchdog
        thread where there is none), and a process that hangs in C is killed at last, naming the
        koan it was running."""
        import subprocess
        import tempfile

        from .server import pytest_args
        from .supervise import LOAD_LIMIT, SLOW_FACTOR, WALL_SLACK

        started = time.monotonic()
        result = empty_run(rel)
        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / "koans.json"
            targets = [f"{rel}::{name}" for name in only] if only else [rel]
            command = [sys.executable, "-m", "pytest", *pytest_args(self.root, targets),
                       "--koans-json", str(target), "--koans-timeout", str(self.timeout)]
            env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
            env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
            proc = subprocess.Popen(command, cwd=self.root, env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            limit = LOAD_LIMIT + self.timeout * SLOW_FACTOR * WALL_SLACK
            told = False
            while proc.poll() is None:
                time.sleep(0.05)
                waited = time.monotonic() - started
                if self.interrupt is not None and self.interrupt():
                    proc.kill()
                    proc.wait()
                    result["cancelled"] = True
                    return result
                if not told and self.slow is not None and waited > self.SLOW:
                    told = True
                    self.slow(rel)
                if waited > limit:
                    proc.kill()
                    proc.wait()
                    running = Path(f"{target}.current")
                    koan = running.read_text(encoding="utf-8").strip() if running.is_file() else ""
                    what = f"the koan {koan.split('::')[-1]}" if koan else "this file"
                    result["broken"] = {"nodeid": rel, "kind": "timeout", "file": rel, "line": 0,
                                        "message": f"{rel}: {what} ran for more than {limit:g} s "
                                        "and was stopped: an infinite loop, or a deadlock?"}
                    return result
            try:
                data = json.loads(target.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {"koans": []}
        for row in data["koans"]:
            if row["kind"] == "broken":
                result["broken"] = row
            else:
                result["koans"].append(row)
        result["elapsed"] = time.monotonic() - started
        return result
