"""open() without an encoding: the locale decides, unless UTF-8 mode is on, and from Python
3.15 it is on by default (PEP 686)."""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    sys.platform == "win32",
    reason="on Windows the locale encoding is the ANSI code page, which LC_ALL does not set",
)


def fresh_interpreter(code, *flags, locale="C"):
    """Run code in a new interpreter under the given locale. -I makes it ignore every PYTHON*
    variable (PYTHONUTF8 among them), so only the flags and the locale decide."""
    env = dict(os.environ, LC_ALL=locale)
    result = subprocess.run([sys.executable, "-I", *flags, "-c", code], env=env,
                            capture_output=True, text=True, check=True)  # fmt: skip
    return result.stdout.split()


def test_utf_8_mode_decides_whether_open_asks_the_locale():
    """open() without encoding= does not mean UTF-8. Outside UTF-8 mode it asks the locale
    (locale.getpreferredencoding(False)), and the plain C locale knows only 7-bit ASCII. UTF-8
    mode (PEP 540: -X utf8, or PYTHONUTF8=1) makes open(), stdin and stdout use UTF-8 whatever
    the locale says. Both runs below use the C locale; codecs.lookup gives each codec its
    canonical name."""
    code = "import codecs, os; print(codecs.lookup(open(os.devnull, 'w').encoding).name)"
    mode_off = fresh_interpreter(code, "-X", "utf8=0")
    mode_on = fresh_interpreter(code, "-X", "utf8=1")
    assert mode_off + mode_on == __


def test_the_utf_8_mode_default_changed_in_3_15():
    """Up to 3.14 UTF-8 mode is off unless asked for (or unless the locale is the bare C or
    POSIX one, where Python turns it on by itself), so open() without an encoding uses
    whatever encoding the machine's locale names, and a file written on one machine may not
    read back on another. PEP 686 makes UTF-8 mode the default from Python 3.15.
    io.text_encoding(None) is what open() falls back to when given no encoding, and "locale"
    there means "ask the locale when the file is opened". The locale here is C.UTF-8, so
    only the default decides."""
    code = ("import io, locale, sys; "
            "print(sys.flags.utf8_mode, io.text_encoding(None), locale.setlocale(locale.LC_CTYPE))")  # fmt: skip
    mode, fallback, ctype = fresh_interpreter(code, locale="C.UTF-8")
    if ctype in ("C", "POSIX"):
        pytest.skip("this machine has no C.UTF-8 locale; in the bare C locale every version "
                    "turns UTF-8 mode on by itself")  # fmt: skip
    if sys.version_info >= (3, 15):
        assert (int(mode), fallback) == __
    else:
        assert (int(mode), fallback) == __
