"""Which GPU a tensor lands on, and which moves between host and device copy data.

A `torch.device` names a backend and, optionally, an index. `"cuda"` alone is a request for
whichever GPU is current; a tensor always records the concrete index it was given. Data never
crosses between host and device by itself: every move is an explicit copy, and operations
refuse to mix operands from different devices, with one exception for single numbers.
"""

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "how a tensor picks its GPU and which moves between host and device copy data",
        allow_module_level=True,
    )


def test_a_bare_cuda_device_resolves_to_the_current_gpu():
    """Asking for `device="cuda"` does not name a GPU: torch fills in the current device of the
    calling thread, which starts as the first GPU the process can see. A device prints as its
    backend, a colon and its index."""
    x = torch.ones(1, device="cuda")
    assert str(x.device) == __


def test_an_unindexed_device_names_no_particular_gpu():
    """`torch.device("cuda")` is only a request. It keeps the backend and leaves the index
    unset, to be resolved against the current device when a tensor is actually made."""
    assert torch.device("cuda").index == __


def test_device_equality_compares_the_index_too():
    """Devices compare by backend and index. A tensor's device always carries its index, the
    bare request carries none, so `t.device == torch.device("cuda")` is a classic bug in device
    checks: compare `t.device.type`, or ask `t.is_cuda`."""
    x = torch.ones(1, device="cuda")
    assert (x.device == torch.device("cuda")) == __


def test_the_current_device_starts_at_the_first_visible_gpu():
    """Until `torch.cuda.set_device` or a `with torch.cuda.device(...)` block says otherwise,
    each thread's current device is the first GPU the process can see, whatever physical slot
    that GPU sits in. Device numbers are counted from the start of the visible list."""
    assert torch.cuda.current_device() == __


def test_tensor_to_copies_only_when_something_must_change():
    """`Tensor.to` copies only when something has to change. With the same device and dtype
    it returns `self`, not a copy, so a write through the result is a write to the original."""
    x = torch.zeros(3, device="cuda")
    y = x.to(x.device)
    assert (y is x) == __


def test_tensor_to_hands_its_result_back_as_a_new_tensor():
    """`t.to("cuda")` allocates device memory, copies into it and returns the new tensor; `t`
    itself is untouched. A bare `t.to("cuda")` statement copies and throws the copy away."""
    t = torch.ones(3)
    t.to("cuda")
    assert t.is_cuda == __


def test_module_to_works_on_the_module_itself():
    """`nn.Module.to` is the odd one out: it replaces the data of every parameter and buffer
    of the module itself, then returns the module, so a call without assignment still moves
    the model."""
    model = torch.nn.Linear(2, 2)
    model.to("cuda")
    assert model.weight.is_cuda == __


def test_a_zero_dimensional_host_tensor_joins_gpu_work_as_a_number():
    """Torch's GPU kernels read their operands from device memory, so the operands of one
    operation must share a device. The exception is a zero-dimensional host tensor: torch reads
    its one value on the host and passes it to the kernel as an argument, like a Python
    number."""
    x = torch.ones(3, device="cuda")
    y = x + torch.tensor(2.0)
    assert y.is_cuda == __


def test_a_host_vector_cannot_join_gpu_work():
    """A one-element vector is not a number but a tensor in host memory. Rather than copy it
    behind your back, torch refuses to mix devices in one operation."""
    x = torch.ones(3, device="cuda")
    with pytest.raises(___):
        x + torch.ones(1)


def test_numpy_cannot_view_gpu_memory():
    """`Tensor.numpy()` returns an array that shares the tensor's memory, and NumPy can only
    address host memory. For a GPU tensor there is nothing to share: copy it to the host
    first, with `.cpu()`."""
    x = torch.ones(3, device="cuda")
    with pytest.raises(___):
        x.numpy()
