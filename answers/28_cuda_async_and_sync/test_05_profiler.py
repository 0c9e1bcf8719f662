"""The profiler can see what the GPU ran, not only what Python asked for.

`torch.profiler.profile` records the host-side operator calls; with
`ProfilerActivity.CUDA` it also collects, through NVIDIA's CUPTI, every kernel the GPU ran,
with its own name and its own timing, and ties each kernel to the operator that launched it.
Torch's own kernels live in its C++ namespace `at::native`, and their names say so; kernels
from vendor libraries have names of their own, which change with the GPU and the library
version. `profile_run` profiles `(torch.mm(x, x) + 1).relu() * 2` on a 1024 x 1024 matrix,
after one unprofiled warm-up run.
"""

import functools

import pytest

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.cuda, pytest.mark.slow]

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "that torch.profiler with ProfilerActivity.CUDA records the kernels the GPU ran",
        allow_module_level=True,
    )

from torch.autograd import DeviceType  # noqa: E402
from torch.profiler import ProfilerActivity, profile  # noqa: E402


@functools.cache
def profile_run(with_cuda):
    """The profiler's events for one run of the computation, with or without the CUDA activity."""
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if with_cuda else [])
    x = torch.randn(1024, 1024, device="cuda")
    (torch.mm(x, x) + 1).relu() * 2
    torch.cuda.synchronize()
    with profile(activities=activities) as prof:
        (torch.mm(x, x) + 1).relu() * 2
        torch.cuda.synchronize()
    return list(prof.events())


def torchs_own_kernels(events):
    """The device-side events whose names come from torch's own CUDA code."""
    return [e for e in events if e.device_type == DeviceType.CUDA and "at::native" in e.name]


def test_the_cuda_activity_collects_device_events_through_cupti():
    """With the CUDA activity on, every kernel the GPU ran appears as an event of its own, with
    device type CUDA. With only the CPU activity, the profiler times the host-side calls, which
    return as soon as their kernels are queued, and records nothing the GPU did. How many of
    torch's own kernels does each profile show, with the CUDA activity and without it?"""
    counts = [len(torchs_own_kernels(profile_run(with_cuda))) for with_cuda in (True, False)]
    assert counts == [3, 0]  # add, clamp_min (which relu calls) and mul; nothing without CUPTI


def test_a_matrix_product_runs_a_kernel_from_cublas():
    """Torch does not write its own matrix-product kernels for the GPU: `torch.mm` calls cuBLAS,
    NVIDIA's linear algebra library, and the kernel it launches is cuBLAS's. The profiler ties
    every kernel to the host-side operator that launched it (`event.kernels`). Which operators
    launched a kernel that is not torch's own?"""
    launchers = sorted({
        e.name
        for e in profile_run(True)
        if e.device_type == DeviceType.CPU and any("at::native" not in k.name for k in e.kernels)
    })
    assert launchers == ["aten::mm"]  # its kernel's name comes from cuBLAS, and varies by GPU
