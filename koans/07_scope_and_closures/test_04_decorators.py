"""PEP 318: `@d` above `def f` means `f = d(f)`, run once when the def runs. Decorators are
usually closures, and functools.wraps makes the wrapper look like the function it wraps."""

import functools
import inspect


def test_a_decorator_can_replace_the_function_with_anything():
    """`@d def f` is f = d(f): the name f is bound to whatever d returns. That need not be a
    function at all; here the decorator returns a number."""

    def answer(func):
        return 42

    @answer
    def f():
        return "never called"

    assert f == __


def test_a_decorator_runs_once_when_the_def_runs():
    """The decorator is called at definition time, right after the def statement has built
    the function, not at each call. Here it returns the function itself, so calling task
    afterwards does not go through the decorator at all. In what order do the entries reach
    the log?"""
    log = ["start"]

    def register(func):
        log.append(f"register {func.__name__}")
        return func

    @register
    def task():
        log.append("task")

    task()
    task()
    assert log == __


def test_stacked_decorators_apply_from_the_bottom_up():
    """@a above @b above def f means f = a(b(f)): the decorator nearest the def is applied
    first, and the top one wraps the result. At call time the outermost wrapper runs first."""
    applied = []

    def a(func):
        applied.append("a")
        return func

    def b(func):
        applied.append("b")
        return func

    @a
    @b
    def f():
        pass

    assert applied == __


def test_without_functools_wraps_the_decorated_name_reports_the_inner_def():
    """The function a decorator returns is a new function with its own metadata, set by its
    own def statement. Without functools.wraps nothing copies the original's metadata onto
    it, which confuses tracebacks, logs and help()."""

    def shout(func):
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs).upper()

        return wrapper

    @shout
    def greet(name):
        return f"hello {name}"

    assert greet.__name__ == __


def test_wraps_copies_the_name_and_docstring():
    """functools.wraps(func) copies __module__, __name__, __qualname__, __doc__ and more from
    func onto the wrapper and merges func.__dict__ into the wrapper's."""

    def shout(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs).upper()

        return wrapper

    @shout
    def greet(name):
        """Say hello."""
        return f"hello {name}"

    assert (greet.__name__, greet.__doc__) == __


def test_wraps_keeps_the_original_in_dunder_wrapped():
    """wraps also sets wrapper.__wrapped__ to the original function. Calling it bypasses the
    decorator entirely, which is handy in tests."""

    def shout(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs).upper()

        return wrapper

    @shout
    def greet(name):
        return f"hello {name}"

    assert greet.__wrapped__("ada") == __


def test_inspect_signature_follows_dunder_wrapped():
    """The wrapper itself takes (*args, **kwargs), but inspect.signature follows __wrapped__
    and reports the original parameters. That is how help() and IDEs show the right
    signature for a decorated function."""

    def passthrough(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)

        return wrapper

    @passthrough
    def resize(width, height=1):
        return width * height

    assert str(inspect.signature(resize)) == __


def test_a_decorator_with_arguments_is_a_function_that_returns_a_decorator():
    """In @repeat(3), the expression repeat(3) is evaluated first and must return the real
    decorator, which is then applied to the function. The argument 3 lives on in a closure
    cell of the wrapper."""

    def repeat(times):
        def decorator(func):
            def wrapper():
                return [func() for _ in range(times)]

            return wrapper

        return decorator

    @repeat(3)
    def ping():
        return "ping"

    assert len(ping()) == __


def test_a_decorator_can_keep_state_in_a_closure():
    """A counting decorator keeps its count in a variable of the decorator call and updates it
    with nonlocal. Every decorated function gets its own counter, because each decoration is a
    separate call of count_calls."""

    def count_calls(func):
        calls = 0

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            nonlocal calls
            calls += 1
            wrapper.calls = calls
            return func(*args, **kwargs)

        wrapper.calls = 0
        return wrapper

    @count_calls
    def hello():
        return "hi"

    @count_calls
    def bye():
        return "bye"

    hello()
    hello()
    bye()
    assert (hello.calls, bye.calls) == __
