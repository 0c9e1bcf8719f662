"""Python does not decide what a program may do with files: it asks the kernel with a system
call, and the kernel answers with a result or an error number (errno), which Python turns into
an exception. The kernel also runs a program only by its path: the PATH search for a command
name is done in user space."""

import ast
import errno
import io
import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="these koans use POSIX semantics")


def test_which_classes_eacces_and_eperm_become():
    """EACCES (the file's permission bits say no) and EPERM (the operation needs privileges you
    lack) are different answers from the kernel, but PEP 3151 maps both numbers to one
    exception class: either way, the answer is no."""
    kinds = {type(OSError(errno.EACCES, "denied")), type(OSError(errno.EPERM, "not allowed"))}
    assert kinds == __


def test_the_kernel_refuses_a_write_on_a_descriptor_opened_for_reading(tmp_path):
    """The open file remembers the mode it was opened in. write() on a descriptor opened with
    O_RDONLY fails whoever you are, root included: the file's permission bits are not even
    consulted. The kernel's answer is EBADF (a descriptor not open, or not open for this
    operation), and PEP 3151 gave subclasses to a chosen handful of error numbers only: EBADF
    is not among them, although the PEP's own survey found code checking for it."""
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
    the bits with the caller's effective user id on every open, and owning the file only
    decides which three bits apply. The refusal is EACCES. (Root is the exception: its
    CAP_DAC_OVERRIDE capability makes the kernel skip the read and write checks.)"""
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


CHILD_ACCESS = """
import os, sys
path = sys.argv[1]
os.seteuid(65534)  # the user nobody, as the effective user; the real user stays root
answers = [os.access(path, os.W_OK), os.access(path, os.W_OK, effective_ids=True)]
try:
    open(path, "a").close()
    answers.append("opened")
except PermissionError:
    answers.append("PermissionError")
print(answers)
"""


def test_which_user_access_and_open_each_ask_about(tmp_path):
    """A process has a real user id, who started it, and an effective user id, whose rights it
    uses; they differ in a set-user-ID program, and root can split them with os.seteuid. open()
    is checked against the effective user. os.access() answers for the real user: it was made
    for set-user-ID programs, to ask whether the person running them could open a file
    themselves, and effective_ids=True makes it ask about the effective user instead. Here a
    child keeps root as its real user and takes nobody as its effective one."""
    if os.geteuid() != 0 or root_without_dac_override():
        pytest.skip(
            "only root (with its usual capabilities) can split its real and effective user ids "
            "with os.seteuid; for any other user the two are the same and so are the answers"
        )
    if os.access not in os.supports_effective_ids:
        pytest.skip("os.access cannot ask about the effective ids on this platform")
    path = tmp_path / "private.txt"
    path.write_text("x")
    path.chmod(0o600)
    done = subprocess.run(
        [sys.executable, "-c", CHILD_ACCESS, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"the child could not become nobody here: {done.stderr.strip()[-200:]}")
    assert ast.literal_eval(done.stdout) == __


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


def test_what_path_lookup_does_with_a_file_nobody_may_execute(tmp_path):
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
