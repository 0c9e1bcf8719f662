"""Forking the koan server, first thing: before the runner loads the rest of itself.

``python tools/koans.py`` imports this module (``os`` and ``sys`` only: not even ``pathlib``)
and, for a command that runs koans, forks the server at once; the server imports pytest and
starts its session on the other core while the learner's process loads the rest of the runner
and reads the course.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing itself costs a start-up import
if TYPE_CHECKING:
    from collections.abc import Callable

RUNS_KOANS = ("run", "watch", "goto", "skip", "restore", "explain")  # the commands that run koans
CONFIG_FILES = ("conftest.py", "pyproject.toml")
# The code that gives verdicts: the conftest hands off to the plugin, which reads koan files
# through the course model. A change to any of them means a new server and fresh verdicts.
VERDICT_CODE = ("tools/koanrunner/plugin", "tools/koanrunner/course.py", "tools/koanrunner/pristine.py")

Signature = tuple[tuple[int, int], ...]


def default_root() -> str:
    """The course: ``KOANS_ROOT``, or the folder above ``tools/``."""
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    return os.path.realpath(os.environ.get("KOANS_ROOT") or os.path.dirname(here))


def state_dir(root: str | os.PathLike[str]) -> str:
    """Where the runner keeps its state (progress, pristine copies, backups, logs): ``.koans/``
    in the course; or, where the course folder is read-only for this user and has none, a
    folder of this user's in the temporary directory, named after the course's path."""
    inside = os.path.join(root, ".koans")
    if os.path.isdir(inside) or os.access(root, os.W_OK):
        return inside
    import zlib

    tag = zlib.crc32(os.fsencode(os.path.realpath(root)))
    import tempfile  # only here: the read-only case

    user = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(os.environ.get("TMPDIR") or tempfile.gettempdir(), f"koans-{user}-{tag:08x}")


def verdict_files(root: str | os.PathLike[str]) -> list[str]:
    """The files a server's pytest session is configured from and gives its verdicts with."""
    files = [os.path.join(root, name) for name in CONFIG_FILES]
    for rel in VERDICT_CODE:
        path = os.path.join(root, rel)
        try:
            names = sorted(os.listdir(path))
        except OSError:
            files.append(path)
            continue
        files += [os.path.join(path, name) for name in names if name.endswith(".py")]
    return files


def config_signature(root: str | os.PathLike[str]) -> Signature:
    """What a server's pytest session is configured from: a change means a new server."""
    rows = []
    for path in verdict_files(root):
        try:
            st = os.stat(path)
            rows.append((st.st_mtime_ns, st.st_size))
        except OSError:
            rows.append((0, -1))
    return tuple(rows)


def fork_server(root: str | os.PathLike[str],
                serve: Callable[[int, int], None] | None = None) -> tuple[int, int, int]:
    """Fork a koan server for ``root``. Returns (pid, request fd to write, reply fd to read).
    ``serve(request fd, reply fd)`` runs in the child instead of the koans' own server (a kata
    serves its steps)."""
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the server
        try:
            _die_with(parent)
            import gc

            gc.disable()  # see server_main
            os.close(req_w)
            os.close(rep_r)
            if serve is None:
                from pathlib import Path

                from .server import server_main

                server_main(Path(root), req_r, rep_w, Path(state_dir(root), "logs"))
            else:
                serve(req_r, rep_w)
        finally:
            os._exit(0)
    os.close(req_r)
    os.close(rep_w)
    return pid, req_w, rep_r


def _die_with(parent: int) -> None:
    """Linux: the server is killed when the learner's process ends, however it ends (kill -9
    included); its children die with it in turn. Elsewhere the closed request pipe ends it."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        return
    if os.getppid() != parent:  # the parent was gone before the request took effect
        os._exit(0)


_started: list[tuple[str, Signature, tuple[int, int, int]]] = []


def prestart(argv: list[str]) -> None:
    """Fork the server now if the command line will run koans in the default course."""
    if not hasattr(os, "fork") or os.environ.get("KOANS_NO_FORK") == "1":
        return
    if any(arg.startswith(("-h", "--help", "--root")) for arg in argv):
        return
    words = [arg for i, arg in enumerate(argv)
             if not arg.startswith("-") and not (i and argv[i - 1] in ("--timeout", "--color"))]
    root = default_root()
    command = words[0] if words else "run"
    if command not in RUNS_KOANS or not os.path.isdir(os.path.join(root, "koans")):
        return
    _started.append((root, config_signature(root), fork_server(root)))


def take(root: str | os.PathLike[str]) -> tuple[Signature, tuple[int, int, int]] | None:
    """The server ``prestart`` forked for ``root``, if any (each is taken once)."""
    for entry in _started:
        if entry[0] == os.fspath(root):
            _started.remove(entry)
            return entry[1], entry[2]
    return None
