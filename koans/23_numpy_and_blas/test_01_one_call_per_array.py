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
        return Tally(self.value + (other.value if isinstance(other, Tally) else other))


def test_a_python_loop_starts_its_lines_again_for_every_element():
    """The interpreter reports a line event each time it starts executing a line, and a loop
    starts its lines again on every pass. Count them for `double_in_python`, including the
    visit to the `for` line that asks the iterator for an element and learns there is none."""
    assert lines_executed(double_in_python, list(range(1000))) == __


def test_the_interpreter_sees_a_whole_array_operation_as_one_line():
    """`2 * values` on an ndarray is a single call into NumPy's compiled multiply loop. The loop
    over the elements runs in C, where the interpreter reports no events at all. Compare three
    array sizes."""
    sizes = (10, 1000, 10**6)
    assert [lines_executed(double_in_numpy, np.arange(n)) for n in sizes] == __


def test_an_object_array_calls_back_into_python():
    """An array of dtype object stores pointers to Python objects. NumPy still runs its own C
    loop, but the only way to add two Python objects is to call `__add__`. An elementwise `+`
    adds a number to every element. `sum` is a reduction: it needs a value to start from, and
    for an object array it has no zero of the right type, so it starts from an element."""
    objects = np.array([Tally(i) for i in range(1000)], dtype=object)
    Tally.adds = 0
    objects + 1
    elementwise = Tally.adds
    Tally.adds = 0
    objects.sum()
    assert (elementwise, Tally.adds) == __


def test_np_vectorize_calls_your_function_from_python():
    """`np.vectorize` is a convenience, not a compiler: a Python loop calls your function on
    the elements. Before it can allocate the output it must know the output's dtype: `otypes`
    says so in advance, and without it the only way to learn is to look at a result. Which
    arguments does the function see, in order?"""
    calls = []

    def double(x):
        calls.append(int(x))
        return 2 * x

    np.vectorize(double)(np.arange(5))
    assert calls == __
    calls.clear()
    np.vectorize(double, otypes=[np.int64])(np.arange(5))
    assert calls == __


def test_indexing_an_array_boxes_the_raw_bytes_into_a_scalar():
    """An ndarray of floats stores raw 8-byte doubles, not Python objects. Reading an element has
    to build a Python object around those bytes: a NumPy scalar. Three reads are kept alive at
    once here, so no two of them can share an address by reusing freed memory."""
    a = np.arange(3.0)
    reads = [a[0], a[0], a[0]]
    assert type(reads[0]) == __
    assert len({id(read) for read in reads}) == __
