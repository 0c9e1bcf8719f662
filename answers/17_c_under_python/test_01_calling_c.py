"""Calling C from Python with ctypes. A shared library's functions are called directly, and
ctypes converts Python values to C values on the way in and back on the way out. Nothing checks
that the types you declare match what the C function really takes and returns: as in C, that is
the caller's job."""

import ctypes
import errno
import os

import pytest

pytestmark = pytest.mark.skipif(
    os.name != "posix",
    reason="these koans call the C library of a POSIX system (Linux, macOS) through "
    "ctypes.CDLL(None); on Windows the C runtime is a separate DLL with other names",
)


def c_function(name, use_errno=False):
    """A fresh ctypes handle on a C function already loaded into this process (libc's among
    them). Indexing, unlike attribute access, builds a new handle each time, so the argtypes and
    restype one koan sets never leak into another."""
    return ctypes.CDLL(None, use_errno=use_errno)[name]


def test_a_c_function_gets_c_ints_and_gives_back_a_c_int():
    """toupper() takes an int and returns an int: to C a character is just a small number
    (char itself is an integer type). ctypes turns the Python int into a C int, calls the
    function, and turns the C int it returns back into a Python int."""
    toupper = c_function("toupper")
    assert toupper(ord("a")) == 65  # ord('A'): a number, not a str


def test_a_c_string_ends_at_the_first_zero_byte():
    """ctypes hands a bytes object to C as a pointer to its first byte. A C string carries no
    length: strlen() counts bytes until it meets a zero byte, and whatever follows that byte is
    invisible to it."""
    strlen = c_function("strlen")
    assert strlen(b"hello\x00world") == 5  # strlen stops at the zero byte


def test_an_undeclared_result_is_read_as_a_c_int():
    """ctypes cannot read a C header, so unless told otherwise it assumes every function returns
    a C int (32 bits). labs() returns a 64-bit long; read as an int, only its low 32 bits
    survive, silently. Here the argument type is declared and the result type is not."""
    if ctypes.sizeof(ctypes.c_long) != 8:
        pytest.skip("a C long is 64 bits only on LP64 systems (64-bit Linux and macOS)")
    labs = c_function("labs")
    labs.argtypes = [ctypes.c_long]
    assert labs(-(2**32 + 7)) == 7  # the low 32 bits of 4294967303


def test_declaring_restype_recovers_the_whole_result():
    """Set restype to the type the C declaration names and ctypes reads all 64 bits that the
    function left in its return register. The caller, not the library, carries the signature:
    a shared library's symbol table records names, not types."""
    if ctypes.sizeof(ctypes.c_long) != 8:
        pytest.skip("a C long is 64 bits only on LP64 systems (64-bit Linux and macOS)")
    labs = c_function("labs")
    labs.argtypes = [ctypes.c_long]
    labs.restype = ctypes.c_long
    assert labs(-(2**32 + 7)) == 4294967303


def test_a_char_pointer_result_is_read_as_a_string_from_that_address():
    """strchr() returns a pointer to the first occurrence of a character inside the string it
    was given, not a position. With restype c_char_p, ctypes follows that pointer and copies the
    bytes it finds there, up to the terminating zero byte."""
    strchr = c_function("strchr")
    strchr.argtypes = [ctypes.c_char_p, ctypes.c_int]
    strchr.restype = ctypes.c_char_p
    assert strchr(b"hello", ord("l")) == b"llo"  # from the pointer to the zero byte


def test_without_argtypes_a_float_argument_is_refused():
    """With no argtypes, ctypes converts each argument by its Python type alone: an int becomes
    a C int, bytes a char pointer, None a NULL pointer. A float is not on that list, since the
    function might expect a float or a double and ctypes cannot know which; so it refuses the
    call, with an exception class of its own that names the failing argument."""
    labs = c_function("labs")
    with pytest.raises(ctypes.ArgumentError):
        labs(2.5)


def test_c_reports_failure_as_a_sentinel_plus_errno(tmp_path):
    """C functions do not raise. access() signals failure through its return value and leaves
    the reason as a number in errno, a per-thread variable of the C library. A library loaded
    with use_errno=True has ctypes copy errno right after each call into a private copy that
    ctypes.get_errno() reads; errno.errorcode names the number."""
    access = c_function("access", use_errno=True)
    ctypes.set_errno(0)
    result = access(os.fsencode(tmp_path / "missing.txt"), os.F_OK)
    assert (result, errno.errorcode[ctypes.get_errno()]) == (
        -1,
        "ENOENT",
    )  # -1 is the sentinel, errno says why


def test_without_use_errno_the_failure_reason_is_not_captured(tmp_path):
    """errno can be overwritten by any later C call, and the interpreter makes C calls of its
    own between your call and your check. So ctypes saves errno into a private copy right
    after each call, but only for libraries loaded with use_errno=True; a call through any other
    handle leaves that copy as it was. Here two calls fail, for two different reasons, and
    only the first goes through a handle that saves errno."""
    access = c_function("access", use_errno=True)
    close = c_function("close")
    assert access(os.fsencode(tmp_path / "missing.txt"), os.F_OK) == -1
    assert close(-1) == -1  # no descriptor has the number -1
    assert errno.errorcode[ctypes.get_errno()] == "ENOENT"  # saved after access()


def test_c_and_python_can_share_one_open_file(tmp_path):
    """libc's open() returns a plain int: the descriptor the kernel handed out, the same kind of
    number os.open returns, since both are thin wrappers around one system call. The position
    in the file belongs to the open file in the kernel, not to the library that asked for it,
    so a read() made in C moves the position that the next os.read starts from."""
    path = tmp_path / "letters.txt"
    path.write_bytes(b"abcdef")
    c_open = c_function("open")
    c_open.argtypes = [ctypes.c_char_p, ctypes.c_int]
    c_read = c_function("read")
    c_read.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
    c_read.restype = ctypes.c_ssize_t
    fd = c_open(os.fsencode(path), os.O_RDONLY)
    assert fd >= 0
    try:
        assert c_read(fd, ctypes.create_string_buffer(2), 2) == 2
        rest = os.read(fd, 100)
    finally:
        os.close(fd)
    assert rest == b"cdef"  # C's read() took the first two bytes
