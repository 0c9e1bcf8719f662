"""A closure is a function plus the variables it uses from enclosing scopes (PEP 227). Python
stores those variables in cells that the inner and outer function share, which is why closures
capture variables, not values."""

import pytest


def test_closures_in_a_comprehension_all_see_the_final_value():
    """Each lambda refers to the variable i, not to the value i had when the lambda was made.
    All three share the comprehension's single i, and they read it only when called, after the
    loop has finished and left i at its last value: late binding."""
    functions = [lambda: i for i in range(3)]
    assert functions[0]() == __


def test_a_default_argument_freezes_the_value_at_definition_time():
    """Default values are evaluated once, when the def or lambda runs. Writing `lambda i=i: i`
    copies the current value of the loop variable into each function's own parameter, which
    is the classic fix for late binding."""
    functions = [lambda i=i: i for i in range(3)]
    assert [f() for f in functions] == __


def test_a_closure_sees_later_rebinding_in_the_enclosing_function():
    """The closure holds the cell of `message`, not a snapshot. Rebinding message in the outer
    function after the inner def changes what the inner function returns."""

    def outer():
        message = "first"

        def speak():
            return message

        message = "second"
        return speak

    assert outer()() == __


def test_the_free_variables_are_listed_on_the_code_object():
    """The compiler records, on the inner function's code object, which names come from an
    enclosing scope (co_freevars); the outer one lists the same names as co_cellvars. Globals
    and builtins such as len are not free variables: they are looked up by name at run time."""

    def outer():
        base = 10

        def add(x):
            return len([x]) + x + base

        return add

    assert outer().__code__.co_freevars == __


def test_a_function_that_captures_nothing_has_no_closure():
    """Only functions with free variables get a tuple of cells. For a function that uses only
    its parameters and globals, __closure__ holds Python's usual marker for "nothing here"
    rather than an empty tuple."""

    def plain(x):
        return x + 1

    assert plain.__closure__ == __


def test_cell_contents_holds_the_current_value():
    """__closure__ is a tuple of cell objects, one per free variable in co_freevars order.
    Each cell's cell_contents is the variable's value right now."""

    def make_multiplier(factor):
        def multiply(x):
            return x * factor

        return multiply

    triple = make_multiplier(3)
    assert triple.__closure__[0].cell_contents == __


def test_writing_cell_contents_changes_the_closure():
    """Since Python 3.7 cell_contents is writable. Changing it changes the variable itself, so
    the closure's behaviour changes without redefining the function."""

    def make_multiplier(factor):
        def multiply(x):
            return x * factor

        return multiply

    triple = make_multiplier(3)
    triple.__closure__[0].cell_contents = 5
    assert triple(2) == __


def test_reading_an_empty_cell_is_refused():
    """A cell exists from the moment the enclosing function starts, before its variable is
    assigned. Reading cell_contents of a still-empty cell fails with "Cell is empty": no name
    is looked up here, the cell object itself reports that it holds no value. Calling inner
    early would instead fail on the name."""

    def outer():
        def inner():
            return later

        cell = inner.__closure__[0]
        with pytest.raises(___):
            cell.cell_contents
        later = 1
        return inner()

    outer()


def test_two_closures_share_one_cell():
    """Every inner function of the same call refers to the same cell for a shared variable.
    A setter that rebinds it with nonlocal is therefore seen by the getter: this is how
    closures give objects private, shared state."""

    def make_box():
        content = None

        def put(value):
            nonlocal content
            content = value

        def get():
            return content

        return put, get

    put, get = make_box()
    put("apple")
    assert get() == __


def test_each_call_of_the_outer_function_makes_fresh_cells():
    """The cells belong to one call of the enclosing function. Two counters made by two calls
    share nothing, so advancing one leaves the other alone: a stateful higher-order function.
    In what order do the numbers come out?"""

    def make_counter():
        count = 0

        def tick():
            nonlocal count
            count += 1
            return count

        return tick

    a = make_counter()
    b = make_counter()
    assert [a(), a(), b(), a(), b()] == __
