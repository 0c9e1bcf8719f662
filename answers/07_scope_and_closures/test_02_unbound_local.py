"""Whether a name is local is decided when the function is compiled, not while it runs: any
assignment to a name anywhere in the function body makes it local everywhere in that body.
`global` and `nonlocal` are how you opt out."""

import pytest

counter_total = 0  # module global used by the `global` koan; each koan resets it


def test_reading_a_name_that_is_assigned_later_in_the_function_fails():
    """`print(x); x = 2` in a function does not read the outer x first. The compiler saw the
    assignment, made x local for the whole body, and the read finds the local slot still
    empty."""
    x = 1

    def shadowing():
        seen = x  # noqa: F823
        x = 2
        return seen, x

    with pytest.raises(UnboundLocalError):
        shadowing()


def test_an_unbound_local_is_a_special_case_of_a_missing_name():
    """A local without a value is a special case of a more general failure: a name that has
    no value here. The exception hierarchy says so with a direct parent, so an `except` for
    the parent catches both (and so does pytest.raises, which is why a koan's exception blank
    asks for the exact class)."""
    assert UnboundLocalError.__base__ == NameError


def test_an_assignment_that_never_runs_still_makes_the_name_local():
    """The decision is made by the compiler, which does not know that `if False` never runs.
    The dead assignment alone turns `value` into a local, so the return finds it unbound."""
    value = "outer"

    def dead_branch():
        if False:
            value = "never"
        return value

    with pytest.raises(UnboundLocalError):
        dead_branch()


def test_the_code_object_lists_its_locals_before_the_function_ever_runs():
    """co_varnames is filled in at compile time: parameters first, then every other name the
    body assigns. The function below has never been called, yet its locals are known."""

    def f(a):
        b = a + 1
        return b + c  # noqa: F821 - c is global, never assigned here

    assert f.__code__.co_varnames == ("a", "b")


def test_augmented_assignment_makes_the_name_local():
    """`total += 1` is an assignment to total, so total becomes local to `add`, and the
    read half of += finds it unbound. This is the classic broken counter."""
    total = 0

    def add():
        total += 1  # noqa: F823
        return total

    with pytest.raises(UnboundLocalError):
        add()


def test_mutating_an_outer_object_needs_no_declaration():
    """`items.append(...)` assigns nothing to the name items; it only reads the name and calls
    a method on the list it refers to. Reading finds the enclosing variable, so no nonlocal is
    needed to mutate, only to rebind."""
    items = []

    def remember(value):
        items.append(value)

    remember("a")
    remember("b")
    assert items == ["a", "b"]


def test_the_name_bound_by_except_as_is_deleted_after_the_block():
    """At the end of `except E as err:` Python runs `del err`, to break the reference cycle
    between the traceback and the frame. Using err after the block fails like any other local
    that was deleted."""

    def handler():
        try:
            raise ValueError("boom")
        except ValueError as err:
            pass
        return err  # noqa: F821

    with pytest.raises(UnboundLocalError):
        handler()


def test_global_rebinds_the_module_variable():
    """`global counter_total` tells the compiler not to make counter_total local, so the
    assignment rebinds the module's variable, visible to every function in the module."""
    global counter_total
    counter_total = 0

    def bump():
        global counter_total
        counter_total += 10

    bump()
    bump()
    assert counter_total == 20


def test_nonlocal_rebinds_the_enclosing_variable():
    """PEP 3104 added `nonlocal` for the E in LEGB. It makes the assignment rebind the nearest
    enclosing function's variable instead of creating a local, and the outer function sees the
    change."""

    def outer():
        count = 0

        def increment():
            nonlocal count
            count += 1

        increment()
        increment()
        increment()
        return count

    assert outer() == 3


def test_nonlocal_without_an_enclosing_binding_is_a_compile_error():
    """nonlocal must name a variable of an enclosing function, and the compiler checks that
    before anything runs. There is no runtime fallback to globals, so compiling such code
    fails."""
    source = "def f():\n    nonlocal missing\n    missing = 1\n"
    with pytest.raises(SyntaxError):
        compile(source, "<koan>", "exec")
