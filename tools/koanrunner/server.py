"""The koan server and its children: a warm pytest session that forks a child per run.

The server imports pytest (and, once a koan needs them, numpy, hypothesis and torch; never
initialising CUDA) and calls ``pytest.main`` once, on the course, with a small plugin: pytest
parses its configuration, loads the conftest, configures its plugins and starts a session, and
then, at ``pytest_collection``, the plugin waits for requests instead of collecting. Each run
forks a *child* there: the child sets the session's arguments to one koan file and returns from
the hook, so pytest collects and runs just that file, sends the plugin's verdicts
(``report.user_properties``) back over a pipe, and exits. The server watches the child: a koan
that runs past the timeout has its stack dumped by ``faulthandler`` to find the learner's line,
and the child's process group is killed.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any
from collections.abc import Callable

from .supervise import empty_run, supervise


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

    def pytest_runtest_setup(self, item: Any) -> None:
        """The koan's marks: a ``slow`` or ``cuda`` koan may run longer before it is stopped."""
        self.send(ev="marks", nodeid=item.nodeid, marks=sorted({m.name for m in item.iter_markers()}))

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

    try:  # a private list: a pytest without it is warmed by its first run instead
        from _pytest.config import default_plugins as names
    except ImportError:
        names = ()  # type: ignore[assignment]
    for name in names:
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


# What the course's pytest plugin reads ahead for a koan file, registered when its session
# starts (``plugin.sources.warm``); the server itself knows nothing of koans.
READ_AHEAD: list[Callable[[Path, str], None]] = []


def warm_files(root: Path, files: list[str]) -> None:
    """Before the learner's next save: read in the server what runs of these koan files read
    that no edit changes, so that every child forked from it finds it read."""
    for rel in files:
        for read_ahead in READ_AHEAD:
            with contextlib.suppress(Exception):
                read_ahead(root, rel)


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
                warm_files(self.root, [str(rel) for rel in request.get("files", [])])
                continue
            if op != "run":
                continue
            rel = request["file"]
            try:
                preload(request["needs"])
                reply = self.run(session, rel, list(request["needs"]), float(request["timeout"]),
                                 list(request.get("only") or []))
            except Exception as err:
                reply = empty_run(rel)
                reply["internal"] = f"{type(err).__name__}: {err}"
            if reply is None:  # in the child, with a session: go back into pytest
                return
            self.replies.write((json.dumps(reply) + "\n").encode())
        os._exit(0)

    def run(self, session: Any, rel: str, needs: list[str], timeout: float,
            only: list[str] | None = None) -> dict[str, Any] | None:
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
                    config.args = [f"{self.root / rel}::{name}" for name in only] if only \
                        else [str(self.root / rel)]
                    return None  # back into the server's pytest session, now this child's
                except Exception as err:  # an unexpected pytest: a whole run instead
                    print(f"koan server: running without the session ({err!r})", flush=True)
            if self.log_file is None:
                self.log_file = _become_child(log_path)
            import pytest

            targets = [f"{rel}::{name}" for name in only] if only else [rel]
            code = int(pytest.main(pytest_args(self.root, targets), plugins=[self.reporter]))
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
        os.environ.pop("PYTEST_ADDOPTS", None)  # the runner's pytest is the runner's (see App)
        os.chdir(root)
        code = int(pytest.main(pytest_args(root, ["koans"]), plugins=[server.plugin()]))
    except BaseException as err:  # the session could not start: serve without one
        print(f"koan server: no pytest session ({type(err).__name__}: {err})", flush=True)
    if server.reporter is not None:  # a child, back from collecting and running its file
        _finish_child(server.reporter, code)
    server.serve(None)
