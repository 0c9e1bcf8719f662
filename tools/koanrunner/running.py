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
import gc
import json
import os
import re
import select
import signal
import sys
import time
from pathlib import Path
from typing import Any

from .early import Signature, config_signature, fork_server, state_dir, take

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


def pytest_args(root: Path, targets: list[str]) -> list[str]:
    args = [str(root / rel) for rel in targets]
    args += ["--rootdir", str(root), "--confcutdir", str(root), "-p", "no:cacheprovider", "-q",
             "--tb=native"]
    if (root / "pyproject.toml").is_file():
        args += ["-c", str(root / "pyproject.toml")]
    with contextlib.suppress(ImportError, ValueError):
        import importlib.util

        # Hypothesis' plugin, as plain pytest autoloads it; it imports nothing heavy itself.
        if importlib.util.find_spec("_hypothesis_pytestplugin") is not None:
            args += ["-p", "_hypothesis_pytestplugin"]
    return args


_libc: list[Any] = []  # loaded once, in the server


def _load_libc() -> None:
    if sys.platform.startswith("linux") and not _libc:
        with contextlib.suppress(Exception):
            import ctypes

            _libc.append(ctypes.CDLL(None, use_errno=True))


def _set_death_signal() -> None:
    """Linux: the child dies with its server, never lingering as an orphan."""
    _load_libc()
    with contextlib.suppress(Exception):
        if _libc:
            _libc[0].prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _redirect(fd: int, path: str, flags: int) -> None:
    target = os.open(path, flags, 0o600)
    os.dup2(target, fd)
    os.close(target)


def _become_child(log_path: str, capman: Any = None) -> Any:
    """In a freshly forked child: own process group, default signals, output to the log."""
    os.setpgid(0, 0)  # its own group: the terminal's Ctrl-C goes to the runner, who decides
    _set_death_signal()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if capman is not None:  # pytest's capture holds the server's descriptors: let go first
        capman.stop_global_capturing()
    _redirect(0, os.devnull, os.O_RDONLY)
    _redirect(1, log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(1, 2)
    for name, fd in (("stdout", 1), ("stderr", 2)):  # whatever sys.stdout was, it is the log now
        setattr(sys, name, open(fd, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                                buffering=1, closefd=False))
    if capman is not None:  # and capture again, into this child's log
        capman.start_global_capturing()
        capman.suspend_global_capture()
    import faulthandler

    log_file = os.fdopen(os.dup(2), "w", buffering=1)
    faulthandler.enable(file=log_file, all_threads=True)
    faulthandler.register(signal.SIGUSR1, file=log_file, all_threads=True)
    return log_file


def _finish_child(reporter: _Reporter, code: int) -> None:
    with contextlib.suppress(Exception):
        reporter.send(ev="done", code=code)
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(0 if code in (0, 1) else code)


# ---------------------------------------------------------------------------------------------
# The server


def warm_pytest() -> None:
    """Import pytest and the plugins ``pytest.main`` loads, before any request comes."""
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
    """Import heavy modules in the server (never touching CUDA: only ``import torch``; not even
    ``torch.cuda.is_available()``, which reaches the driver and marks every later fork as one
    that cannot use CUDA)."""
    import importlib

    for name in modules:
        if name in sys.modules:
            continue
        with contextlib.suppress(Exception):
            importlib.import_module(name)


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


def supervise(pid: int, rfd: int, root: Path, rel: str, timeout: float, log_path: str,
              started: float, requests: Any = None) -> dict[str, Any]:
    """Watch the child ``pid`` run ``rel``: enforce the per-koan timeout, collect its verdicts.
    A ``cancel`` request arriving meanwhile (the learner saved again) stops the child at once."""
    result = empty_run(rel)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)
    running: str | None = None
    collected: list[str] = []
    verdicts: dict[str, dict[str, Any]] = {}
    done = False
    exit_code = 0
    buffer = b""
    limit = max(timeout * 2, 10.0)  # import and collection may import heavy modules
    deadline = time.monotonic() + limit
    timed_out = False
    while not done:
        wait = deadline - time.monotonic()
        if wait <= 0:
            timed_out = True
            break
        watched = [rfd] + ([requests] if requests is not None else [])
        ready, _, _ = select.select(watched, [], [], wait)
        if requests is not None and requests in ready:
            raw = requests.readline()
            if not raw or json.loads(raw).get("op") in ("cancel", "quit"):
                with contextlib.suppress(OSError):
                    os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                os.close(rfd)
                result["cancelled"] = True
                result["elapsed"] = time.monotonic() - started
                return result
        if rfd not in ready:
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
                if collected and all(n in verdicts for n in collected):
                    done = True  # every verdict is in: the child's teardown is not waited for
                    break
            elif kind == "broken":
                result["broken"] = event
            elif kind == "skipped":
                result["skipped"] = event["reason"]
            elif kind == "done":
                done = True
                exit_code = int(event.get("code", 0))
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
    log_dir = Path(log_path).parent
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
    elif exit_code not in (0, 1, 5) and not verdicts and result["broken"] is None:
        # pytest stopped before any koan: a broken conftest.py or pyproject.toml, say
        reason = next((row[1:].strip() for row in reversed(dump.splitlines())
                       if row.startswith("E ")), "")
        where = next((row.strip() for row in dump.splitlines()
                      if "while loading conftest" in row or "ERROR:" in row), "")
        message = f"{rel}: pytest stopped before running any koan (exit status {exit_code})"
        message += "".join(f"\n    {text}" for text in (where, reason) if text)
        message += "\n    (the whole output: .koans/logs/last-run.log)"
        result["broken"] = {"nodeid": rel, "kind": "broken", "file": rel, "line": 0,
                            "message": message}
    order = collected or list(verdicts)
    result["koans"] = [
        verdicts.get(n) or {"nodeid": n, "kind": "unknown", "file": rel, "line": 0, "message": ""}
        for n in order
    ]
    result["elapsed"] = time.monotonic() - started
    return result


class _Server:
    """The server's loop: read requests, fork a child per run, reply with its verdicts.

    ``session`` is the pytest session the loop was entered from (inside ``pytest_collection``),
    or None when no session could start and each child runs a whole ``pytest.main``.
    """

    def __init__(self, root: Path, requests: Any, replies: Any, log_dir: Path) -> None:
        self.root = root
        self.requests = requests
        self.replies = replies
        self.log_dir = log_dir
        self.reporter: _Reporter | None = None  # set in a child
        self.log_file: Any = None

    def plugin(self) -> Any:
        """The plugin that makes the server's pytest session wait for requests."""
        import pytest

        server = self

        class Serve:
            @pytest.hookimpl(tryfirst=True)
            def pytest_collection(self, session: Any) -> None:
                """Reached once, in the server; returns only in a child, whose pytest then
                collects and runs the one file the request named."""
                server.serve(session)

        return Serve()

    def serve(self, session: Any = None) -> None:
        for raw in self.requests:
            request = json.loads(raw)
            op = request.get("op")
            if op == "quit":
                os._exit(0)
            if op == "preload":
                preload(request["modules"])
                continue
            if op != "run":
                continue
            rel = request["file"]
            try:
                preload(request["needs"])
                reply = self.run(session, rel, list(request["needs"]), float(request["timeout"]))
            except Exception as err:
                reply = empty_run(rel)
                reply["internal"] = f"{type(err).__name__}: {err}"
            if reply is None:  # in the child, with a session: go back into pytest
                return
            self.replies.write((json.dumps(reply) + "\n").encode())
        os._exit(0)

    def run(self, session: Any, rel: str, needs: list[str], timeout: float
            ) -> dict[str, Any] | None:
        started = time.monotonic()
        self.log_dir.mkdir(parents=True, exist_ok=True)
        gc.freeze()  # the child's gc.collect() skips everything the server imported
        rfd, wfd = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid:
            os.close(wfd)
            log_path = str(self.log_dir / f"run-{pid}.log")
            return supervise(pid, rfd, self.root, rel, timeout, log_path, started, self.requests)
        # the child
        gc.enable()
        os.close(rfd)
        self.requests.close()
        self.replies.close()
        log_path = str(self.log_dir / f"run-{os.getpid()}.log")
        self.reporter = _Reporter(wfd)
        code = 3
        try:
            if session is not None:
                try:
                    config = session.config
                    self.log_file = _become_child(
                        log_path, config.pluginmanager.getplugin("capturemanager"))
                    config.pluginmanager.register(self.reporter, "koans-runner-reporter")
                    hypothesis = config.pluginmanager.get_plugin("_hypothesis_pytestplugin")
                    if hypothesis is not None and "hypothesis" not in needs:
                        # Its end-of-run summary would import all of Hypothesis (~0.2 s).
                        config.pluginmanager.unregister(hypothesis)
                    config.args = [str(self.root / rel)]
                    return None  # back into the server's pytest session, now this child's
                except Exception as err:  # an unexpected pytest: a whole run instead
                    print(f"koan server: running without the session ({err!r})", flush=True)
            if self.log_file is None:
                self.log_file = _become_child(log_path)
            import pytest

            code = int(pytest.main(pytest_args(self.root, [rel]), plugins=[self.reporter]))
        except BaseException as err:
            with contextlib.suppress(Exception):
                self.reporter.send(ev="internal", message=f"{type(err).__name__}: {err}")
        _finish_child(self.reporter, code)
        return None  # not reached


def usable_log_dir(log_dir: Path) -> Path:
    """``log_dir``, made; or, where it cannot be written (a state folder the learner may not
    write to), a fresh temporary folder: each run's output must go somewhere to be read back."""
    with contextlib.suppress(OSError):
        log_dir.mkdir(parents=True, exist_ok=True)
        if os.access(log_dir, os.W_OK):
            return log_dir
    import tempfile

    return Path(tempfile.mkdtemp(prefix="koans-logs-"))


def server_main(root: Path, req_fd: int, rep_fd: int, log_dir: Path) -> None:
    gc.disable()  # imports go ~15% faster; each child collects again, as plain pytest does
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the learner's process handles Ctrl-C
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    log_dir = usable_log_dir(log_dir)
    # Nothing the server or pytest prints may reach the learner's screen.
    with contextlib.suppress(OSError):
        _redirect(0, os.devnull, os.O_RDONLY)
        _redirect(1, str(log_dir / "server.log"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(1, 2)
    # Unbuffered: select() on the request pipe must see every request not yet handled (a
    # "cancel" that arrives while a child runs).
    server = _Server(root, os.fdopen(req_fd, "rb", buffering=0), os.fdopen(rep_fd, "wb", buffering=0), log_dir)
    code = 3
    try:
        warm_pytest()
        _load_libc()
        import pytest

        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        os.chdir(root)
        code = int(pytest.main(pytest_args(root, ["koans"]), plugins=[server.plugin()]))
    except BaseException as err:  # the session could not start: serve without one
        print(f"koan server: no pytest session ({type(err).__name__}: {err})", flush=True)
    if server.reporter is not None:  # a child, back from collecting and running its file
        _finish_child(server.reporter, code)
    server.serve(None)


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
                self._send({"op": "run", "file": rel, "needs": needs, "timeout": self.timeout})
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

    def _run_subprocess(self, rel: str) -> dict[str, Any]:
        import subprocess
        import tempfile

        started = time.monotonic()
        result = empty_run(rel)
        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / "koans.json"
            command = [sys.executable, "-m", "pytest", str(self.root / rel), "--rootdir",
                       str(self.root), "-p", "no:cacheprovider", "-q", "--koans-json", str(target),
                       "--koans-timeout", str(self.timeout)]  # SIGALRM, where there is one
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
