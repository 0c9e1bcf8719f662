"""The #! line: the kernel, not the shell, routes a script to its interpreter."""

import errno
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="#! lines are handled by Unix kernels")


def make_script(tmp_path, text, mode=0o755, name="report.txt"):
    """Write a script and set its permission bits. The .txt name is on purpose."""
    if not sys.executable or len(sys.executable) > 100:
        pytest.skip("sys.executable is unknown or too long for a #! line on some kernels")
    if any(char.isspace() for char in sys.executable):
        pytest.skip("the kernel splits a #! line at the first space; sys.executable contains one")
    if hasattr(os, "ST_NOEXEC") and os.statvfs(tmp_path).f_flag & os.ST_NOEXEC:
        pytest.skip("the temporary directory is mounted noexec")
    path = tmp_path / name
    path.write_text(text)
    path.chmod(mode)
    return path


def run(path, *args):
    return subprocess.run([str(path), *args], capture_output=True, text=True, check=True).stdout


def test_the_kernel_runs_a_shebang_script_with_its_interpreter(tmp_path):
    """execve() reads the first bytes of the file; `#!` makes it run the named interpreter
    with the script's path as an argument. The .txt extension plays no part."""
    body = "import sys\nprint(__name__, sys.argv[1:])\n"
    script = make_script(tmp_path, f"#!{sys.executable}\n{body}")
    assert run(script, "a1") == "__main__ ['a1']\n"


def test_the_interpreter_is_given_the_script_path(tmp_path):
    """The kernel rewrites `report.txt a1` into `python report.txt a1`, so inside the script
    sys.argv[0] is the script's path, not the interpreter's."""
    body = "import os, sys\nprint(os.path.basename(sys.argv[0]))\n"
    script = make_script(tmp_path, f"#!{sys.executable}\n{body}")
    assert run(script) == "report.txt\n"


def test_the_shebang_line_can_carry_an_option(tmp_path):
    """Whatever follows the interpreter path on the #! line is passed (on Linux, as one single
    argument) before the script's path. Here -I starts Python in isolated mode."""
    body = "import sys\nprint(sys.flags.isolated)\n"
    script = make_script(tmp_path, f"#!{sys.executable} -I\n{body}")
    assert run(script) == "1\n"


def test_without_an_exec_bit_the_kernel_refuses(tmp_path):
    """The #! line is only consulted for a file that may be executed. Without any x bit
    execve() fails with EACCES, even for root."""
    script = make_script(tmp_path, f"#!{sys.executable}\nprint('hi')\n", mode=0o644)
    with pytest.raises(PermissionError):
        run(script)


def test_without_a_shebang_execve_does_not_know_the_format(tmp_path):
    """With no #! and no ELF magic the kernel has no idea how to run the file. A shell would
    then try it as a shell script; subprocess does not, so you see the kernel's own error."""
    script = make_script(tmp_path, "print('hi')\n")
    with pytest.raises(OSError) as excinfo:
        run(script)
    assert errno.errorcode[excinfo.value.errno] == "ENOEXEC"
