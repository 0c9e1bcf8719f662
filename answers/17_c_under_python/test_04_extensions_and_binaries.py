"""Much of the standard library, and the interpreter itself, is compiled C. A C extension is a
shared library whose file name says which interpreter ABI it was built for and which exports
one function for the import system to call; the interpreter is itself a native executable whose
header names the dynamic linker that loads it."""

import importlib.machinery
import mmap
import os
import re
import struct
import subprocess
import sys
import sysconfig

import pytest

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="ELF and /proc are Linux's; macOS executables are Mach-O and Windows ones PE",
)
shared_object_suffixes = pytest.mark.skipif(
    sys.platform == "win32" or bool(sysconfig.get_config_var("Py_GIL_DISABLED")),
    reason="Windows names extensions .pyd (with a tag like .cp311-win_amd64.pyd); the "
    "free-threaded build has an ABI of its own (a t in its tag, cpython-314t), whose object "
    "header the default build's stable ABI does not fit, so it searches other suffixes; from "
    "3.15 that includes abi3t, a stable ABI for it (PEP 803)",
)


def test_which_half_of_re_is_written_in_python():
    """re divides its work in two. Turning a pattern into a list of opcodes is written in Python
    (re._parser and re._compiler; sre_parse and sre_compile before 3.11), and the opcodes are
    handed to _sre, a matching engine written in C, which builds the pattern object and runs
    the matches. A function written in Python carries its bytecode in __code__; a function
    written in C has no bytecode to show."""
    pattern = re.compile("a+")
    assert (hasattr(re.compile, "__code__"), hasattr(pattern.match, "__code__")) == (
        True,
        False,
    )  # re.compile is Python; Pattern.match is C


def exported_functions(path):
    """The names of the functions a 64-bit ELF shared library defines and exports: the global
    FUNC entries of its dynamic symbol table (.dynsym) that have a section, so not the ones it
    only imports. Skips when the file is not a 64-bit ELF file."""
    with open(path, "rb") as library:
        image = library.read()
    if image[:4] != b"\x7fELF" or image[4] != 2:
        pytest.skip(f"{path} is not a 64-bit ELF file")
    order = "<" if image[5] == 1 else ">"
    (table,) = struct.unpack_from(order + "Q", image, 0x28)  # e_shoff
    entry_size, count = struct.unpack_from(order + "HH", image, 0x3A)  # e_shentsize, e_shnum
    sections = [
        struct.unpack_from(order + "IIQQQQIIQQ", image, table + index * entry_size)
        for index in range(count)
    ]
    names = []
    for _name, kind, _flags, _addr, offset, size, link, _info, _align, symbol_size in sections:
        if kind != 11:  # SHT_DYNSYM
            continue
        strings = sections[link][4]  # the offset of the string table the symbols name into
        for start in range(offset, offset + size, symbol_size):
            name, info, _other, section = struct.unpack_from(order + "IBBH", image, start)
            if section != 0 and info & 0xF == 2 and info >> 4 in (1, 2):  # FUNC, GLOBAL or WEAK
                end = image.index(b"\x00", strings + name)
                names.append(image[strings + name : end].decode())
    return sorted(names)


def test_what_an_extension_module_exports():
    """An extension module keeps its functions and types static: no other file can see them.
    The import system opens the shared library with dlopen() and then looks up, by a name it
    builds from the module's name, the one C function that creates the module: PyInit_
    followed by that name (the last part of it, for a module inside a package). So that one
    function is all such a library needs to export. Which functions does mmap's export?"""
    if not getattr(mmap, "__file__", None):
        pytest.skip("this Python links mmap into the interpreter binary: no file to read")
    assert exported_functions(mmap.__file__) == ["PyInit_mmap"]


@shared_object_suffixes
def test_which_extension_file_the_import_system_picks(tmp_path):
    """For `import spam` the import system tries the suffixes in EXTENSION_SUFFIXES in order,
    in each directory of the path, and takes the first file that exists. First comes the
    version-specific ABI, whose object layouts change between minor versions: the file must
    carry this interpreter's exact tag. Then the stable ABI (abi3, PEP 384), a subset of the C
    API kept binary-compatible across versions; 3.15 adds abi3t (PEP 803), a narrower stable
    ABI that the free-threaded build can load too, and a default build tries it after its own
    abi3. A bare .so comes last. A file tagged for any other interpreter is never looked for.
    Here the directory holds one candidate of each kind, and each file picked is removed."""
    tag = f"cpython-{sys.version_info.major}{sys.version_info.minor}"
    exact = sysconfig.get_config_var("EXT_SUFFIX")
    candidates = {
        "exact": exact,
        "3.9": exact.replace(tag, "cpython-39"),
        "free-threaded": exact.replace(tag, tag + "t"),
        "abi3": ".abi3.so",
        "abi3t": ".abi3t.so",
        "bare": ".so",
    }
    for suffix in candidates.values():
        (tmp_path / f"spam{suffix}").write_bytes(b"")
    picked = []
    while True:
        finder = importlib.machinery.FileFinder(
            str(tmp_path),
            (importlib.machinery.ExtensionFileLoader, importlib.machinery.EXTENSION_SUFFIXES),
        )
        spec = finder.find_spec("spam")
        if spec is None:
            break
        picked.append(
            next(
                kind
                for kind, suffix in candidates.items()
                if os.path.basename(spec.origin) == f"spam{suffix}"
            )
        )
        os.remove(spec.origin)
    if sys.version_info >= (3, 15):
        assert picked == ["exact", "abi3", "abi3t", "bare"]
    else:
        assert picked == ["exact", "abi3", "bare"]


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
def test_the_elf_header_records_word_size_and_byte_order():
    """After the four magic bytes, byte 4 of an ELF header (EI_CLASS) says how wide the file's
    addresses are and byte 5 (EI_DATA) in which byte order its numbers are stored. The ELF
    specification numbers both from 1: ELFCLASS32 then ELFCLASS64, little-endian (least
    significant byte first) then big-endian. These two bytes decide how the rest of the file
    must be read, so a 64-bit Python can only be a 64-bit executable."""
    if sys.maxsize < 2**32 or sys.byteorder != "little":
        pytest.skip("this koan describes a 64-bit little-endian Python (x86-64, arm64 Linux)")
    image = interpreter_image()
    assert (image[4], image[5]) == (2, 1)  # ELFCLASS64, ELFDATA2LSB


@linux_only
def test_which_program_the_kernel_runs_for_a_dynamically_linked_binary():
    """A dynamically linked executable does not start by itself: its PT_INTERP program header
    names a "program interpreter", the system's dynamic linker (ld.so), which the kernel maps
    and starts first and which then loads the program's shared libraries. That linker is a
    program in its own right: given the path of an executable, it loads it and runs it. In
    the child below, /proc/self/exe names the file the kernel itself executed, while Python
    works sys.executable out from the path it was started by."""
    loader = program_interpreter(interpreter_image())
    if loader is None:
        pytest.skip("this interpreter is statically linked: no PT_INTERP header, no ld.so")
    python = os.path.realpath(sys.executable)
    code = "import os, sys; print(os.readlink('/proc/self/exe')); print(sys.executable)"
    done = subprocess.run(
        [os.fsdecode(loader), python, "-c", code], capture_output=True, text=True, check=True
    )
    names = {os.path.realpath(os.fsdecode(loader)): "the loader", python: "python"}
    seen = [names.get(os.path.realpath(line), line) for line in done.stdout.splitlines()]
    assert seen == ["the loader", "python"]  # the kernel ran ld.so, which ran python
