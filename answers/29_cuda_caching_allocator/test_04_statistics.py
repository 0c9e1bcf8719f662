"""Counting: memory_stats(), peaks, and what happens when memory runs out.

`torch.cuda.memory_stats()` is a flat dictionary of counters such as
`"allocation.all.current"`: what is counted (allocation, allocated_bytes, segment,
reserved_bytes, ...), for which pool (all, small_pool, large_pool), and which flavour
(current, peak, allocated, freed). A few plain counters such as `"num_alloc_retries"` and
`"num_ooms"` sit beside them. The koans read changes from a baseline taken after `settle()`.
"""

import gc
import os

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "torch.cuda.memory_stats() counters, peak memory and what happens when memory runs out",
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


TiB = 1 << 40


def test_the_allocation_counter_counts_live_blocks():
    """`allocation.all.current` is how many blocks live tensors hold right now, whatever their
    sizes: a one-element tensor and a big one count the same."""
    settle()
    before = stat("allocation.all.current")
    tensors = [torch.empty(n, device="cuda") for n in (1, 1000, 100_000)]
    blocks = stat("allocation.all.current") - before
    del tensors
    assert blocks == 3  # one block per tensor


def test_each_counter_keeps_current_allocated_and_freed():
    """Each core statistic comes in four flavours: `current` (now), `peak` (highest since the
    last reset), `allocated` (total ever added) and `freed` (total ever taken away). A tensor
    made and then dropped moves them like this (current, allocated, freed)."""
    settle()
    keys = ("allocation.all.current", "allocation.all.allocated", "allocation.all.freed")
    before = [stat(key) for key in keys]
    x = torch.empty(1, device="cuda")
    del x
    change = tuple(stat(key) - start for key, start in zip(keys, before, strict=True))
    assert change == (0, 1, 1)  # one in, one out, both remembered


def test_the_peak_remembers_the_high_water_mark():
    """`max_memory_allocated()` is the peak of `memory_allocated()` since the last reset (here,
    `settle()`). A big tensor that came and went still shows in it, after a smaller one
    replaced it."""
    settle()
    base = torch.cuda.memory_allocated()
    x = uint8s(64 * MiB)
    del x
    y = uint8s(32 * MiB)
    peak = torch.cuda.max_memory_allocated() - base
    del y
    assert peak == 67108864  # the 64 MiB tensor's moment


def test_reset_peak_memory_stats_restarts_the_peak_from_now():
    """`reset_peak_memory_stats()` sets every peak to its current value, which is how you
    measure the peak of one training step at a time."""
    settle()
    base = torch.cuda.memory_allocated()
    x = uint8s(64 * MiB)
    del x
    y = uint8s(32 * MiB)
    torch.cuda.reset_peak_memory_stats()
    peak = torch.cuda.max_memory_allocated() - base
    del y
    assert peak == 33554432  # the peak is what lives now


def test_an_impossible_request_fails_with_an_error_class_of_its_own():
    """When even an emptied cache leaves no room, the allocator gives up with an exception
    class of its own, a subclass of the usual run-time error, whose message reports where the
    memory went. Sixteen TiB is more than any GPU has."""
    settle()
    with pytest.raises(torch.OutOfMemoryError):  # "CUDA out of memory. Tried to allocate ..."
        uint8s(16 * TiB)


def test_before_giving_up_the_allocator_frees_its_cache_and_retries():
    """When cudaMalloc fails, the allocator frees every cached segment it can and asks once
    more; only when that fails too does it raise. Both steps are counted, as
    `num_alloc_retries` and `num_ooms`."""
    settle()
    before = (stat("num_alloc_retries"), stat("num_ooms"))
    with pytest.raises(torch.OutOfMemoryError):
        uint8s(16 * TiB)
    change = (stat("num_alloc_retries") - before[0], stat("num_ooms") - before[1])
    assert change == (1, 1)  # one retry after emptying the cache, then the error
