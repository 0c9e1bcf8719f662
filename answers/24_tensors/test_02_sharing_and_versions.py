"""Tensors and NumPy arrays can share one buffer, so a write through either is seen by both. Every
tensor also carries a version counter that PyTorch's in-place operations bump, which is how
autograd notices that a value it saved for the backward pass was overwritten; a write that
goes around those operations is not counted."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the tensor koans need PyTorch (pip install torch)")


def test_from_numpy_shares_the_arrays_memory():
    """`torch.from_numpy` wraps the array's buffer in a tensor header without copying, so a
    write through the array is visible through the tensor."""
    array = np.arange(3.0)
    tensor = torch.from_numpy(array)
    array[0] = 100.0
    assert tensor.tolist() == [100.0, 1.0, 2.0]


def test_numpy_of_a_cpu_tensor_shares_the_other_way():
    """`.numpy()` on a CPU tensor returns an ndarray over the tensor's storage, again without a
    copy, so writes into the tensor show up in the array."""
    tensor = torch.zeros(3)
    array = tensor.numpy()
    tensor[1] = 5.0
    assert array.tolist() == [0.0, 5.0, 0.0]


def test_torch_tensor_and_as_tensor_take_an_array_differently():
    """`torch.tensor(data)` is a constructor: it always allocates fresh storage and copies the
    data in. `torch.as_tensor(data)` converts: it copies only when it has to, for another dtype
    or another device. What does each tensor hold after the write into the array?"""
    array = np.zeros(2)
    copied, converted = torch.tensor(array), torch.as_tensor(array)
    array[0] = 9.0
    assert (copied.tolist(), converted.tolist()) == ([0.0, 0.0], [9.0, 0.0])


def test_where_a_new_tensor_gets_its_dtype():
    """A shared buffer cannot change its element type: `from_numpy` wraps the bytes the array
    already holds. A tensor built from Python floats has no such constraint and gets PyTorch's
    own default, `torch.get_default_dtype()`."""
    shared = torch.from_numpy(np.zeros(2))
    fresh = torch.tensor([0.0, 0.0])
    assert (str(shared.dtype), str(fresh.dtype)) == ("torch.float64", "torch.float32")


def test_a_negative_numpy_stride_cannot_become_a_tensor():
    """`a[::-1]` is a NumPy view that walks its buffer backwards with a negative stride. PyTorch
    tensors cannot have negative strides, so `from_numpy` rejects the array (`torch.tensor`, which
    copies anyway, refuses it too: copy it in NumPy first)."""
    with pytest.raises(ValueError):
        torch.from_numpy(np.arange(3)[::-1])


def test_which_writes_the_version_counter_sees():
    """Every tensor carries a version counter that PyTorch's in-place operations (`add_`,
    `mul_`, `t[i] = ...`) bump; autograd uses it to notice that a saved value changed. A view
    shares the counter of its base, and so does `detach()` (its documentation warns that an
    in-place change through either tensor may trip autograd's checks). `.data` is the older
    alias from before `detach()` existed, and NumPy writes memory with code that has never
    heard of a counter. Read the counter after each line."""
    t = torch.zeros(3)
    versions = []
    t.add_(1)  # an in-place operation
    versions.append(t._version)
    t.detach().add_(1)  # the same, through a detached alias
    versions.append(t._version)
    t.data.add_(1)  # the same, through .data
    versions.append(t._version)
    t.numpy()[0] = 5.0  # a write through a NumPy array over the same memory
    versions.append(t._version)
    t + 1  # an out-of-place operation
    versions.append(t._version)
    assert versions == [1, 2, 2, 2, 2]


def test_a_view_shares_the_version_counter_of_its_base():
    """A view and its base read the same storage, so a write through either changes both, and
    they share one counter, whenever the view was made. A clone is fresh storage with a fresh
    counter. Count the in-place writes each one has seen."""
    base = torch.zeros(4)
    view = base[:2]
    view.add_(1)
    base.mul_(2)
    later = base[2:]
    later.sub_(1)
    copy = base.clone()
    assert (base._version, view._version, later._version, copy._version) == (3, 3, 3, 0)
