"""An ndarray is a flat buffer plus a header: dtype (how many bytes per element and what they
mean), shape, and strides (how many bytes to step along each axis). Views are new headers over
the same bytes; the flags say whether the bytes are laid out row-major or column-major."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st


def test_strides_count_bytes_not_elements():
    """In a C-ordered array the last index varies fastest: the next column is one element away,
    and the next row is a whole row of elements away. Strides are measured in bytes."""
    a = np.zeros((3, 4), dtype=np.int32)
    assert a.strides == (16, 4)


def test_transpose_just_swaps_the_strides():
    """The transpose is the same buffer read with the axes exchanged, so its header holds
    the strides in the other order. No element moves."""
    a = np.zeros((3, 4), dtype=np.int32)
    assert a.T.strides == (4, 16)


def test_a_step_slice_multiplies_the_stride():
    """`a[::2]` takes every other row by stepping twice as far between rows. The column stride
    is untouched, and nothing is copied."""
    a = np.zeros((3, 4), dtype=np.int32)
    assert a[::2].strides == (32, 4)


def test_the_transpose_of_a_c_array_is_fortran_contiguous():
    """Row-major (C) memory read with the axes swapped is exactly column-major (Fortran) order.
    The flags record, for each of the two orders, whether the array's bytes follow it."""
    t = np.zeros((3, 4), dtype=np.int32).T
    orders = [flag for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS") if t.flags[flag]]
    assert orders == ["F_CONTIGUOUS"]


def test_a_step_slice_leaves_gaps_in_memory():
    """Skipping every other row leaves the skipped rows' bytes between the rows the view shows,
    and the view's row stride steps over them. Code that needs one unbroken buffer must copy
    first: `np.ascontiguousarray` packs the rows one after another."""
    a = np.zeros((4, 3), dtype=np.int16)
    packed = np.ascontiguousarray(a[::2])
    assert (a[::2].strides, packed.strides) == ((12, 2), (6, 2))


def test_itemsize_is_fixed_by_the_dtype():
    """Every element of an array has the same size, set by the dtype: a complex128 holds two
    float64 values, the real and the imaginary part."""
    assert np.dtype(np.complex128).itemsize == 16


def test_nbytes_is_size_times_itemsize():
    """`nbytes` counts only the element data, the number of elements times the bytes per
    element. The small array header is not included."""
    assert np.zeros((3, 4), dtype=np.int16).nbytes == 24


def test_the_default_integer_dtype_is_64_bit():
    """NumPy 2 made the default integer int64 on every 64-bit platform; NumPy 1.x used the C
    `long`, which is only 32 bits on Windows. Write `dtype=` explicitly when size matters."""
    assert np.array([1, 2, 3]).dtype.itemsize == 8


def test_astype_wraps_out_of_range_integers_silently():
    """Converting an array to a narrower integer dtype keeps the low 16 bits and raises nothing:
    each value is reduced modulo 65536 into -32768..32767. (Ariane 5 was lost in 1996 to an
    unguarded conversion into 16 bits; there it at least raised an error, here nothing does.)"""
    assert np.array([40000, 70000]).astype(np.int16).tolist() == [-25536, 4464]


@pytest.mark.skipif(
    int(np.__version__.split(".")[0]) < 2,
    reason="NumPy 1.x wrapped out-of-range Python ints (1.24-1.26 with a DeprecationWarning); "
    "NumPy 2 raises (NEP 50)",
)
def test_a_python_int_that_does_not_fit_the_dtype_raises():
    """A Python int has no fixed size, so NumPy 2 checks it against the target dtype and
    refuses values that do not fit, unlike the silent array-to-array `astype` above."""
    with pytest.raises(OverflowError):
        np.int16(40000)


@given(rows=st.integers(1, 4), cols=st.integers(1, 4))
def test_row_stride_is_row_length_times_itemsize(rows, cols):
    """For any C-contiguous int32 array, one step down a row skips a whole row of elements,
    each `itemsize` bytes wide."""
    a = np.zeros((rows, cols), dtype=np.int32)
    assert a.strides[0] == cols * 4
