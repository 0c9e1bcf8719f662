"""The cache: freed blocks stay with the allocator until `empty_cache()` gives them back.

`memory_allocated()` counts blocks held by live tensors; `memory_reserved()` counts every
segment the allocator holds from CUDA, in use or cached. The koans use 64 MiB tensors: at that
size each request gets a segment of exactly its own size, so the changes can be read off
directly.
"""

import gc
import os

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "that freed GPU memory stays cached by torch until torch.cuda.empty_cache()",
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


def test_del_returns_memory_to_the_cache_not_to_the_driver():
    """Freeing a tensor marks its block free in the allocator's cache. The segment stays
    reserved from CUDA, ready for the next request, with no cudaFree and no cudaMalloc. The
    test reads the change in allocated and in reserved memory after `del`."""
    settle()
    allocated, reserved = torch.cuda.memory_allocated(), torch.cuda.memory_reserved()
    x = uint8s(64 * MiB)
    del x
    change = (torch.cuda.memory_allocated() - allocated, torch.cuda.memory_reserved() - reserved)
    assert change == __


def test_empty_cache_hands_free_segments_back_to_the_driver():
    """`torch.cuda.empty_cache()` calls cudaFree on every cached segment that holds no live
    block, so that other processes (and `nvidia-smi`) see the memory as free again."""
    settle()
    reserved = torch.cuda.memory_reserved()
    x = uint8s(64 * MiB)
    del x
    torch.cuda.empty_cache()
    assert torch.cuda.memory_reserved() - reserved == __


def test_empty_cache_cannot_take_memory_from_live_tensors():
    """`empty_cache()` releases only segments with no live block in them: memory that a tensor
    still uses stays reserved, however often you empty the cache."""
    settle()
    reserved = torch.cuda.memory_reserved()
    x = uint8s(64 * MiB)
    torch.cuda.empty_cache()
    still_reserved = torch.cuda.memory_reserved() - reserved
    del x
    assert still_reserved == __


def test_the_cache_serves_the_best_fitting_free_block():
    """The allocator serves a request from the smallest cached free block that fits, on the
    same stream. Free a block and ask again for the same size, and the best fit is the block
    just freed. The test compares the new tensor's address with the old one's."""
    settle()
    x = uint8s(64 * MiB)
    address = x.data_ptr()
    del x
    y = uint8s(64 * MiB)
    assert (y.data_ptr() == address) == __


def test_reusing_a_cached_block_needs_no_new_segment():
    """`segment.all.allocated` counts every segment ever reserved, which is to say every
    cudaMalloc the allocator made. Allocate, free and allocate the same size again, and count
    how many it took."""
    settle()
    before = stat("segment.all.allocated")
    x = uint8s(64 * MiB)
    del x
    y = uint8s(64 * MiB)
    reserved_segments = stat("segment.all.allocated") - before
    del y
    assert reserved_segments == __
