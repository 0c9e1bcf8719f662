"""Host-to-device copies, pinned memory, and when the host has to wait.

Sync debug mode makes waiting visible: after `torch.cuda.set_sync_debug_mode("error")`, an
operation that makes the host wait for the GPU raises an exception instead of waiting (the
docs warn that it does not catch every such operation). The helpers below switch it on for one
call only and always switch it back off.
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


def test_a_copy_from_pageable_memory_makes_the_host_wait():
    """Ordinary (pageable) host memory can be moved by the operating system at any time, so the
    GPU cannot read it on its own: the driver copies it through a pinned staging buffer while
    Python waits. In sync debug mode "error", that wait becomes an exception."""
    host = torch.ones(1024)
    with sync_errors(), pytest.raises(___):
        host.to("cuda")


def test_the_copy_engine_reads_pinned_memory_by_itself():
    """Pinned (page-locked) memory stays where it is, so the GPU's copy engine can read it by
    DMA while the host runs on. With `non_blocking=True` the copy is queued on the current
    stream like a kernel, and later work on that stream sees the data."""
    pinned = torch.ones(1024).pin_memory()
    assert makes_host_wait(lambda: pinned.to("cuda", non_blocking=True)) == __


def test_pin_memory_allocates_new_page_locked_memory():
    """`pin_memory()` does not change the tensor it is called on (no trailing underscore): it
    allocates page-locked host memory, copies the data into it and returns the new tensor."""
    pageable = torch.ones(1024)
    pinned = pageable.pin_memory()
    assert pinned.is_pinned()
    assert pageable.is_pinned() == __


def test_the_gpu_writes_asynchronously_only_into_page_locked_memory():
    """For the GPU to write into host memory while the host runs on, the destination must be
    page-locked too, so a non-blocking copy to the host allocates its result pinned."""
    on_device = torch.ones(1024, device="cuda")
    back = on_device.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    assert back.is_pinned() == __


def test_a_non_blocking_copy_to_the_host_is_queued_like_a_kernel():
    """The copy back is queued like everything else, so the host gets a tensor whose bytes may
    not have arrived yet. Reading it before `torch.cuda.synchronize()` (or an event) is a
    silent wrong answer, not an error."""
    on_device = torch.ones(1024, device="cuda")
    waited = makes_host_wait(lambda: on_device.to("cpu", non_blocking=True))
    torch.cuda.synchronize()
    assert waited == __
