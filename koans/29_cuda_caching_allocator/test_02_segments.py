"""Segments: the allocator reserves memory from CUDA in big pieces and cuts blocks from them.

`torch.cuda.memory_snapshot()` lists every segment the allocator has reserved from CUDA, with
its address, `total_size` and `segment_type` (which of the two pools it serves). The helper
`segment_holding(t)` finds the segment that contains a tensor's memory. Each koan starts from
an emptied cache, so the segment under a new tensor is a fresh one, shaped by the size of the
request alone.
"""

import gc
import os

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "how the caching allocator reserves GPU memory in segments and cuts blocks from them",
        allow_module_level=True,
    )

KiB = 1 << 10
MiB = 1 << 20


def settle():
    """Start from a known allocator state: garbage collected, cached free segments returned to
    the driver, peaks reset. Skips where the allocator is configured away from its defaults."""
    for name in ("PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF", "PYTORCH_NO_CUDA_MEMORY_CACHING"):
        if os.environ.get(name):
            pytest.skip(
                f"{name}={os.environ[name]!r} is set: it changes how the caching allocator "
                "rounds, splits and caches memory, and these koans describe its defaults"
            )
    if torch.cuda.get_allocator_backend() != "native":
        pytest.skip("these koans describe torch's native caching allocator, not cudaMallocAsync")
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()


def stat(name):
    """One counter from `torch.cuda.memory_stats()`."""
    return torch.cuda.memory_stats()[name]


def uint8s(count):
    """A tensor of `count` bytes on the GPU (uint8 is one byte per element)."""
    return torch.empty(count, dtype=torch.uint8, device="cuda")


def segment_holding(tensor):
    """The snapshot entry of the segment that contains `tensor`'s first byte."""
    address = tensor.data_ptr()
    for segment in torch.cuda.memory_snapshot():
        if segment["address"] <= address < segment["address"] + segment["total_size"]:
            return segment
    raise LookupError(f"no segment holds address {address:#x}")


def test_small_tensors_are_cut_from_shared_segments():
    """A cudaMalloc per tensor would be slow, so requests of up to 1 MiB are cut from small
    segments that the allocator reserves in one piece (kSmallBuffer in the allocator's source)
    and shares among many small tensors. How big, in bytes, is the segment under a one-byte
    tensor?"""
    settle()
    x = uint8s(1)
    assert segment_holding(x)["total_size"] == __


def test_one_mib_is_the_largest_request_served_by_the_small_pool():
    """The allocator keeps two pools with separate segments. A request whose rounded size is at
    most 1 MiB goes to the first, anything bigger to the second; the snapshot names the pool of
    each segment. The test asks for exactly 1 MiB, then for one byte more."""
    settle()
    exactly = uint8s(MiB)
    above = uint8s(MiB + 1)
    kinds = (segment_holding(exactly)["segment_type"], segment_holding(above)["segment_type"])
    assert kinds == __


def test_a_mid_sized_request_is_cut_from_a_bigger_segment():
    """Requests between 1 MiB and 10 MiB would fragment memory if each got a segment of its own
    size, so the allocator reserves a bigger segment for them (kLargeBuffer, or the
    large_segment_size setting in newer versions) and splits it; the rest serves later requests
    from the large pool. How big, in bytes, is the segment under a 3 MiB tensor?"""
    settle()
    x = uint8s(3 * MiB)
    assert segment_holding(x)["total_size"] == __


def test_a_big_request_gets_a_segment_of_its_own_rounded_up_to_2_mib():
    """From 10 MiB up, the allocator asks CUDA for a segment just big enough, rounded up to a
    multiple of 2 MiB. One byte too many costs a whole extra rounding step."""
    settle()
    x = uint8s(64 * MiB + 1)
    assert segment_holding(x)["total_size"] == __


def test_a_leftover_of_1_mib_or_less_stays_attached_to_the_block():
    """After cutting a large request from a segment, the allocator splits off the rest as a free
    block only if it is bigger than 1 MiB. A smaller tail is not worth tracking: it goes out
    with the block, and `memory_allocated()` counts it. What does a 63 MiB request add?"""
    settle()
    before = torch.cuda.memory_allocated()
    x = uint8s(63 * MiB)
    grown = torch.cuda.memory_allocated() - before
    del x
    assert grown == __


def test_a_bigger_leftover_is_split_off_for_later_requests():
    """A request 1.5 MiB short of a multiple of 2 MiB leaves a tail worth keeping: the
    allocator splits it off as a free block for later requests, and the tensor's block is only
    as big as the (rounded) request."""
    settle()
    before = torch.cuda.memory_allocated()
    x = uint8s(62 * MiB + 512 * KiB)
    grown = torch.cuda.memory_allocated() - before
    del x
    assert grown == __
