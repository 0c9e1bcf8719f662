"""Python does not decide what a program may do with files: it asks the kernel with a system
call, and the kernel answers with a result or an error number (errno), which Python turns into
an exception. The kernel also runs a program only by its path: the PATH search for a command
name is done in user space."""

import errno
import io
import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="these koans use POSIX semantics")


def test_two_error_numbers_mean_permission_denied():
    """EACCES (the file's permission bits say no) and EPERM (the operation needs privileges you
    lack) are different answers from the kernel, but PEP 3151 maps both numbers to one
    exception class: either way, the answer is no."""
    kinds = {type(OSError(errno.EACCES, "denied")), type(OSError(errno.EPERM, "not allowed"))}
    assert kinds == __


def test_an_error_number_without_its_own_class_gets_the_base_class():
    """PEP 3151 gave subclasses to a chosen handful of error numbers, not to all of them. EBADF
    (a descriptor that is not open, or not open for this operation) got none, although the
    PEP's own survey found code checking for it: such code still compares e.errno."""
    assert type(OSError(errno.EBADF, "bad file descriptor")) == __


def test_the_kernel_refuses_a_write_on_a_descriptor_opened_for_reading(tmp_path):
    """The open file remembers the mode it was opened in. write() on a descriptor opened with
    O_RDONLY fails whoever you are, root included: the file's permission bits are not even
    consulted. The kernel's answer is EBADF."""
    path = tmp_path / "data.txt"
    path.write_text("x")
    fd = os.open(path, os.O_RDONLY)
    try:
        with pytest.raises(___) as excinfo:
            os.write(fd, b"y")
    finally:
        os.close(fd)
    assert errno.errorcode[excinfo.value.errno] == "EBADF"


def test_the_io_layer_refuses_before_asking_the_kernel(tmp_path):
    """A file object opened for reading knows it, so io raises before any system call is made.
    Its exception class derives from both OSError and ValueError, so that old code catching
    either one still works."""
    path = tmp_path / "data.txt"
    path.write_text("x")
    with open(path, encoding="utf-8") as text:
        assert isinstance(text, io.TextIOWrapper)
        with pytest.raises(___):
            text.write("y")


def test_a_directory_cannot_be_opened_for_writing(tmp_path):
    """Directories are changed only through system calls such as mkdir and unlink, never by
    writing bytes into them. The kernel refuses to open one for writing with EISDIR, to root
    as much as to anyone."""
    with pytest.raises(___):
        open(tmp_path, "w")  # noqa: SIM115  (it never opens)


def test_o_excl_makes_creation_fail_if_the_file_exists(tmp_path):
    """O_CREAT | O_EXCL asks the kernel to create the file and fail with EEXIST if it is already
    there, as one atomic step: no other process can slip in between the check and the
    creation. open(path, 'x') uses the same flags."""
    path = tmp_path / "lock"
    path.write_text("taken")
    with pytest.raises(___):
        os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)


def root_without_dac_override():
    """True for a root process that lacks CAP_DAC_OVERRIDE (bit 1 of CapEff), as in some
    hardened containers; such a root is bound by the permission bits like anyone else."""
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        return False
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("CapEff:"):
                return not int(line.split()[1], 16) & (1 << 1)
    return False


def test_permission_bits_bind_even_the_files_owner(tmp_path):
    """Mode 0o444 grants write permission to nobody, the owner included: the kernel compares
    the bits with the caller's user id on every open, and owning the file only decides which
    three bits apply. The refusal is EACCES. (Root is the exception; see the next koan.)"""
    if os.geteuid() == 0 and not root_without_dac_override():
        pytest.skip(
            "run as root, whose CAP_DAC_OVERRIDE capability makes the kernel skip the read and "
            "write permission checks: root may open this read-only file for writing"
        )
    path = tmp_path / "readonly.txt"
    path.write_text("x")
    path.chmod(0o444)
    with pytest.raises(___):
        open(path, "a", encoding="utf-8")  # noqa: SIM115  (it never opens)


def test_whether_the_bits_apply_depends_on_who_asks(tmp_path):
    """os.access asks the kernel the question open() would ask, for this process's user. Root
    holds CAP_DAC_OVERRIDE, which makes the kernel skip the read and write permission checks;
    for every other user the bits decide. Same file, same call: the kernel's answer depends on
    the caller."""
    if root_without_dac_override():
        pytest.skip("this root process lacks CAP_DAC_OVERRIDE, so the bits bind it too")
    path = tmp_path / "readonly.txt"
    path.write_text("x")
    path.chmod(0o444)
    is_root = os.geteuid() == 0
    may_write = os.access(path, os.W_OK)
    assert (may_write == is_root) == __


def make_tool(directory, name, mode=0o755):
    directory.mkdir(exist_ok=True)
    tool = directory / name
    tool.write_text("#!/bin/sh\necho found\n")
    tool.chmod(mode)
    return tool


def test_path_lookup_takes_the_first_directory_that_has_the_name(tmp_path):
    """A command name is found by trying each directory of PATH in order; the first executable
    file with that name wins and the rest are never looked at. shutil.which does that search
    (here on an explicit path instead of $PATH)."""
    make_tool(tmp_path / "bin_a", "greet")
    make_tool(tmp_path / "bin_b", "greet")
    search = os.pathsep.join([str(tmp_path / "bin_b"), str(tmp_path / "bin_a")])
    found = shutil.which("greet", path=search)
    assert os.path.basename(os.path.dirname(found)) == __


def test_path_lookup_skips_files_that_cannot_be_executed(tmp_path):
    """The search asks the kernel whether each candidate may be executed (access with X_OK). A
    file with no execute bit at all fails that test for everyone, root included, so it is
    passed over as if it were not there."""
    make_tool(tmp_path / "bin", "greet", mode=0o644)
    assert shutil.which("greet", path=str(tmp_path / "bin")) == __


def test_starting_a_program_by_name_searches_path(tmp_path):
    """The kernel's execve() needs a path to a file. Given a bare name, subprocess (like the C
    library's execvp) tries each directory of the PATH in the child's environment in turn.
    With PATH set to a single directory, the child runs the script found there."""
    if hasattr(os, "ST_NOEXEC") and os.statvfs(tmp_path).f_flag & os.ST_NOEXEC:
        pytest.skip("the temporary directory is mounted noexec")
    make_tool(tmp_path / "bin", "greet")
    env = {"PATH": str(tmp_path / "bin")}
    result = subprocess.run(["greet"], env=env, capture_output=True, text=True, check=True)
    assert result.stdout == __
