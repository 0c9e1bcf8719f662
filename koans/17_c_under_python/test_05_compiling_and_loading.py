"""A C program becomes a running process in steps: the compiler turns C into assembly text, the
assembler turns that into an object file of machine code, the link editor joins object files
into a program, and at run time the kernel and the dynamic linker map the program and its
libraries into memory. The koans that build something need a C compiler (cc, gcc or clang)."""

import os
import platform
import re
import shutil
import struct
import subprocess
import sys

import pytest

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="ELF and /proc are Linux's; macOS executables are Mach-O and Windows ones PE",
)


def c_compiler():
    """The path of a C compiler on PATH, or a skip that says none was found."""
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no C compiler (cc, gcc or clang) on PATH: these koans compile a small C file")


def build(directory, source, *arguments):
    """Write source to prog.c in directory and run the compiler on it with arguments."""
    (directory / "prog.c").write_text(source)
    done = subprocess.run(
        [c_compiler(), *arguments, "prog.c"],
        cwd=directory,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"the C compiler failed here: {done.stderr.strip()[:300]}")


def elf_type(path):
    """e_type, the 16-bit field at offset 16 of an ELF header: what kind of ELF file this is."""
    with open(path, "rb") as file:
        header = file.read(18)
    if header[:4] != b"\x7fELF":
        pytest.skip(f"{path.name} is not an ELF file here")
    order = "<" if header[5] == 1 else ">"
    return struct.unpack_from(order + "H", header, 16)[0]


def test_c_converts_a_float_initializer_while_it_compiles(tmp_path):
    """C lets a double initialise an int: `int x = 3.99;` is legal, and the conversion it asks
    for drops the fraction, toward zero. For a global the compiler does that conversion itself,
    so no floating-point value ever reaches the program. cc -S stops after compiling and writes
    assembly, text the assembler will turn into bytes; the global's data directive (.long or
    .word) shows the number the program will hold."""
    build(tmp_path, "int x = 3.99;\n", "-S", "-o", "prog.s")
    assembly = (tmp_path / "prog.s").read_text()
    stored = re.search(r"^_?x:\s*\n\s*\.(?:long|word|4byte|int)\s+(\S+)", assembly, re.MULTILINE)
    assert stored is not None, assembly
    assert int(stored.group(1), 0) == __


@linux_only
def test_what_kind_of_elf_file_each_build_step_writes(tmp_path):
    """e_type in the ELF header says what a file is for, and elf(5) numbers the types:
    ET_REL (1) is relocatable machine code whose addresses are not fixed yet, waiting for the
    link editor to place it; ET_EXEC (2) is a program placed at fixed addresses; ET_DYN (3) is
    code built to run wherever it is mapped, the type of shared libraries, which can be loaded
    at a random address. cc -c stops before linking; -pie asks for a position-independent
    executable, -no-pie for one at fixed addresses. Most distributions now link programs as
    PIE by default; some still link their python3 at fixed addresses (Debian does)."""
    source = "int main(void) { return 0; }\n"
    build(tmp_path, source, "-c", "-o", "prog.o")
    build(tmp_path, source, "-fPIE", "-pie", "-o", "prog-pie")
    build(tmp_path, source, "-fno-pie", "-no-pie", "-o", "prog-fixed")
    kinds = [elf_type(tmp_path / name) for name in ("prog.o", "prog-pie", "prog-fixed")]
    assert kinds == __


def needed_libraries(path):
    """The DT_NEEDED entries of a 64-bit ELF file's dynamic section: the names of the shared
    libraries the dynamic linker must load before the program can run."""
    with open(path, "rb") as file:
        image = file.read()
    if image[:4] != b"\x7fELF" or image[4] != 2:
        pytest.skip(f"{path} is not a 64-bit ELF file")
    order = "<" if image[5] == 1 else ">"
    (table,) = struct.unpack_from(order + "Q", image, 32)  # e_phoff
    entry_size, count = struct.unpack_from(order + "HH", image, 54)  # e_phentsize, e_phnum
    segments = [
        struct.unpack_from(order + "IIQQQQ", image, table + index * entry_size)
        for index in range(count)
    ]  # p_type, p_flags, p_offset, p_vaddr, p_paddr, p_filesz

    def file_offset(address):  # a virtual address, found in the loadable segment that holds it
        for kind, _flags, offset, start, _physical, size in segments:
            if kind == 1 and start <= address < start + size:  # PT_LOAD
                return address - start + offset
        raise ValueError(hex(address))

    dynamic = next((seg for seg in segments if seg[0] == 2), None)  # PT_DYNAMIC
    if dynamic is None:
        pytest.skip("this interpreter is statically linked: it needs no shared library")
    entries = []
    for start in range(dynamic[2], dynamic[2] + dynamic[5], 16):
        tag, value = struct.unpack_from(order + "qQ", image, start)
        if tag == 0:  # DT_NULL ends the section
            break
        entries.append((tag, value))
    strings = file_offset(next(value for tag, value in entries if tag == 5))  # DT_STRTAB
    return [
        image[strings + value : image.index(b"\x00", strings + value)].decode()
        for tag, value in entries
        if tag == 1
    ]  # DT_NEEDED


@linux_only
def test_how_a_binary_names_the_c_library_it_needs():
    """An executable does not record where its libraries are, only what they are called: each
    DT_NEEDED entry of its dynamic section holds a library's soname, lib + name + .so + the
    major version of its ABI, and the dynamic linker searches its directories for a file of
    that name. The C library of GNU/Linux is glibc, whose ABI has kept major version 6 since
    1997: every program built against it since then can still load the one installed now."""
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("this Python runs on another C library than glibc (musl, say)")
    needed = needed_libraries(os.path.realpath(sys.executable))
    assert [name for name in needed if name.startswith("libc.")] == __


CHILD = """
import ctypes

def mapping(address):  # the file mapped at this address, and where that file's mappings start
    rows = [line.split(maxsplit=5) for line in open("/proc/self/maps")]
    owner = next(row[5].strip() for row in rows if len(row) == 6
                 and int(row[0].split("-")[0], 16) <= address < int(row[0].split("-")[1], 16))
    base = min(int(row[0].split("-")[0], 16) for row in rows if len(row) == 6
               and row[5].strip() == owner)
    return owner, base

strlen = ctypes.cast(ctypes.CDLL(None).strlen, ctypes.c_void_p).value
libc_file, libc_base = mapping(strlen)
none_file, none_base = mapping(id(None))
print(libc_file != none_file, libc_base, id(None) - none_base)
"""


@linux_only
def test_what_address_space_layout_randomisation_moves():
    """Address space layout randomisation (ASLR) makes the kernel and the dynamic linker map the
    stack, the heap and every position-independent file at a new random address in each new
    process, so that an attacker cannot know where code and data lie. It moves whole mappings:
    inside a file's mapping, every function and every static object, such as None in the
    interpreter or in libpython, keeps the offset the link editor gave it. Two fresh processes
    below report where libc starts, and how far into its file None lies. (Whether id(None)
    itself moves depends on whether that file is position-independent.)"""
    with open("/proc/sys/kernel/randomize_va_space") as setting:
        if setting.read().strip() == "0":
            pytest.skip("address space layout randomisation is switched off on this machine")
    with open("/proc/self/personality") as personality:
        if int(personality.read(), 16) & 0x0040000:  # ADDR_NO_RANDOMIZE, as under setarch -R
            pytest.skip("this process runs with randomisation switched off (ADDR_NO_RANDOMIZE)")
    runs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", CHILD], capture_output=True, text=True, check=True
        )
        separate, libc_base, none_offset = done.stdout.split()
        if separate != "True":
            pytest.skip("libc is linked into the interpreter's own file here")
        runs.append((libc_base, none_offset))
    distinct = tuple(len({run[part] for run in runs}) for part in (0, 1))
    assert distinct == __
