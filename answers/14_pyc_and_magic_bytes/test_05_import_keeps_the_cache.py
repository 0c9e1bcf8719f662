"""`import` keeps the cache itself: it writes the .pyc, reuses it, and decides when it is stale."""

import importlib
import importlib.util
import marshal
import os
import struct
import sys
from pathlib import Path

import pytest

NAME = "koan_cache_demo"
MTIME = 1_000_000_000


@pytest.fixture
def source(tmp_path):
    """koan_cache_demo.py in an empty folder, with a fixed modification time."""
    path = tmp_path / f"{NAME}.py"
    path.write_text("answer = 6 * 7\n")
    os.utime(path, (MTIME, MTIME))
    return path


@pytest.fixture
def fresh_import(tmp_path, monkeypatch):
    """Import NAME from tmp_path as if for the first time, with .pyc writing on (as without -B)
    and the cache in __pycache__ (as without PYTHONPYCACHEPREFIX)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(sys, "pycache_prefix", None)
    monkeypatch.syspath_prepend(str(tmp_path))

    def run():
        sys.modules.pop(NAME, None)
        importlib.invalidate_caches()
        return importlib.import_module(NAME)

    yield run
    sys.modules.pop(NAME, None)


def swap_the_body(source, text):
    """Keep the .pyc's 16-byte header and replace the code object after it by one compiled
    from `text`."""
    cached = Path(importlib.util.cache_from_source(str(source)))
    code = compile(text, str(source), "exec")
    cached.write_bytes(cached.read_bytes()[:16] + marshal.dumps(code))
    return cached


def test_what_import_compares_before_it_runs_the_cached_code(source, fresh_import):
    """The first import compiles the source and writes the .pyc into __pycache__ on its own.
    The next import (in a new process, or here after the module is forgotten) reads the .pyc's
    header and compares the mtime and size recorded there with the source file's. Between the
    two imports, the code object in the .pyc was swapped for one compiled from other code,
    and the header was left as it was."""
    fresh_import()
    swap_the_body(source, "answer = 6 * 9\n")
    assert fresh_import().answer == 54


def test_what_touching_the_source_does_to_the_cache(source, fresh_import):
    """`touch` changes no character of the source, only its modification time, one of the two
    facts about the source that the .pyc's header recorded. As before, the code object in the
    .pyc is swapped after the first import; this time the source is also touched, a minute
    later, before the next one."""
    fresh_import()
    cached = swap_the_body(source, "answer = 6 * 9\n")
    os.utime(source, (MTIME + 60, MTIME + 60))
    answer = fresh_import().answer
    _, _, mtime, _ = struct.unpack("<4sIII", cached.read_bytes()[:16])
    assert (answer, mtime) == (42, 1000000060)


def test_what_dont_write_bytecode_leaves_in_the_source_folder(source, fresh_import, monkeypatch):
    """`python -B`, the PYTHONDONTWRITEBYTECODE variable and `sys.dont_write_bytecode = True`
    all set one flag. The import system still reads a .pyc it finds; it just never writes
    one, so where none exists yet, every start compiles the source again."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    fresh_import()
    assert sorted(os.listdir(source.parent)) == ["koan_cache_demo.py"]
