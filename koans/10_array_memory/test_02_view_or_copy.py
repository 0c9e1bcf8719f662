"""Which operations return views and which return copies. The rule of thumb: if the result can
be described by a new shape and new strides over the same buffer, NumPy gives you a view; if
not, it must copy."""

import numpy as np


def test_fancy_indexing_returns_a_copy():
    """Indexing with a list of positions can pick elements in any order and with repeats, which
    no single stride can describe. NumPy therefore copies, and writes to the result stay there."""
    a = np.arange(6)
    picked = a[[1, 2, 3]]
    picked[0] = 100
    assert a.tolist() == __


def test_boolean_mask_returns_a_copy():
    """A mask selects an irregular subset of elements, which no single shape and set of strides
    can describe, so reading `a[mask]` has to gather them into a new array. Chained indexing
    such as `a[mask][0] = x` writes into that temporary copy."""
    a = np.arange(6)
    a[a > 2][0] = 100
    assert a.tolist() == __


def test_boolean_mask_assignment_writes_in_place():
    """`a[mask] = value` is not "take a copy, then write": it is a single `__setitem__` call on
    `a` itself, so the original is modified. Only reading through a mask copies."""
    a = np.arange(6)
    a[a > 2] = 0
    assert a.tolist() == __


def test_transpose_is_a_view():
    """Transposing only swaps the shape and the strides in the header; no element moves, so
    `m.T[i, j]` is the very element `m[j, i]`."""
    m = np.arange(6).reshape(2, 3)
    m.T[2, 0] = 99
    assert m.tolist() == __


def test_reshape_of_a_contiguous_array_is_a_view():
    """A C-contiguous block of 12 numbers can be read as 4x3 just by changing the strides,
    so reshape returns a view and writes through it reach the original."""
    m = np.arange(12).reshape(3, 4)
    r = m.reshape(4, 3)
    r[0, 1] = 99
    assert m[0].tolist() == __


def test_reshape_of_a_transpose_copies_only_to_merge_axes_that_do_not_chain():
    """Reshape returns a view whenever each new axis can be given a stride over the same
    buffer. Splitting an axis always can (its pieces step by multiples of its stride), and so
    can adding an axis of length 1. Merging two axes into one needs the elements to follow
    each other at one fixed step in the order reshape reads them (C order unless told
    otherwise): `m.T` is (4, 3) with strides (8, 32), and flattening it in C order reads the
    buffer's elements 0, 4, 8, 1, 5, ..., which no single stride walks, so such a reshape
    silently copies."""
    m = np.arange(12).reshape(3, 4)
    shapes = [(12,), (2, 2, 3), (4, 1, 3), (2, 6)]
    views = [shape for shape in shapes if np.shares_memory(m, m.T.reshape(shape))]
    assert views == __


def test_ravel_gives_a_view_but_flatten_always_copies():
    """`ravel` returns a view when it can (here: a C-contiguous array) and copies only when it must;
    `flatten` always copies. Only the write through the ravel result reaches `m`."""
    m = np.arange(12).reshape(3, 4)
    m.ravel()[0] = -1
    m.flatten()[1] = -2
    assert m[0].tolist() == __


def test_ravel_copies_unless_the_order_asked_for_is_the_order_in_memory():
    """`ravel` promises a view only when the elements already lie one after another, at one
    fixed step, in the order it reads them. It reads in C order (last index fastest) by
    default; `ravel("F")` reads in Fortran order (first index fastest), and the transpose of a
    C array is laid out in exactly that order."""
    m = np.arange(6).reshape(2, 3)
    m.T.ravel()[1] = -1
    m.T.ravel("F")[1] = -2
    assert m.tolist() == __


def test_tobytes_is_a_snapshot_copy():
    """`tobytes` copies the data into a new immutable bytes object. Later writes to the array
    do not reach the bytes you already took. (`<i4` is a little-endian int32: low byte first.)"""
    a = np.array([1, 2], dtype="<i4")
    snapshot = a.tobytes()
    a[0] = 255
    assert snapshot == __


def test_tobytes_follows_logical_order_not_memory_order():
    """`tobytes()` writes elements in C order of the array as you see it, whatever the memory
    layout. The transpose shares `m`'s buffer, yet its bytes come out column by column."""
    m = np.arange(6, dtype="<i2").reshape(2, 3)
    assert np.frombuffer(m.T.tobytes(), dtype="<i2").tolist() == __
