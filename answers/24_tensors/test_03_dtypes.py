"""`torch.finfo` describes each floating type. float16 spends 5 bits on the exponent and 10 on the
fraction, bfloat16 spends 8 and 7, float32 8 and 23: the exponent bits set the range, the
fraction bits the precision. PyTorch's promotion rules also differ from NumPy's."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the tensor koans need PyTorch (pip install torch)")


def test_float16_range_ends_where_its_five_exponent_bits_do():
    """float16's largest exponent is 15 and its largest significand is 2 - 2**-10 (all ten
    fraction bits set), so its largest finite value is their product, significand times 2**15.
    Anything that rounds higher becomes inf."""
    assert torch.finfo(torch.float16).max == 65504.0


def test_bfloat16_has_the_range_of_float32_with_far_fewer_fraction_bits():
    """bfloat16 keeps float32's 8 exponent bits, so its largest value is the largest significand,
    2 - 2**-7, times 2**127: just below float32's maximum. With only 7 fraction bits, the step
    from 1.0 to the next representable number is coarse."""
    info = torch.finfo(torch.bfloat16)
    assert info.max == 3.3895313892515355e38
    assert info.eps == 0.0078125  # 2**-7


def test_float16_has_subnormals_below_its_smallest_normal():
    """The smallest normal float16 has the lowest exponent, -14, and the implicit leading 1.
    Below it the format drops the leading 1 (subnormal numbers) and counts in steps of 2**-24,
    so 1e-7 rounds to the nearest multiple of that step."""
    assert torch.finfo(torch.float16).tiny == 6.103515625e-05  # 2**-14
    assert torch.tensor(1e-7, dtype=torch.float16).item() == 1.1920928955078125e-07  # 2 * 2**-24


def test_bfloat16_runs_out_of_integers_after_eight_significant_bits():
    """With 7 stored fraction bits plus the implicit leading 1, bfloat16 has 8 significant bits:
    every integer up to 2 to the power 8 is exact, and above it the spacing is 2. 257 lies
    exactly halfway between two neighbours and rounds to the one with an even significand."""
    assert torch.tensor(257.0, dtype=torch.bfloat16).item() == 256.0


def test_torch_and_numpy_promote_int64_with_float32_by_different_rules():
    """PyTorch promotes by category: when an integer tensor meets a floating tensor, the
    floating tensor's dtype wins. NumPy instead widens the floating type when it falls far short
    of the integer operand: float32 keeps 24 significant bits, int64 has 64."""
    torch_result = (torch.tensor([1]) + torch.tensor([1.0])).dtype
    numpy_result = (np.array([1]) + np.array([1.0], dtype=np.float32)).dtype
    assert (str(torch_result), numpy_result.name) == ("torch.float32", "float64")


def test_torch_wraps_a_python_int_into_a_small_integer_tensor():
    """PyTorch, like NumPy 2, does not let a Python int widen an int8 tensor. Unlike NumPy 2, it
    does not check that the int fits: the sum is computed in int8 and wraps modulo 256."""
    small = torch.tensor([100], dtype=torch.int8)
    assert (small + 200).tolist() == [44]  # 300 - 256


def test_true_division_of_integer_tensors():
    """`/` is true division, so the result cannot stay an integer type. PyTorch produces its
    default floating dtype (`torch.get_default_dtype()`), where NumPy would produce a double."""
    assert str((torch.tensor([1, 2]) / 2).dtype) == "torch.float32"
