"""Floating-point addition rounds after every step, so the order of the additions changes the
result. `np.sum` adds pairwise (a tree of partial sums); `np.cumsum` must add strictly left to
right, because it returns every prefix. float32 keeps 24 significant bits, float64 keeps 53."""

import math

import numpy as np
import pytest

NUMPY2 = int(np.__version__.split(".")[0]) >= 2


def tenths(count, dtype):
    """An array of `count` copies of 0.1, each rounded to `dtype`."""
    return np.full(count, 0.1, dtype=dtype)


def test_a_large_float32_total_rounds_each_tenth_to_its_own_spacing():
    """A float32 keeps 24 significant bits, so between 2**16 and 2**17 neighbouring values are
    2**(16 - 23) apart (`np.spacing`). Adding a tenth to a total there must land on one of those
    neighbours: the sum is rounded to the nearest whole number of spacings. How many spacings
    does the total move?"""
    total, tenth = np.float32(70_000.0), np.float32(0.1)
    step = (total + tenth) - total  # exact: both are float32 values a few spacings apart
    assert round(float(step / np.spacing(total))) == 13  # 0.1 / 2**-7 = 12.8, rounded up


def test_cumsum_adds_strictly_left_to_right():
    """Every prefix sum is rounded to float32. Past 2**15 each added tenth moves the running
    total by a whole number of spacings, the same too-large step every time, so the roundings
    do not cancel: a million of them add up. To the nearest thousand, how far from the exact
    100000 does the last prefix end?"""
    total = float(np.cumsum(tenths(10**6, np.float32))[-1])
    assert round(total - 100_000, -3) == 1000.0  # 958.34375 too high: the step is 0.1015625


def test_sum_adds_pairwise():
    """`np.sum` (that is `np.add.reduce`) splits the array into blocks and adds partial sums of
    similar size, so each value passes through on the order of log2(n) roundings instead of up
    to n. The exact bits differ between NumPy versions (some add the pairwise sums of
    8192-element blocks in order), but not the rounded total."""
    assert round(float(np.sum(tenths(10**6, np.float32)))) == 100000


def test_a_float64_accumulator_still_sums_rounded_tenths():
    """`dtype=np.float64` makes every partial sum exact here, but the inputs were rounded when
    the array was made: the float32 nearest to 0.1 is 0.100000001490116..., and a million of
    those add up, exactly, to a little more than the decimal answer."""
    assert float(np.sum(tenths(10**6, np.float32), dtype=np.float64)) == 100000.00149011612


def test_a_float64_running_sum_rounds_at_every_step_too():
    """float64 has 53 significant bits instead of 24, so each rounding is 2**29 (about 500
    million) times smaller than float32's, and a strictly sequential running sum still
    accumulates them. Scale the float32 drift of the left-to-right sum accordingly: in which
    decimal place does the float64 error start?"""
    error = float(np.cumsum(tenths(10**6, np.float64))[-1]) - 100_000
    assert math.floor(math.log10(abs(error))) == -6  # 1.33e-06 (958 / 2**29 is 1.8e-06)


@pytest.mark.skipif(
    not NUMPY2,
    reason="NumPy 1.x promoted 0 + np.float32 to float64, so Python's sum() over a float32 "
    "array ran in double precision (here every partial sum is exact); NumPy 2 (NEP 50) keeps "
    "float32",
)
def test_builtin_sum_is_a_python_loop_over_numpy_scalars():
    """Python's `sum` starts from the int 0 and calls `+` once per element, boxing each float32
    as a NumPy scalar. Under NEP 50 (NumPy 2) a Python int is weak and takes the NumPy
    operand's dtype. Which of NumPy's totals does it reproduce, bit for bit?"""
    values = tenths(10**5, np.float32)
    totals = {
        "np.sum": float(np.sum(values)),
        "np.cumsum": float(np.cumsum(values)[-1]),
        "np.sum in float64": float(np.sum(values, dtype=np.float64)),
    }
    builtin = float(sum(values))
    assert [name for name, total in totals.items() if total == builtin] == ["np.cumsum"]
