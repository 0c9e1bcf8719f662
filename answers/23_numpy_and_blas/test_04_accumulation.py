"""Floating-point addition rounds after every step, so the order of the additions changes the
result. `np.sum` adds pairwise (a tree of partial sums); `np.cumsum` must add strictly left to
right, because it returns every prefix. float32 keeps 24 significant bits, float64 keeps 53."""

import numpy as np
import pytest

NUMPY2 = int(np.__version__.split(".")[0]) >= 2


def tenths(count, dtype):
    """An array of `count` copies of 0.1, each rounded to `dtype`."""
    return np.full(count, 0.1, dtype=dtype)


def test_cumsum_adds_strictly_left_to_right():
    """Every prefix sum is rounded to float32. Once the running total is in the tens of
    thousands, neighbouring float32 values are thousandths apart, so each added tenth is
    rounded, and a million roundings that do not cancel add up to a visible error."""
    assert float(np.cumsum(tenths(10**6, np.float32))[-1]) == 100958.34375


def test_sum_adds_pairwise_and_stays_close():
    """`np.sum` (that is `np.add.reduce`) splits the array into blocks and adds partial sums of
    similar size, so each value passes through on the order of log2(n) roundings instead of up
    to n. The exact bits differ between NumPy versions (some add the pairwise sums of
    8192-element blocks in order), but the error stays in the last digits."""
    assert round(float(np.sum(tenths(10**6, np.float32)))) == 100000


def test_a_float64_accumulator_still_sums_rounded_tenths():
    """`dtype=np.float64` makes every partial sum exact here, but the inputs were rounded when
    the array was made: the float32 nearest to 0.1 is 0.100000001490116..., and a million of
    those add up, exactly, to a little more than the decimal answer."""
    assert float(np.sum(tenths(10**6, np.float32), dtype=np.float64)) == 100000.00149011612


def test_float64_drifts_too_just_far_less():
    """float64 has 53 significant bits instead of 24, so each rounding is about 500 million
    times smaller; a strictly sequential running sum still accumulates them."""
    assert float(np.cumsum(tenths(10**6, np.float64))[-1]) == 100000.00000133288


@pytest.mark.skipif(
    not NUMPY2,
    reason="NumPy 1.x promoted 0 + np.float32 to float64, so Python's sum() over a float32 "
    "array ran in double precision (here every partial sum is exact); NumPy 2 (NEP 50) keeps "
    "float32",
)
def test_builtin_sum_is_a_python_loop_over_numpy_scalars():
    """Python's `sum` starts from the int 0 and calls `+` once per element, boxing each float32
    as a NumPy scalar. Under NEP 50 (NumPy 2) `0 + np.float32(x)` stays float32, so this is the
    naive left-to-right float32 loop. NumPy 1.x promoted the first sum to float64 and carried
    on in double precision."""
    total = float(sum(tenths(10**5, np.float32)))
    assert total == 9998.556640625  # the same number np.cumsum ends on
