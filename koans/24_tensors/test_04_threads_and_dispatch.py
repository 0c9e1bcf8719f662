"""Every PyTorch operation is one call from Python into ATen, PyTorch's C++ tensor library, which
dispatches on device and dtype to a kernel: its own vectorised loops, or a BLAS library such as
MKL or OpenBLAS for matrix products. Large kernels are split over an intra-op thread pool. A
`torch.device` is only a name until a tensor is put there."""

import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch", reason="the tensor koans need PyTorch (pip install torch)")


def aten_calls(func):
    """Run func under the autograd profiler; return {ATen operator name: number of calls}."""
    with torch.autograd.profiler.profile() as prof:
        func()
    return {event.key: event.count for event in prof.key_averages()}


def test_set_num_threads_resizes_the_intra_op_pool():
    """`torch.set_num_threads(n)` sets how many threads one large operation (a matmul, a big
    elementwise kernel) may be split across; `torch.get_num_threads()` reads it back. PyTorch
    picks the starting value from the machine's cores, so put it back when you are done."""
    before = torch.get_num_threads()
    assert before >= 1
    try:
        torch.set_num_threads(1)
        assert torch.get_num_threads() == __
    finally:
        torch.set_num_threads(before)


def test_an_operator_on_tensors_dispatches_to_a_named_aten_operator():
    """`a + b` calls `Tensor.__add__`, which crosses into C++ and dispatches to ATen's addition
    operator. The profiler records each ATen operator by its namespaced name, with how often it
    ran."""
    a, b = torch.ones(4), torch.ones(4)
    assert aten_calls(lambda: a + b) == __


def test_one_aten_call_covers_every_element():
    """The loop over the elements runs inside the ATen kernel, not in Python, so multiplying two
    million-element tensors is still one operator call."""
    x, y = torch.ones(10**6), torch.ones(10**6)
    assert aten_calls(lambda: x * y)["aten::mul"] == __


def test_a_python_loop_over_a_tensor_dispatches_once_per_element():
    """Iterating over a tensor yields 0-d tensors, and each `*` between two of them is a full
    trip through the dispatcher to the same ATen operator, once per pair."""
    x, y = torch.ones(100), torch.ones(100)
    calls = aten_calls(lambda: [a * b for a, b in zip(x, y, strict=True)])
    assert calls["aten::mul"] == __


def test_matmul_picks_a_kernel_by_the_dimensions_of_its_operands():
    """`@` dispatches to ATen's matmul, a composite operator that looks at the operands'
    dimensions and calls the matching BLAS-shaped operator: matrix times matrix, matrix times
    vector, or vector times vector (an inner product)."""
    m, v = torch.ones(3, 3), torch.ones(3)
    kernels = {"aten::mm", "aten::mv", "aten::dot", "aten::bmm"}
    chosen = [
        next(op for op in aten_calls(product) if op in kernels)
        for product in (lambda: m @ m, lambda: m @ v, lambda: v @ v)
    ]
    assert chosen == __


@pytest.mark.slow
def test_aten_chooses_its_simd_kernels_when_it_loads():
    """ATen compiles its CPU kernels several times, as plain code and for wider SIMD
    instruction sets, and when it loads it picks one set by asking the CPU what it supports.
    The environment variable `ATEN_CPU_CAPABILITY` caps that choice, here at the portable
    build; `get_cpu_capability()` names the set in use."""
    code = "import torch; print(torch.backends.cpu.get_cpu_capability())"
    env = {**os.environ, "ATEN_CPU_CAPABILITY": "default"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert done.stdout.strip() == __


def test_a_device_object_is_only_a_name():
    """`torch.device("cuda:1")` parses a string into a device type and an index. It touches no
    GPU, so it works on a machine without one and does not start CUDA."""
    before = torch.cuda.is_initialized()
    device = torch.device("cuda:1")
    assert (device.type, device.index) == __
    assert torch.cuda.is_initialized() == before


def test_a_device_without_an_index_is_left_open():
    """A CUDA device named without an index does not pick one: the index is settled only when a
    tensor is actually placed there, from `torch.cuda.current_device()`."""
    assert torch.device("cuda").index == __


def test_an_unknown_device_type_is_rejected_when_parsed():
    """The device string is checked against the device types PyTorch knows (cpu, cuda, mps,
    meta, ...) as soon as the `torch.device` is built, on any machine; "gpu" is not one of
    them. The check is made in PyTorch's C++ core, not in Python."""
    with pytest.raises(___):
        torch.device("gpu")
