"""The profiler can see what the GPU ran, not only what Python asked for.

`torch.profiler.profile` records the host-side operator calls; with
`ProfilerActivity.CUDA` it also collects, through NVIDIA's CUPTI, every kernel the GPU ran,
with its own name and its own timing. Kernel names change with the GPU and the library
version, so these koans only ask whether any device-side events were recorded.
"""

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


def device_events(activities):
    """The events recorded on the device while a small computation runs under the profiler."""
    x = torch.ones(256, 256, device="cuda")
    torch.cuda.synchronize()
    with profile(activities=activities) as prof:
        (x @ x + 1).sum()
        torch.cuda.synchronize()
    return [event for event in prof.events() if event.device_type == DeviceType.CUDA]


def test_the_cuda_activity_collects_device_events_through_cupti():
    """With the CUDA activity on, the profiler lists each kernel beside the operator call that
    launched it, as an event whose device type is CUDA."""
    kernels = device_events([ProfilerActivity.CPU, ProfilerActivity.CUDA])
    assert bool(kernels) == True  # CUPTI reported the kernels


def test_the_cpu_activity_times_only_the_host_side():
    """With only the CPU activity, the profiler records operator calls on the host and nothing
    about what the GPU did, or when: the launches returned long before the kernels ran."""
    kernels = device_events([ProfilerActivity.CPU])
    assert bool(kernels) == False  # nobody asked CUPTI
