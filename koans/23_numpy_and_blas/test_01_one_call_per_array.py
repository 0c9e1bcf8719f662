"""Who runs the loop. A Python `for` loop executes bytecode for every element; a NumPy operation
on a whole array is one call into compiled C, which loops over the elements itself. Counting
what the interpreter does, instead of timing it, shows the difference exactly."""

import sys

import numpy as np


def lines_executed(func, *args):
    """Call func(*args) and count the line events the interpreter reports inside func."""
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if frame.f_code is func.__code__ and event == "line":
            count += 1
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        func(*args)
    finally:
        sys.settrace(previous)
    return count


def double_in_python(values):
    out = []
    for x in values:
        out.append(2 * x)
    return out


def double_in_numpy(values):
    return 2 * values


class Tally:
    """A number that counts how often Python's `+` is called on any instance."""

    adds = 0

    def __init__(self, value):
        self.value = value

    def __add__(self, other):
        Tally.adds += 1
        return Tally(self.value + other)


def test_a_python_loop_runs_its_lines_once_per_element():
    """The interpreter reports a line event each time it starts executing a line. In
    `double_in_python` the `for` line runs once per element plus once more to find that the
    list is exhausted, the body once per element, and the first and last lines once each."""
    assert lines_executed(double_in_python, list(range(1000))) == __


def test_a_whole_array_operation_is_one_line_of_python():
    """`2 * values` on an ndarray is a single call to NumPy's compiled multiply loop, whatever
    the length. The interpreter never sees the individual elements, so the count does not grow
    with the array."""
    assert lines_executed(double_in_numpy, np.arange(1000)) == __


def test_an_object_array_calls_back_into_python_for_every_element():
    """An array of dtype object stores pointers to Python objects. NumPy still runs its own C
    loop, but the only way to add a Python object to something is to call its `__add__`, and
    that has to happen for each element."""
    Tally.adds = 0
    objects = np.array([Tally(i) for i in range(1000)], dtype=object)
    shifted = objects + 1
    assert shifted.dtype == np.dtype(object)
    assert Tally.adds == __


def test_np_vectorize_is_a_python_loop_that_probes_the_first_element():
    """`np.vectorize` is a convenience, not a compiler: it calls your Python function once per
    element. Without `otypes` it does not know the output dtype, so it first calls the function
    on the first element just to look at the result, and then runs the loop over all of them."""
    calls = []

    def double(x):
        calls.append(x)
        return 2 * x

    np.vectorize(double)(np.arange(5))
    assert len(calls) == __
    calls.clear()
    np.vectorize(double, otypes=[np.int64])(np.arange(5))
    assert len(calls) == __


def test_indexing_an_array_boxes_each_element_in_a_new_scalar():
    """An ndarray of floats stores raw 8-byte doubles, not Python objects. Reading one element
    has to build a NumPy scalar object around those bytes, and every read builds a fresh one."""
    a = np.arange(3.0)
    assert type(a[0]) == __
    assert (a[0] is a[0]) == __
