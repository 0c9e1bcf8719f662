"""Where compiled bytecode is cached: the cache folder and its file names (PEP 3147, PEP 488)."""

import importlib.util
import py_compile
import sys
import sysconfig
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

TAG = sys.implementation.cache_tag


@pytest.fixture(autouse=True)
def no_pycache_prefix(monkeypatch):
    """PYTHONPYCACHEPREFIX would move every cache file; these koans show the default layout."""
    if sys.flags.optimize:
        pytest.skip("under -O (or PYTHONOPTIMIZE) every default cache name gains an opt-N part")
    monkeypatch.setattr(sys, "pycache_prefix", None)


def test_compiled_files_go_into_a_cache_folder_beside_the_source():
    """Up to Python 3.1 the bytecode for app.py was written next to it, as app.pyc. Since
    PEP 3147 (3.2) it goes into a folder of its own beside the source, named with double
    underscores like other names Python reserves for itself."""
    cached = Path(importlib.util.cache_from_source("/project/app.py"))
    assert cached.parent.name == __


def test_the_cache_file_name_carries_the_interpreter_tag():
    """Several Pythons can share one source tree: each writes its own file, named with
    sys.implementation.cache_tag, so they never overwrite each other's bytecode."""
    name = Path(importlib.util.cache_from_source("/project/app.py")).name
    assert name.replace(TAG, "TAG") == __


@pytest.mark.skipif(sys.implementation.name != "cpython", reason="the tag names the implementation")
def test_the_tag_names_implementation_and_version():
    """The tag is the implementation's name plus its major and minor version, because the
    bytecode format changes between minor releases and, by policy, stays put across a
    release's bugfix versions (CPython's own table of magic numbers records one exception: a
    bump in 3.5.2)."""
    major, minor = sys.version_info[:2]
    assert TAG.replace(f"{major}{minor}", "XY") == __


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the suffix spelled out here is Linux's")
def test_bytecode_is_tagged_by_interpreter_and_machine_code_by_platform():
    """A .pyc holds bytecode for Python's virtual machine; a C extension holds machine code,
    instructions for one kind of CPU calling one operating system's libraries. Each file name
    carries what decides who may load the file: the .pyc's cache tag, and, for an extension
    module built for one interpreter, the suffix sysconfig calls EXT_SUFFIX (the first of
    importlib.machinery.EXTENSION_SUFFIXES, the endings the import system looks for)."""
    names = {"cache_tag": TAG, "EXT_SUFFIX": sysconfig.get_config_var("EXT_SUFFIX")}
    naming_the_os = [label for label, name in names.items() if sys.platform in name]
    assert naming_the_os == __


def test_optimised_bytecode_gets_its_own_file():
    """Bytecode compiled with -O or -OO (asserts or docstrings stripped) differs, so PEP 488
    gives it its own name with an opt- level instead of the old .pyo suffix."""
    name = Path(importlib.util.cache_from_source("/project/app.py", optimization=2)).name
    assert name.replace(TAG, "TAG") == __


def test_pycache_prefix_moves_the_cache_into_a_mirror_tree(monkeypatch):
    """With PYTHONPYCACHEPREFIX (sys.pycache_prefix, 3.8+) set, the cache leaves the source tree:
    it goes into a mirror of the source's directories under the prefix, without __pycache__."""
    monkeypatch.setattr(sys, "pycache_prefix", "/cache")
    cached = importlib.util.cache_from_source("/project/app.py")
    assert cached.replace(TAG, "TAG") == __


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12))
def test_source_from_cache_maps_a_cache_file_back_to_its_source(module):
    """source_from_cache undoes cache_from_source: from a cache path importlib recovers the
    path of the source the .pyc was compiled from. It drops the cache folder, the interpreter
    tag and any optimisation level, whichever module it is given. (Paths use the system's own
    separator, a backslash on Windows; the koan reads them back with forward slashes.)"""
    source = str(Path("/project/pkg", f"{module}.py"))
    assert importlib.util.source_from_cache(importlib.util.cache_from_source(source)) == source
    cached = str(Path("/project/pkg/__pycache__", f"util.{TAG}.opt-1.pyc"))
    assert Path(importlib.util.source_from_cache(cached)).as_posix() == __


def test_py_compile_writes_into_pycache(tmp_path):
    """py_compile runs the compiler and writes the result where the import system would look
    for it, creating __pycache__ if needed."""
    source = tmp_path / "mod.py"
    source.write_text("total = 6 * 7\n")
    written = Path(py_compile.compile(str(source), doraise=True))
    relative = written.relative_to(tmp_path).as_posix()
    assert relative.replace(TAG, "TAG") == __
