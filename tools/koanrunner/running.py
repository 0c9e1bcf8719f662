"""Running koan files with pytest, in a fresh child per run, forked from a warm server.

The learner's process never imports pytest. It forks a *server* that imports pytest (and, once a
koan needs them, numpy, hypothesis and torch; never initialising CUDA) and waits. Each run forks a
*child* from the server: the child starts with everything imported, runs ``pytest.main`` on one
file with a small plugin that sends the conftest's verdicts (``report.user_properties``) back over
a pipe, and exits, so no module state leaks between runs. The server watches the child: a koan
that runs past the timeout (an infinite loop, a deadlock) has its stack dumped by ``faulthandler``
to find the learner's line, and the child's process group is killed.

Where ``os.fork`` does not exist, each run is a plain ``python -m pytest --koans-json`` subprocess.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_TIMEOUT = 10.0
FAULT_LINE = re.compile(r'File "(?P<file>.+)", line (?P<line>\d+)')


def empty_run(rel: str) -> dict[str, Any]:
    return {"file": rel, "koans": [], "broken": None, "skipped": None, "elapsed": 0.0}


# ---------------------------------------------------------------------------------------------
# Inside the child: a pytest plugin that streams verdicts over a pipe


class _Reporter:
    """Sends collection, start and verdict events as JSON lines to the server."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def send(self, **event: Any) -> None:
        data = (json.dumps(event) + "\n").encode()
        while data:
            data = data[os.write(self.fd, data):]

    def pytest_collection_finish(self, session: Any) -> None:
        self.send(ev="collected", nodeids=[item.nodeid for item in session.items])

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        self.send(ev="start", nodeid=nodeid)

    def pytest_runtest_logreport(self, report: Any) -> None:
        for key, value in report.user_properties:
            if key == "koan":
                self.send(ev="report", nodeid=report.nodeid, duration=report.duration, **value)

    def pytest_collectreport(self, report: Any) -> None:
        verdict = getattr(report, "koan_verdict", None)
        if report.failed and verdict:
            self.send(ev="broken", nodeid=report.nodeid, **verdict)
        elif report.failed:
            text = str(report.longrepr).strip().splitlines()
            self.send(ev="broken", nodeid=report.nodeid, kind="broken", file=report.nodeid,
                      line=0, message=f"{report.nodeid}: pytest could not collect this file\n    "
                      + (text[-1] if text else ""))
        elif report.skipped and report.nodeid.endswith(".py"):
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            self.send(ev="skipped", nodeid=report.nodeid, reason=str(reason))


def pytest_args(root: Path, files: list[str], needs: list[str]) -> list[str]:
    args = [str(root / rel) for rel in files]
    args += ["--rootdir", str(root), "--confcutdir", str(root), "-p", "no:cacheprovider", "-q",
             "--tb=native"]
    if (root / "pyproject.toml").is_file():
        args += ["-c", str(root / "pyproject.toml")]
    if "hypothesis" in needs:
        with contextlib.suppress(ImportError):
            import _hypothesis_pytestplugin  # noqa: F401

            args += ["-p", "_hypothesis_pytestplugin"]
    return args


def _set_death_signal() -> None:
    """Linux: the child dies with its server, never lingering as an orphan."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _child_main(root: Path, files: list[str], needs: list[str], wfd: int, log_path: str) -> None:
    os.setpgid(0, 0)  # its own group: the terminal's Ctrl-C goes to the runner, who decides
    _set_death_signal()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    import faulthandler

    log_file = os.fdopen(log, "w", buffering=1)
    faulthandler.enable(file=log_file, all_threads=True)
    faulthandler.register(signal.SIGUSR1, file=log_file, all_threads=True)
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    os.chdir(root)
    reporter = _Reporter(wfd)
    code = 3
    try:
        import pytest

        code = int(pytest.main(pytest_args(root, files, needs), plugins=[reporter]))
        reporter.send(ev="done", code=code)
    except BaseException as err:
        with contextlib.suppress(Exception):
            reporter.send(ev="internal", message=f"{type(err).__name__}: {err}")
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(0 if code in (0, 1) else code)


# ---------------------------------------------------------------------------------------------
# The server


def warm_pytest() -> None:
    """Import pytest and the plugins ``pytest.main`` loads, so a child only runs."""
    import importlib

    import pytest  # noqa: F401
    from _pytest.config import default_plugins

    for name in default_plugins:
        with contextlib.suppress(Exception):
            importlib.import_module(f"_pytest.{name}")
    for name in ("_pytest.assertion.rewrite", "_pytest.python_api", "_pytest.outcomes"):
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def preload(modules: list[str]) -> None:
    """Import heavy modules in the server (never touching CUDA: only ``import torch``)."""
    import importlib

    for name in modules:
        if name in sys.modules:
            continue
        with contextlib.suppress(Exception):
            importlib.import_module(name)
        if name == "hypothesis":
            with contextlib.suppress(Exception):
                importlib.import_module("_hypothesis_pytestplugin")


def _koan_line(text: str, path: Path) -> int:
    """The innermost line of ``path`` in a faulthandler dump (the current thread first)."""
    target = os.path.normcase(str(path))
    blocks = re.split(r"\n(?=(?:Current thread|Thread) 0x)", text)
    blocks.sort(key=lambda block: not block.startswith("Current thread"))
    for block in blocks:
        for match in FAULT_LINE.finditer(block):
            if os.path.normcase(match["file"]) == target:
                return int(match["line"])
    return 0


def _source_line(path: Path, line: int) -> str:
    try:
        rows = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ""
    return rows[line - 1].strip() if 0 < line <= len(rows) else ""


def supervise(
    root: Path, files: list[str], needs: list[str], timeout: float, log_dir: Path
) -> dict[str, Any]:
    """Fork a child that runs ``files``; enforce the per-koan timeout; collect its verdicts."""
    started = time.monotonic()
    rel = files[0]
    result = empty_run(rel)
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = str(log_dir / f"run-{os.getpid()}.log")
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(rfd)
        _child_main(root, files, needs, wfd, log_path)
    os.close(wfd)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)
    running: str | None = None
    collected: list[str] = []
    verdicts: dict[str, dict[str, Any]] = {}
    done = False
    buffer = b""
    limit = max(timeout * 2, 10.0)  # import and collection may import heavy modules
    deadline = time.monotonic() + limit
    timed_out = False
    while True:
        wait = deadline - time.monotonic()
        if wait <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([rfd], [], [], wait)
        if not ready:
            continue
        chunk = os.read(rfd, 65536)
        if not chunk:
            break
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            event = json.loads(raw)
            kind = event.pop("ev")
            if kind == "collected":
                collected = event["nodeids"]
            elif kind == "start":
                running = event["nodeid"]
                deadline = time.monotonic() + timeout
            elif kind == "report":
                verdicts[event["nodeid"]] = event
                running = None
                deadline = time.monotonic() + limit
            elif kind == "broken":
                result["broken"] = event
            elif kind == "skipped":
                result["skipped"] = event["reason"]
            elif kind == "done":
                done = True
            elif kind == "internal":
                result["internal"] = event["message"]
    dump = ""
    if timed_out:
        with contextlib.suppress(OSError):
            size = os.path.getsize(log_path)
            os.kill(pid, signal.SIGUSR1)
            end = time.monotonic() + 5.0  # returns as soon as the dump lands
            while time.monotonic() < end and os.path.getsize(log_path) == size:
                time.sleep(0.01)
            time.sleep(0.05)
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(rfd)
    with contextlib.suppress(OSError):
        with open(log_path, encoding="utf-8", errors="replace") as handle:
            dump = handle.read()
        os.replace(log_path, log_dir / "last-run.log")
    path = root / rel
    if timed_out or not done:
        line = _koan_line(dump, path)
        code = _source_line(path, line)
        if timed_out:
            what = "this koan" if running else "importing this file"
            seconds = timeout if running else limit
            head = (f"{rel}:{line}: {what} ran for more than {seconds:g} s and was stopped: "
                    "an infinite loop, or a deadlock?")
            kind = "timeout"
        else:
            sig = -1
            if os.WIFSIGNALED(status):
                sig = os.WTERMSIG(status)
            name = signal.Signals(sig).name if sig > 0 else f"exit status {os.WEXITSTATUS(status)}"
            head = f"{rel}:{line}: Python stopped abruptly ({name}) while running this"
            kind = "crashed"
        message = head + (f"\n    {code}" if code else "")
        verdict = {"kind": kind, "file": rel, "line": line, "message": message}
        if running:
            verdicts[running] = dict(nodeid=running, **verdict)
        elif result["broken"] is None and not collected:
            result["broken"] = dict(nodeid=rel, **verdict)
        elif result["broken"] is None:
            after = [n for n in collected if n not in verdicts]
            if after:
                verdicts[after[0]] = dict(nodeid=after[0], **verdict)
    order = collected or list(verdicts)
    result["koans"] = [
        verdicts.get(n) or {"nodeid": n, "kind": "unknown", "file": rel, "line": 0, "message": ""}
        for n in order
    ]
    result["elapsed"] = time.monotonic() - started
    return result


def _server_main(req_fd: int, rep_fd: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the learner's process handles Ctrl-C
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    with contextlib.suppress(Exception):
        warm_pytest()
    requests = os.fdopen(req_fd, "rb")
    replies = os.fdopen(rep_fd, "wb", buffering=0)
    for raw in requests:
        request = json.loads(raw)
        op = request.get("op")
        if op == "quit":
            break
        if op == "preload":
            preload(request["modules"])
            continue
        if op == "run":
            preload(request["needs"])
            gc.freeze()  # the child's gc.collect() skips everything the server imported
            try:
                reply = supervise(Path(request["root"]), request["files"], request["needs"],
                                  float(request["timeout"]), Path(request["log_dir"]))
            except Exception as err:
                reply = empty_run(request["files"][0])
                reply["internal"] = f"{type(err).__name__}: {err}"
            replies.write((json.dumps(reply) + "\n").encode())
    os._exit(0)


class Runner:
    """Runs koan files for one course root. ``run`` blocks until the verdicts are in."""

    def __init__(self, root: Path, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.root = root
        self.timeout = timeout
        self.log_dir = root / ".koans" / "logs"
        self.pid: int | None = None
        self._requests: Any = None
        self._replies: Any = None
        self.fork = hasattr(os, "fork") and os.environ.get("KOANS_NO_FORK") != "1"

    def start(self) -> None:
        if not self.fork or self.pid is not None:
            return
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the server
            try:
                os.close(req_w)
                os.close(rep_r)
                _server_main(req_r, rep_w)
            finally:
                os._exit(0)
        os.close(req_r)
        os.close(rep_w)
        self.pid = pid
        self._requests = os.fdopen(req_w, "wb", buffering=0)
        self._replies = os.fdopen(rep_r, "rb")

    def _send(self, request: dict[str, Any]) -> None:
        self._requests.write((json.dumps(request) + "\n").encode())

    def preload(self, modules: list[str]) -> None:
        if modules and self.fork:
            self.start()
            with contextlib.suppress(OSError):
                self._send({"op": "preload", "modules": modules})

    def run(self, rel: str, needs: list[str]) -> dict[str, Any]:
        if not self.fork:
            return self._run_subprocess(rel)
        for _attempt in (1, 2):
            self.start()
            try:
                self._send({"op": "run", "root": str(self.root), "files": [rel], "needs": needs,
                            "timeout": self.timeout, "log_dir": str(self.log_dir)})
                raw = self._replies.readline()
                if raw:
                    return dict(json.loads(raw))
            except (OSError, ValueError):
                pass
            self.close()  # the server died: start a fresh one once
        result = empty_run(rel)
        result["internal"] = "the koan server stopped unexpectedly"
        return result

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

    def _run_subprocess(self, rel: str) -> dict[str, Any]:
        started = time.monotonic()
        result = empty_run(rel)
        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / "koans.json"
            command = [sys.executable, "-m", "pytest", str(self.root / rel), "--rootdir",
                       str(self.root), "-p", "no:cacheprovider", "-q", "--koans-json", str(target)]
            try:
                subprocess.run(command, cwd=self.root, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=self.timeout * 3 + 10, check=False)
            except subprocess.TimeoutExpired:
                line = 0
                result["broken"] = {"nodeid": rel, "kind": "timeout", "file": rel, "line": line,
                                    "message": f"{rel}: this file ran for too long and was stopped:"
                                    " an infinite loop, or a deadlock?"}
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
