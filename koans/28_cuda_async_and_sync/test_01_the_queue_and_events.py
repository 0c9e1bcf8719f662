"""Kernel launches are queued; events are markers in the queue.

A CUDA call from Python appends a command to a stream (a queue on the GPU) and returns. The
GPU works through the queue on its own time. The koans below keep the GPU busy with products
of 8192 x 8192 matrices (each takes the GPU many milliseconds), written into a preallocated
output so that nothing is allocated while they are queued, and first pay the one-off cuBLAS
start-up with a warm-up product. `marked_products` puts a marker event behind each group of
products; `reached` asks each marker, without waiting, whether the GPU has got that far.
"""

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "that launching GPU work returns at once, and how events mark progress in the queue",
        allow_module_level=True,
    )

SIDE = 8192


def warm_matrices():
    """A SIDE x SIDE float32 matrix and an output buffer, after one warm-up product."""
    a = torch.randn(SIDE, SIDE, device="cuda")
    out = torch.empty_like(a)
    torch.mm(a, a, out=out)
    torch.cuda.synchronize()
    return a, out


def queue_products(a, out, count):
    """Queue `count` matrix products on the current stream; returns as soon as they are queued."""
    for _ in range(count):
        torch.mm(a, a, out=out)


def marked_products(a, out, groups, per_group=1):
    """Queue `groups` groups of `per_group` products on the current stream, each group followed
    by a marker event; return the markers."""
    markers = []
    for _ in range(groups):
        queue_products(a, out, per_group)
        marker = torch.cuda.Event()
        marker.record()
        markers.append(marker)
    return markers


def reached(markers):
    """How many of the markers the GPU has passed, asked without waiting."""
    return sum(marker.query() for marker in markers)


def test_a_launch_only_appends_a_command_to_the_queue():
    """A launch appends a command to the queue and returns; the GPU gets to it later. Three
    products give the GPU a head start, then ten more are queued, each with a marker behind it.
    The moment the last launch has returned, how many of the ten markers has the GPU not
    reached yet? (Timing GPU work without a `synchronize()` before reading the clock measures
    this queueing, not the work.)"""
    a, out = warm_matrices()
    queue_products(a, out, 3)
    markers = marked_products(a, out, groups=10)
    pending = len(markers) - reached(markers)
    torch.cuda.synchronize()
    assert pending == __


def test_event_synchronize_waits_only_up_to_its_own_marker():
    """`event.synchronize()` blocks the host until the GPU reaches that marker, and no longer.
    A stream runs in order, so the markers in front of it are reached too, and the work behind
    it may still be running when it returns. Four markers each stand behind three products;
    the host waits for the second marker, then counts the markers reached."""
    a, out = warm_matrices()
    markers = marked_products(a, out, groups=4, per_group=3)
    markers[1].synchronize()
    passed = reached(markers)
    torch.cuda.synchronize()
    assert passed == __


def test_synchronize_drains_every_queue_on_the_device():
    """`torch.cuda.synchronize()` blocks the host until every stream on the device has drained,
    not only the current one. Three markers go on the default stream and two on a side stream,
    each behind two products; after `synchronize()`, how many are reached?"""
    a, out = warm_matrices()
    side_out = torch.empty_like(out)
    markers = marked_products(a, out, groups=3, per_group=2)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        markers += marked_products(a, side_out, groups=2, per_group=2)
    torch.cuda.synchronize()
    assert reached(markers) == __


def test_an_event_gets_its_cuda_handle_only_when_first_recorded():
    """Making a `torch.cuda.Event` object costs nothing on the GPU: the CUDA event behind it is
    created lazily, on the first `record()`. Until then the handle it wraps is a null pointer,
    which `cuda_event` shows as the integer zero. Three event objects, two of them recorded:
    how many have a CUDA event behind them?"""
    markers = [torch.cuda.Event() for _ in range(3)]
    markers[0].record()
    markers[2].record()
    with_handle = sum(marker.cuda_event != 0 for marker in markers)
    torch.cuda.synchronize()
    assert with_handle == __


def test_an_unrecorded_event_has_captured_no_work():
    """`query()` asks whether all the work the event captured is done. An event that was never
    recorded captured no work at all."""
    assert torch.cuda.Event().query() == __
