"""memory_allocated: the bytes that live tensors occupy, rounded the allocator's way.

`torch.cuda.memory_allocated()` adds up the blocks that live tensors hold. A block is what the
allocator hands out, and it is rarely exactly what was asked for. Each koan first calls
`settle()`, then measures the change it causes, since other code in the process may hold GPU
memory of its own.
"""

import gc
import os

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "how memory_allocated() counts the blocks of live tensors, rounded the allocator's way",
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


def test_memory_allocated_counts_the_bytes_of_live_tensors():
    """A float32 is four bytes, so a tensor of a thousand and twenty-four of them needs that
    many times four bytes, which is already a whole number of the allocator's blocks."""
    settle()
    before = torch.cuda.memory_allocated()
    x = torch.empty(1024, dtype=torch.float32, device="cuda")
    grown = torch.cuda.memory_allocated() - before
    del x
    assert grown == __


def test_even_one_byte_takes_a_whole_minimum_block():
    """The caching allocator never hands out less than its minimum block (kMinBlockSize in
    the allocator's source), so even the smallest tensor adds a full block."""
    settle()
    before = torch.cuda.memory_allocated()
    x = uint8s(1)
    grown = torch.cuda.memory_allocated() - before
    del x
    assert grown == __


def test_sizes_are_rounded_up_to_whole_minimum_blocks():
    """Every request is rounded up to a multiple of the minimum block, so a size in between
    pays for the unused rest of its last block."""
    settle()
    before = torch.cuda.memory_allocated()
    x = uint8s(1000)
    grown = torch.cuda.memory_allocated() - before
    del x
    assert grown == __


def test_an_empty_tensor_allocates_nothing():
    """A tensor with no elements needs no bytes, and for a zero-byte request the allocator
    returns a null pointer rather than a block. The test reads the change in
    `memory_allocated()` and the tensor's `data_ptr()`."""
    settle()
    before = torch.cuda.memory_allocated()
    x = uint8s(0)
    seen = (torch.cuda.memory_allocated() - before, x.data_ptr())
    assert seen == __


def test_requested_bytes_remember_the_size_before_rounding():
    """Beside the rounded block sizes, the allocator counts what callers actually asked for,
    as `requested_bytes`, so that you can see what rounding costs."""
    settle()
    before = stat("requested_bytes.all.current")
    x = uint8s(700)
    grown = stat("requested_bytes.all.current") - before
    del x
    assert grown == __
