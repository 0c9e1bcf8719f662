"""Python marks the line between errors a program may recover from and requests to stop in its
exception hierarchy: everything recoverable derives from Exception, while KeyboardInterrupt,
SystemExit and GeneratorExit derive only from BaseException, so `except Exception` lets them
through. Catching too broadly has the opposite cost: it hides bugs."""

import sys

import pytest


def test_keyboard_interrupt_is_not_an_exception():
    """Ctrl-C should stop a program even if it is full of `except Exception:` handlers, so the
    exception it raises must not be an Exception. `__mro__` lists a class and all its
    ancestors, nearest first."""
    assert KeyboardInterrupt.__mro__ == __


def test_except_exception_lets_sys_exit_through():
    """`sys.exit()` does not stop the process on the spot: it raises an exception, and the
    interpreter shuts down when that exception reaches the top. Its class sits outside
    Exception, so a broad `except Exception` handler lets it pass."""

    def run():
        try:
            sys.exit(3)
        except Exception:
            return "swallowed"

    with pytest.raises(___):
        run()


def test_the_code_attribute_keeps_exactly_what_sys_exit_was_given():
    """The exit status travels in `SystemExit.code`, which holds exactly the argument passed to
    `sys.exit()`, or the argument's default when none was passed. Only at the very end does the
    interpreter turn that value into a process exit status."""
    with pytest.raises(SystemExit) as info:
        sys.exit()
    assert info.value.code == __


def test_generator_close_bypasses_except_exception_but_runs_finally():
    """`close()` raises GeneratorExit at the paused `yield` so the generator can clean up. It
    is a BaseException, so `except Exception` ignores it, while `finally` still runs."""
    events = []

    def gen():
        try:
            events.append("started")
            yield 1
        except Exception:
            events.append("except Exception")
        finally:
            events.append("finally")

    g = gen()
    next(g)
    g.close()
    assert events == __


def test_key_error_descends_from_lookup_error():
    """Exceptions are classes, so one handler can catch a whole family. KeyError and IndexError
    are both LookupErrors, and `except LookupError` catches a failed lookup of either kind."""
    assert KeyError.__mro__ == __


def test_a_broad_except_hides_a_bug():
    """A missing file is a recoverable condition, but a misspelt name is a bug. `except
    Exception` cannot tell them apart: the NameError below is swallowed, and the caller cannot
    tell the bug from a file that is simply absent."""

    def load(path):
        try:
            return open(pth).read()  # noqa: F821  (the bug: `pth` is misspelt)
        except Exception:
            return "fallback"

    assert load(__file__) == __


def test_a_narrow_except_lets_the_bug_surface():
    """Catch only the condition you can actually handle. The same typo now escapes the handler
    and fails loudly, close to the code at fault."""

    def load(path):
        try:
            return open(pth).read()  # noqa: F821  (the bug: `pth` is misspelt)
        except FileNotFoundError:
            return "fallback"

    with pytest.raises(___):
        load(__file__)


def test_assert_statements_vanish_under_optimisation():
    """`python -O` compiles assert statements away, so an assert is a check for bugs, never a
    way to reject bad input. Compiling with optimize=1 is what -O does."""
    code = compile("assert x > 0, 'x must be positive'\nresult = 'ran'", "<koan>", "exec",
                   optimize=1)
    namespace = {"x": -1}
    exec(code, namespace)
    assert namespace["result"] == __
