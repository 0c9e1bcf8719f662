"""bfloat16: float32's 8 exponent bits with only 7 fraction bits, in 16 bits."""

import math

import pytest

torch = pytest.importorskip("torch")


def test_bfloat16_has_a_coarser_epsilon_than_float16():
    """bfloat16 spends its 16 bits as 1 sign, 8 exponent and 7 fraction bits; float16 spends
    them as 1, 5 and 10. Same size, different split: with fewer fraction bits, bfloat16 has
    the wider gap between 1.0 and the next value. How many times wider, as a power of two?"""
    assert torch.finfo(torch.bfloat16).bits == torch.finfo(torch.float16).bits == 16
    assert torch.finfo(torch.bfloat16).eps / torch.finfo(torch.float16).eps == 2.0**__


def test_bfloat16_is_the_top_half_of_float32_rounded():
    """bfloat16 keeps float32's sign, its 8-bit exponent and just the first 7 fraction bits, so
    its bit pattern is the upper 16 bits of the float32 one. The conversion does not simply
    cut off the low half: it rounds to the nearest bfloat16, so when the dropped half is more
    than halfway (above 0x8000) the kept half goes up by one. One third's fraction is the
    endless binary pattern 0101..., and float32 already rounded its last bit up."""
    third = torch.tensor(1 / 3, dtype=torch.float32)
    as_float32 = third.view(torch.int32).item()
    as_bfloat16 = third.to(torch.bfloat16).view(torch.int16).item()
    assert hex(as_float32) == "0x3eaaaaab"
    assert hex(as_bfloat16) == __


def test_bfloat16_survives_70000_where_float16_overflows():
    """70000 rounds past float16's largest finite value, so float16 overflows to inf, but
    bfloat16 has float32's exponent range (up to about 3.4e38). It pays in precision: near
    70000 neighbouring bfloat16 values are 512 apart, so 70000 is stored as the nearest
    multiple of 512."""
    assert math.isinf(torch.tensor(70000.0, dtype=torch.float16).item())
    assert torch.tensor(70000.0, dtype=torch.bfloat16).item() == __
