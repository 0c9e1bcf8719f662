"""Device names, and what `to` moves: the rules hold on any machine, with or without a GPU.

A `torch.device` names a backend and, optionally, an index; building one from a name asks no
driver anything, so `torch.device("cuda")` works even where there is no GPU. To show moves
between devices without a GPU, these koans use the `meta` device: a device like a GPU in every
rule that matters here (tensors there are not in host memory, and torch keeps devices apart), but
whose tensors have a shape and a dtype and no data at all.
"""

import pytest

torch = pytest.importorskip("torch")


def test_an_unindexed_device_names_no_particular_gpu():
    """`torch.device("cuda")` is only a request. It keeps the backend and leaves the index
    unset, to be resolved against the current device when a tensor is actually made."""
    assert torch.device("cuda").index == __


def test_devices_compare_by_type_and_index():
    """Devices compare (and hash) by backend and index. A tensor's device on a GPU always
    carries its index, the bare request carries none, so `t.device == torch.device("cuda")` is
    a classic bug in device checks: compare `t.device.type`, or ask `t.is_cuda`. How many
    different devices does this set hold?"""
    devices = {torch.device("cuda"), torch.device("cuda:0"), torch.device("cuda", 0)}
    assert len(devices) == __


def test_tensor_to_converts_only_what_must_change():
    """`Tensor.to` copies only when something has to change. With the same device and dtype it
    returns `self`, not a copy, so a write through the result is a write to the original. Two
    results of `to` are written to, then the original is read."""
    x = torch.zeros(3)
    same = x.to(torch.float32)
    other = x.to(torch.float64)
    same[0] = 1.0
    other[1] = 2.0
    assert x.tolist() == __


def test_tensor_to_hands_its_result_back_as_a_new_tensor():
    """`t.to(device)` allocates memory on the other device, copies into it and returns the new
    tensor. Here the result is not assigned to anything. Where is `t` after the line?"""
    t = torch.ones(3)
    t.to("meta")
    assert str(t.device) == __


def test_module_to_moves_the_parameters_of_the_module_itself():
    """`nn.Module.to` is the odd one out: it replaces the data of every parameter and buffer
    of the module itself, then returns the module. Here too the result is not assigned to
    anything. Where is the weight after the line?"""
    model = torch.nn.Linear(2, 2)
    model.to("meta")
    assert str(model.weight.device) == __


def test_a_zero_dimensional_host_tensor_joins_device_work_as_a_number():
    """Torch's device kernels read their operands from device memory, so the operands of one
    operation must share a device. The exception is a zero-dimensional host tensor: torch reads
    its one value on the host and passes it to the kernel as an argument, like a Python
    number. Where does the result live?"""
    x = torch.ones(3, device="meta")
    y = x + torch.tensor(2.0)
    assert str(y.device) == __


def test_a_host_vector_cannot_join_device_work():
    """A one-element vector is not a number but a tensor in host memory. Rather than copy it
    behind your back, torch refuses to mix devices in one operation."""
    x = torch.ones(3, device="meta")
    with pytest.raises(___):
        x + torch.ones(1)
