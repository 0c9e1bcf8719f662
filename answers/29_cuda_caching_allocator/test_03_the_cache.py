"""The cache: freed blocks stay with the allocator until `empty_cache()` gives them back.

`memory_allocated()` counts blocks held by live tensors; `memory_reserved()` counts every
segment the allocator holds from CUDA, in use or cached. Most koans use 64 MiB tensors: at that
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
    assert change == (0, 67108864)  # free in the cache, still reserved


def test_empty_cache_hands_free_segments_back_to_the_driver():
    """`torch.cuda.empty_cache()` calls cudaFree on every cached segment that holds no live
    block, so that other processes (and `nvidia-smi`) see the memory as free again. The test
    reads the change in reserved memory after each of three steps."""
    settle()
    reserved = torch.cuda.memory_reserved()
    changes = []
    x = uint8s(64 * MiB)
    changes.append(torch.cuda.memory_reserved() - reserved)
    del x
    changes.append(torch.cuda.memory_reserved() - reserved)
    torch.cuda.empty_cache()
    changes.append(torch.cuda.memory_reserved() - reserved)
    assert changes == [67108864, 67108864, 0]  # only the last step calls cudaFree


def test_empty_cache_cannot_take_memory_from_live_tensors():
    """`empty_cache()` releases only segments with no live block in them: memory that a tensor
    still uses stays reserved, however often you empty the cache."""
    settle()
    reserved = torch.cuda.memory_reserved()
    x = uint8s(64 * MiB)
    torch.cuda.empty_cache()
    still_reserved = torch.cuda.memory_reserved() - reserved
    del x
    assert still_reserved == 67108864  # x still lives in it


def test_the_cache_serves_the_best_fitting_free_block():
    """The allocator serves a request from the smallest cached free block that fits, on the
    same stream, not from the first one it finds. Three 3 MiB tensors are cut one after the
    other from the start of one fresh segment; freeing the middle one leaves two free blocks,
    the hole it left and the rest of the segment. How far from the start of the segment does a
    2 MiB tensor land?"""
    settle()
    first, middle, last = uint8s(3 * MiB), uint8s(3 * MiB), uint8s(3 * MiB)
    del middle
    new = uint8s(2 * MiB)
    offset = new.data_ptr() - first.data_ptr()
    del first, last, new
    assert offset == 3145728  # the hole is the smallest free block that fits


def test_a_cached_block_serves_later_requests_without_a_new_segment():
    """`segment.all.allocated` counts every segment ever reserved, which is to say every
    cudaMalloc the allocator made. Four tensors are made one after the other, each freed
    before the next: 64 MiB, 64 MiB again, 32 MiB, 96 MiB. How many cudaMallocs did they
    take?"""
    settle()
    before = stat("segment.all.allocated")
    for size in (64 * MiB, 64 * MiB, 32 * MiB, 96 * MiB):
        x = uint8s(size)
        del x
    reserved_segments = stat("segment.all.allocated") - before
    assert reserved_segments == 2  # the first and the last; the cache served the two between
