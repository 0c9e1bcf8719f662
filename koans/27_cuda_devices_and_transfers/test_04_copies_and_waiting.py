"""Host-to-device copies, pinned memory, and when the host has to wait.

Sync debug mode makes waiting visible: after `torch.cuda.set_sync_debug_mode("error")`, an
operation that makes the host wait for the GPU raises an exception instead of waiting (the
docs warn that it does not catch every such operation). The helpers below switch it on for one
call only and always switch it back off; `waiters` lists, in order, the operations that made
the host wait.
"""

import contextlib
import warnings

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "which copies between host and GPU make Python wait, and what pinned memory changes",
        allow_module_level=True,
    )

MiB = 1 << 20


def set_sync_debug_mode(mode):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "a prototype feature": we know
        torch.cuda.set_sync_debug_mode(mode)


@contextlib.contextmanager
def sync_errors():
    """Inside this block, making the host wait for the GPU raises an exception."""
    torch.cuda.synchronize()
    set_sync_debug_mode("error")
    try:
        yield
    finally:
        set_sync_debug_mode("default")


def makes_host_wait(action):
    """Whether `action()` made the host wait for the GPU, as seen by sync debug mode."""
    with sync_errors():
        try:
            action()
        except Exception as error:
            if "synchroniz" not in str(error):
                raise
            return True
    return False


def waiters(operations):
    """The names of the operations that made the host wait, in the order given."""
    return [name for name, operation in operations.items() if makes_host_wait(operation)]


def test_a_copy_from_pageable_memory_makes_the_host_wait():
    """Ordinary (pageable) host memory can be moved by the operating system at any time, so the
    GPU cannot read it on its own: the driver copies it through a pinned staging buffer while
    Python waits. In sync debug mode "error", that wait becomes an exception."""
    host = torch.ones(1024)
    with sync_errors(), pytest.raises(___):
        host.to("cuda")


def test_non_blocking_decides_whether_a_copy_waits():
    """Pinned (page-locked) memory stays where it is, so the GPU's copy engine can read it, or
    write it, by DMA while the host runs on. With `non_blocking=True` such a copy is queued on
    the current stream like a kernel, and later work on that stream sees the data. Without
    it, torch waits for every copy to finish, pinned or not, so that the result can be used at
    once. A copy back to the host with `non_blocking=True` returns a tensor whose bytes may not
    have arrived yet: reading it before a synchronisation is a silent wrong answer. Which of
    these copies made the host wait?"""
    pinned = torch.ones(1024).pin_memory()
    on_device = torch.ones(1024, device="cuda")
    operations = {
        "pinned to GPU": lambda: pinned.to("cuda"),
        "pinned to GPU, non_blocking": lambda: pinned.to("cuda", non_blocking=True),
        "GPU to host": lambda: on_device.to("cpu"),
        "GPU to host, non_blocking": lambda: on_device.to("cpu", non_blocking=True),
    }
    waited = waiters(operations)
    torch.cuda.synchronize()
    assert waited == __


def test_pin_memory_allocates_new_page_locked_memory():
    """`pin_memory()` does not change the tensor it is called on (no trailing underscore): it
    allocates page-locked host memory, copies the data into it and returns the new tensor.
    The test writes through the pinned tensor and reads the original."""
    pageable = torch.ones(1024)
    pinned = pageable.pin_memory()
    pinned[0] = 7.0
    assert pageable[0].item() == __


def test_the_gpu_writes_asynchronously_only_into_page_locked_memory():
    """For the GPU to write into host memory while the host runs on, the destination must be
    page-locked, so a non-blocking copy to the host allocates its result pinned. The test asks
    two results whether they are pinned: a plain copy's first, then a non-blocking one's."""
    on_device = torch.ones(1024, device="cuda")
    plain = on_device.to("cpu")
    early = on_device.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    assert [plain.is_pinned(), early.is_pinned()] == __


def test_the_copy_engine_reads_page_locked_memory_directly():
    """A copy from pageable memory goes through the driver's staging buffer in pieces, with
    the host copying each piece first; from page-locked memory the GPU's copy engine reads the
    source directly by DMA. The test times 64 MiB copies to the GPU with CUDA events, ten of
    each kind after a warm-up, keeps the fastest of each, and calls one kind faster only if it
    wins by a margin of 30 percent."""
    pageable = torch.ones(64 * MiB, dtype=torch.uint8)
    pinned = pageable.pin_memory()
    target = torch.empty(64 * MiB, dtype=torch.uint8, device="cuda")

    def copy_ms(source):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        target.copy_(source)
        end.record()
        end.synchronize()
        return start.elapsed_time(end)

    copy_ms(pageable), copy_ms(pinned)  # warm-up
    times = {"pageable": [], "pinned": []}
    for _ in range(10):
        times["pageable"].append(copy_ms(pageable))
        times["pinned"].append(copy_ms(pinned))
    pageable_ms, pinned_ms = min(times["pageable"]), min(times["pinned"])
    if pageable_ms > 1.3 * pinned_ms:
        faster = "pinned"
    elif pinned_ms > 1.3 * pageable_ms:
        faster = "pageable"
    else:
        faster = "neither"
    assert faster == __
