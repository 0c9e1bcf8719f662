"""Much of the standard library, and the interpreter itself, is compiled C. A C extension is a
shared library whose file name says which interpreter ABI it was built for, and the interpreter
is itself a native executable whose header names the dynamic linker that loads it."""

import importlib.machinery
import json.decoder
import os
import re
import struct
import sys
import sysconfig

import pytest

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="ELF and /proc are Linux's; macOS executables are Mach-O and Windows ones PE",
)
shared_object_suffixes = pytest.mark.skipif(
    sys.platform == "win32" or bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
    reason="Windows names extensions .pyd (with a tag like .cp311-win_amd64.pyd), and the "
    "free-threaded build of 3.13 has no stable ABI, so it looks for no .abi3.so files",
)


def test_a_builtin_is_a_c_function_wrapped_in_an_object():
    """len is not a function written in Python: it is a C function of the interpreter, wrapped
    in an object whose type differs from the type of everything `def` creates."""
    assert type(len).__name__ == "builtin_function_or_method"


def test_re_compiles_in_python_and_matches_in_c():
    """re.compile is Python code: it parses the pattern into a list of opcodes. Those opcodes
    are handed to _sre, the C matching engine, which builds the pattern object. A function
    written in Python carries its bytecode in __code__; a C method has none to show."""
    pattern = re.compile("a+")
    assert (hasattr(re.compile, "__code__"), hasattr(pattern.match, "__code__")) == (
        True,
        False,
    )  # re.compile is Python; Pattern.match is C


def test_the_json_decoder_prefers_its_c_accelerator():
    """Several standard modules come in two implementations: a pure-Python one, kept as the
    fallback for builds and Python implementations without the C one, and a C one from an
    extension module, used whenever it could be imported. json.decoder keeps both string
    scanners under their own names and binds the public name to the one it uses."""
    if json.decoder.c_scanstring is None:
        pytest.skip("this Python was built without the _json extension module")
    chosen = json.decoder.scanstring
    assert (chosen is json.decoder.c_scanstring, chosen is json.decoder.py_scanstring) == (
        True,
        False,
    )


def test_an_extension_module_is_loaded_from_a_shared_library():
    """Some C modules are linked into the interpreter binary (sys.builtin_module_names lists
    them); the others are shared libraries in lib-dynload, opened with dlopen() at import time.
    The module spec records which loader loads the module."""
    import _json

    if _json.__spec__.origin == "built-in":
        pytest.skip("this Python links _json into the interpreter binary itself")
    assert type(_json.__spec__.loader).__name__ == "ExtensionFileLoader"


@shared_object_suffixes
def test_an_extension_for_another_minor_version_is_never_even_tried():
    """The version-specific ABI changes between minor versions (object layouts, macros), so an
    extension's file name carries the tag of the interpreter it was compiled for, and the import
    system only looks for the suffixes in EXTENSION_SUFFIXES."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    ext = sysconfig.get_config_var("EXT_SUFFIX")
    tag = f"cpython-{sys.version_info.major}{sys.version_info.minor}"
    assert tag in ext
    built_for_39 = ext.replace(tag, "cpython-39")
    assert (built_for_39 in suffixes) == False  # only this interpreter's own tag is looked for


@shared_object_suffixes
def test_the_stable_abi_suffix_is_tried_after_the_exact_one():
    """PEP 384's stable ABI (abi3) is a subset of the C API that stays binary-compatible across
    versions, so one .abi3.so wheel serves many interpreters. The import system tries an
    extension built for exactly this interpreter first, then the abi3 one, then a bare .so."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    assert suffixes[0] == sysconfig.get_config_var("EXT_SUFFIX")
    assert suffixes.index(".abi3.so") == 1  # exact tag, then abi3, then bare .so


def interpreter_image():
    """The first 64 KiB of the real interpreter binary (a venv's python is a symlink), or a skip
    when sys.executable is not an ELF file (a wrapper script, say)."""
    if not sys.executable:
        pytest.skip("sys.executable is unknown in this embedding")
    with open(os.path.realpath(sys.executable), "rb") as binary:
        image = binary.read(1 << 16)
    if image[:4] != b"\x7fELF":
        pytest.skip(f"sys.executable starts with {image[:4]!r} here, not with an ELF header")
    return image


def program_interpreter(image):
    """The path in the PT_INTERP program header (type 3) of a 64-bit ELF image, or None when the
    binary is statically linked and has none."""
    order = "<" if image[5] == 1 else ">"
    (table,) = struct.unpack_from(order + "Q", image, 32)  # e_phoff
    entry_size, count = struct.unpack_from(order + "HH", image, 54)  # e_phentsize, e_phnum
    for index in range(count):
        start = table + index * entry_size
        kind, _flags, offset = struct.unpack_from(order + "IIQ", image, start)
        if kind == 3:
            (size,) = struct.unpack_from(order + "Q", image, start + 32)  # p_filesz
            return image[offset : offset + size].rstrip(b"\x00")
    return None


@linux_only
def test_a_64_bit_interpreter_is_an_elfclass64_binary():
    """After the four magic bytes, byte 4 of an ELF header (EI_CLASS) says how wide the file's
    addresses are. The ELF specification numbers the classes from 1, ELFCLASS32 first and
    ELFCLASS64 next. A 64-bit Python must be a 64-bit executable, and this byte decides how
    the rest of the header is laid out: the offsets of its fields differ between the classes."""
    if sys.maxsize < 2**32:
        pytest.skip("this is a 32-bit Python")
    assert interpreter_image()[4] == 2  # ELFCLASS64


@linux_only
def test_a_dynamically_linked_binary_names_its_loader():
    """A dynamically linked executable does not start by itself: its PT_INTERP header names a
    "program interpreter" that the kernel maps beside the program and starts first, and that
    then loads the shared libraries and resolves their symbols. That program is the system's
    dynamic linker, not Python: the "interpreter" here interprets the binary's list of needed
    libraries, not a script."""
    loader = program_interpreter(interpreter_image())
    if loader is None:
        pytest.skip("this interpreter is statically linked: no PT_INTERP header, no ld.so")
    assert (
        os.path.basename(loader).split(b"-")[0] == b"ld"
    )  # ld-linux-x86-64.so.2, ld-linux-aarch64.so.1, ld-musl-...


@linux_only
def test_the_dynamic_linker_is_mapped_into_this_very_process():
    """The kernel maps the program interpreter into the new process next to the executable, and
    it stays there, with the libc it loaded, for the life of the process. /proc/self/maps lists
    every file mapped into this process's address space."""
    loader = program_interpreter(interpreter_image())
    if loader is None:
        pytest.skip("this interpreter is statically linked: no PT_INTERP header, no ld.so")
    with open("/proc/self/maps") as maps:
        rows = [line.split(maxsplit=5) for line in maps]
    mapped = {row[5].strip() for row in rows if len(row) == 6}
    files = [path for path in mapped if path.startswith("/") and os.path.exists(path)]
    assert any(os.path.samefile(os.fsdecode(loader), path) for path in files) == True
