"""Inside a .pyc: a 16-byte header (PEP 552) followed by a marshalled code object."""

import importlib.machinery
import importlib.util
import marshal
import os
import py_compile
import struct
import types

import pytest

SOURCE = b"total = 6 * 7\n"
MTIME = 1_000_000_000
Mode = py_compile.PycInvalidationMode


def compile_module(tmp_path, mode=Mode.TIMESTAMP):
    """Write mod.py with a fixed mtime, compile it, and return (the .pyc's bytes, its path).
    The mode is always passed: left to itself, py_compile writes checked-hash pycs whenever the
    SOURCE_DATE_EPOCH environment variable is set (as reproducible-build tools do)."""
    source = tmp_path / "mod.py"
    source.write_bytes(SOURCE)
    os.utime(source, (MTIME, MTIME))
    cfile = tmp_path / "mod.pyc"
    py_compile.compile(str(source), cfile=str(cfile), doraise=True, invalidation_mode=mode)
    return cfile.read_bytes(), cfile


def header(pyc):
    """magic, flags, then two 32-bit little-endian words."""
    return struct.unpack("<4sIII", pyc[:16])


def test_the_first_four_bytes_of_a_pyc_name_its_bytecode_format(tmp_path):
    """The first four bytes say which bytecode format follows. The import system compares them
    with importlib.util.MAGIC_NUMBER and ignores the file if they differ."""
    pyc, _ = compile_module(tmp_path)
    assert (pyc[:4] == importlib.util.MAGIC_NUMBER) == True


def test_the_magic_number_ends_in_a_windows_line_ending():
    """The last two magic bytes are the two characters that end a line in a Windows text file,
    so a file that went through a text-mode copy (a line-ending translation) no longer matches
    and is rejected instead of misread."""
    assert importlib.util.MAGIC_NUMBER[2:] == b"\r\n"


def test_the_flags_word_of_a_timestamp_pyc(tmp_path):
    """Bytes 4-7 are a bit field (PEP 552): bit 0 marks a hash-based pyc, bit 1 asks for its hash
    to be checked. The classic scheme needs neither: the .pyc is valid as long as the source's
    modification time and size match the next two fields."""
    _, flags, _, _ = header(compile_module(tmp_path)[0])
    assert flags == 0


def test_the_header_records_the_source_mtime(tmp_path):
    """Bytes 8-11 hold the source file's modification time, in whole seconds, as it was when
    the .pyc was written. A different mtime on disk means the .pyc is stale."""
    _, _, mtime, _ = header(compile_module(tmp_path)[0])
    assert mtime == 1000000000


def test_the_header_records_the_source_size(tmp_path):
    """Bytes 12-15 hold the source size in bytes, a second cheap check: an edit made within the
    same second as the compile is still noticed if it changed the length."""
    _, _, _, size = header(compile_module(tmp_path)[0])
    assert size == 14


def test_hash_based_pycs_set_flag_bits(tmp_path):
    """PEP 552 (3.7) added hash-based pycs for reproducible builds: bit 0 says 'hash-based',
    bit 1 says 'check the hash against the source on import'."""
    checked = header(compile_module(tmp_path, Mode.CHECKED_HASH)[0])[1]
    unchecked = header(compile_module(tmp_path, Mode.UNCHECKED_HASH)[0])[1]
    assert (checked, unchecked) == (3, 1)


def test_a_hash_based_pyc_stores_a_hash_of_the_source(tmp_path):
    """A hash-based pyc has no use for the mtime and size words, and it needs 8 bytes for the
    SipHash of the source that importlib.util.source_hash computes."""
    pyc, _ = compile_module(tmp_path, Mode.CHECKED_HASH)
    assert (pyc[8:16] == importlib.util.source_hash(SOURCE)) == True


def test_after_the_header_comes_a_marshalled_code_object(tmp_path):
    """Everything after byte 16 is the module's code object serialised with marshal. Load it
    and you can run the module without its source."""
    pyc, _ = compile_module(tmp_path)
    code = marshal.loads(pyc[16:])
    namespace = {}
    exec(code, namespace)
    assert (type(code) is types.CodeType, namespace["total"]) == (True, 42)


def test_marshal_refuses_arbitrary_objects():
    """marshal only knows the types a code object can contain (numbers, strings, bytes, tuples,
    code, ...). It is not pickle: a plain object cannot be marshalled."""
    with pytest.raises(ValueError):
        marshal.dumps(object())


def test_a_pyc_can_be_imported_without_its_source(tmp_path):
    """A sourceless loader checks the magic number, skips the rest of the header and runs the
    code. This is how some applications ship only .pyc files."""
    _, cfile = compile_module(tmp_path)
    (tmp_path / "mod.py").unlink()
    loader = importlib.machinery.SourcelessFileLoader("mod", str(cfile))
    module = types.ModuleType("mod")
    loader.exec_module(module)
    assert module.total == 42


def test_a_sourceless_loader_refuses_a_wrong_magic_number(tmp_path):
    """Bytecode from another release could crash the interpreter. A loader that has only the
    .pyc cannot fall back to anything, so it gives up on the module. (Where the source is there
    too, the import system ignores such a .pyc and compiles the source instead.)"""
    pyc, cfile = compile_module(tmp_path)
    cfile.write_bytes(b"\x00\x00\r\n" + pyc[4:])
    loader = importlib.machinery.SourcelessFileLoader("mod", str(cfile))
    with pytest.raises(ImportError):
        loader.exec_module(types.ModuleType("mod"))
