"""Inside a .pyc: a 16-byte header (PEP 552) followed by a marshalled code object."""

import importlib.machinery
import importlib.util
import marshal
import os
import py_compile
import struct
import types
from pathlib import Path

import pytest

SOURCE = b"total = 6 * 7\n"
MTIME = 1_000_000_000
Mode = py_compile.PycInvalidationMode


def compile_module(tmp_path, mode=Mode.TIMESTAMP, cfile=None):
    """Write mod.py with a fixed mtime, compile it, and return (the .pyc's bytes, its path).
    The mode is always passed: left to itself, py_compile writes checked-hash pycs whenever the
    SOURCE_DATE_EPOCH environment variable is set (as reproducible-build tools do)."""
    source = tmp_path / "mod.py"
    source.write_bytes(SOURCE)
    os.utime(source, (MTIME, MTIME))
    cfile = tmp_path / "mod.pyc" if cfile is None else cfile
    py_compile.compile(str(source), cfile=str(cfile), doraise=True, invalidation_mode=mode)
    return cfile.read_bytes(), cfile


def header(pyc):
    """magic, flags, then two 32-bit little-endian words."""
    return struct.unpack("<4sIII", pyc[:16])


def load(source):
    """Run a module from its source path the way `import` does: a SourceFileLoader first looks
    for a usable .pyc in __pycache__, and compiles the source (writing a new .pyc) if there is
    none."""
    loader = importlib.machinery.SourceFileLoader(source.stem, str(source))
    module = types.ModuleType(source.stem)
    loader.exec_module(module)
    return module


@pytest.fixture
def cache_file(tmp_path, monkeypatch):
    """Where a loader looks for mod.py's .pyc, with writing allowed (as without -B)."""
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    monkeypatch.setattr("sys.pycache_prefix", None)
    cached = Path(importlib.util.cache_from_source(str(tmp_path / "mod.py")))
    cached.parent.mkdir(parents=True, exist_ok=True)
    return cached


def test_the_first_four_bytes_of_a_pyc_name_its_bytecode_format(tmp_path, cache_file):
    """The first four bytes say which bytecode format follows, and a loader compares them with
    importlib.util.MAGIC_NUMBER before it reads anything else. The body of this cache file was
    compiled from other code than the source beside it, so the result shows which of the two
    the loader ran."""
    pyc, _ = compile_module(tmp_path, cfile=cache_file)
    body = marshal.dumps(compile("total = 6 * 9\n", str(tmp_path / "mod.py"), "exec"))
    with open(cache_file, "wb") as cached:
        cached.write(b"\x00\x00\r\n" + pyc[4:16] + body)
    assert load(tmp_path / "mod.py").total == __


def test_the_magic_number_ends_in_a_windows_line_ending():
    """The last two magic bytes are the two characters that end a line in a Windows text file,
    so a file that went through a text-mode copy (a line-ending translation) no longer matches
    and is rejected instead of misread."""
    assert importlib.util.MAGIC_NUMBER[2:] == __


def test_the_flags_word_says_how_a_pyc_is_validated(tmp_path):
    """Bytes 4-7 are a bit field (PEP 552, 3.7): bit 0 marks a hash-based pyc, bit 1 asks for
    its hash to be checked against the source on import. The classic, timestamp-based scheme
    needs neither: its .pyc is valid as long as the source's modification time and size match
    the next two fields."""
    modes = (Mode.TIMESTAMP, Mode.CHECKED_HASH, Mode.UNCHECKED_HASH)
    flags = [header(compile_module(tmp_path, mode)[0])[1] for mode in modes]
    assert flags == __


def test_the_header_records_the_source_size(tmp_path):
    """Bytes 8-11 hold the source's modification time in whole seconds, bytes 12-15 its size in
    bytes: a second cheap check, so an edit made within the same second as the compile is
    still noticed if it changed the length."""
    _, _, _, size = header(compile_module(tmp_path)[0])
    assert size == __


def test_the_check_bit_decides_whether_the_source_is_hashed_again(tmp_path, cache_file):
    """A hash-based pyc keeps, instead of mtime and size, 8 bytes of importlib.util.source_hash
    (a SipHash of the source bytes). Whether a loader hashes the source on disk again and
    compares is up to the check bit. Each .pyc below is written for the source `6 * 7`, which
    is then edited to `6 * 8` before the module is loaded."""
    totals = []
    for mode in (Mode.CHECKED_HASH, Mode.UNCHECKED_HASH):
        compile_module(tmp_path, mode, cfile=cache_file)
        (tmp_path / "mod.py").write_bytes(b"total = 6 * 8\n")
        totals.append(load(tmp_path / "mod.py").total)
    assert totals == __


def test_after_the_header_comes_a_marshalled_code_object(tmp_path):
    """Everything after byte 16 is the module's code object serialised with marshal. Load it
    and you can run the module without its source."""
    pyc, _ = compile_module(tmp_path)
    code = marshal.loads(pyc[16:])
    namespace = {}
    exec(code, namespace)
    assert (type(code).__name__, namespace["total"]) == __


def test_marshal_writes_an_int_low_byte_first():
    """marshal writes an int that fits in a signed 32-bit word as a one-byte type code followed
    by four bytes in little-endian order, whatever the byte order of the machine doing the
    writing, so a .pyc made on one CPU loads on any other. (The type code byte also carries a
    flag that depends on how many references the object has, so it is left out here.)"""
    assert marshal.dumps(1000)[1:] == __


def test_marshal_refuses_arbitrary_objects():
    """marshal only knows a fixed list of built-in types, the ones a code object is made of
    (numbers, strings, bytes, tuples, code objects, ...) and a few more (lists, dicts, sets).
    It is not pickle: an instance of any other class cannot be marshalled."""
    with pytest.raises(___):
        marshal.dumps(object())


def test_a_pyc_can_be_imported_without_its_source(tmp_path):
    """A sourceless loader checks the magic number, skips the rest of the header and runs the
    code. This is how some applications ship only .pyc files."""
    _, cfile = compile_module(tmp_path)
    (tmp_path / "mod.py").unlink()
    loader = importlib.machinery.SourcelessFileLoader("mod", str(cfile))
    module = types.ModuleType("mod")
    loader.exec_module(module)
    assert module.total == __


def test_a_sourceless_loader_refuses_a_wrong_magic_number(tmp_path):
    """Bytecode from another release could crash the interpreter. A loader that has only the
    .pyc cannot fall back to anything, so it gives up on the module. (Where the source is there
    too, the loader ignores such a .pyc and compiles the source instead.)"""
    pyc, cfile = compile_module(tmp_path)
    cfile.write_bytes(b"\x00\x00\r\n" + pyc[4:])
    loader = importlib.machinery.SourcelessFileLoader("mod", str(cfile))
    with pytest.raises(___):
        loader.exec_module(types.ModuleType("mod"))
