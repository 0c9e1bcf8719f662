"""Tensors and NumPy arrays can share one buffer, so a write through either is seen by both. Every
tensor also carries a version counter that in-place writes bump, which is how autograd notices
that a value it saved for the backward pass was overwritten."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the tensor koans need PyTorch (pip install torch)")


def test_from_numpy_shares_the_arrays_memory():
    """`torch.from_numpy` wraps the array's buffer in a tensor header without copying, so a
    write through the array is visible through the tensor."""
    array = np.arange(3.0)
    tensor = torch.from_numpy(array)
    array[0] = 100.0
    assert tensor.tolist() == __


def test_numpy_of_a_cpu_tensor_shares_the_other_way():
    """`.numpy()` on a CPU tensor returns an ndarray over the tensor's storage, again without a
    copy, so writes into the tensor show up in the array."""
    tensor = torch.zeros(3)
    array = tensor.numpy()
    tensor[1] = 5.0
    assert array.tolist() == __


def test_torch_tensor_always_copies_its_input():
    """`torch.tensor(data)` is a constructor: it allocates fresh storage and copies the data in,
    so later writes to the source array do not reach it (`torch.as_tensor` would share)."""
    array = np.zeros(2)
    tensor = torch.tensor(array)
    array[0] = 9.0
    assert tensor.tolist() == __


def test_from_numpy_keeps_the_arrays_dtype():
    """A shared buffer cannot change its element type, so `from_numpy` keeps the array's dtype,
    and NumPy's default float is double precision. A tensor built from Python floats gets
    PyTorch's own default, `torch.get_default_dtype()`."""
    shared = torch.from_numpy(np.zeros(2))
    fresh = torch.tensor([0.0, 0.0])
    assert (str(shared.dtype), str(fresh.dtype)) == __


def test_a_negative_numpy_stride_cannot_become_a_tensor():
    """`a[::-1]` is a NumPy view that walks its buffer backwards with a negative stride. PyTorch
    tensors cannot have negative strides, so `from_numpy` rejects the array (`torch.tensor`, which
    copies anyway, refuses it too: copy it in NumPy first)."""
    with pytest.raises(___):
        torch.from_numpy(np.arange(3)[::-1])


def test_in_place_operations_bump_the_version_counter():
    """Every tensor carries a version counter that starts at zero and goes up by one with each
    in-place write (`add_`, `mul_`, `t[i] = ...`). An out-of-place operation writes a new
    tensor and leaves the counter of its input alone."""
    t = torch.zeros(3)
    t.add_(1)
    t.mul_(2)
    result = t + 1
    assert result.tolist() == [3.0, 3.0, 3.0]
    assert t._version == __


def test_a_view_shares_the_version_counter_of_its_base():
    """A view and its base read the same storage, so a write through either changes both, and
    they share one counter."""
    base = torch.zeros(4)
    view = base[:2]
    view.add_(1)
    assert base._version == __


def test_autograd_refuses_a_saved_tensor_that_was_overwritten():
    """`exp` saves its own output for the backward pass, because the derivative of exp is exp,
    and notes the output's version at that moment. The in-place `add_` bumps the version, so
    `backward` finds a saved tensor that no longer holds the value it saved, and stops."""
    x = torch.ones(3, requires_grad=True)
    y = x.exp()
    y.add_(1)
    with pytest.raises(___):
        y.sum().backward()
