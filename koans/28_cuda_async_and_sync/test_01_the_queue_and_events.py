"""Kernel launches are queued; events are markers in the queue.

A CUDA call from Python appends a command to a stream (a queue on the GPU) and returns. The
GPU works through the queue on its own time. The koans below keep the GPU busy with ten
products of 8192 x 8192 matrices, written into a preallocated output so that nothing is
allocated while they are queued, and first pay the one-off cuBLAS start-up with a warm-up
product.
"""

import time

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


def queue_products(a, out, count=10):
    """Queue `count` matrix products on the current stream; returns as soon as they are queued."""
    for _ in range(count):
        torch.mm(a, a, out=out)


def test_a_launch_only_appends_a_command_to_the_queue():
    """A launch only appends a command to the queue: ten big products take the host a fraction
    of a millisecond to queue and the GPU many milliseconds to run. Timing GPU work without a
    `synchronize()` before reading the clock measures the queueing, not the work."""
    a, out = warm_matrices()
    start = time.perf_counter()
    queue_products(a, out)
    queued = time.perf_counter()
    torch.cuda.synchronize()
    finished = time.perf_counter()
    waiting, queueing = finished - queued, queued - start
    assert (waiting > 10 * queueing) == __


def test_an_event_is_a_marker_queued_behind_earlier_work():
    """A `torch.cuda.Event` is a marker: `record()` queues it behind whatever the stream already
    holds, and `query()` asks, without waiting, whether the GPU has got that far."""
    a, out = warm_matrices()
    queue_products(a, out)
    marker = torch.cuda.Event()
    marker.record()
    reached = marker.query()
    torch.cuda.synchronize()
    assert reached == __


def test_synchronize_drains_every_queue_on_the_device():
    """`torch.cuda.synchronize()` blocks the host until every stream on the device has drained,
    markers included."""
    a, out = warm_matrices()
    queue_products(a, out)
    marker = torch.cuda.Event()
    marker.record()
    torch.cuda.synchronize()
    assert marker.query() == __


def test_event_synchronize_waits_only_up_to_its_own_marker():
    """`event.synchronize()` blocks the host until the GPU reaches that marker, and no longer.
    Work queued behind the marker may still be running when it returns. The test reads whether
    the marker was reached and whether the whole stream is idle."""
    a, out = warm_matrices()
    queue_products(a, out)
    marker = torch.cuda.Event()
    marker.record()
    queue_products(a, out)
    marker.synchronize()
    seen = (marker.query(), torch.cuda.current_stream().query())
    torch.cuda.synchronize()
    assert seen == __


def test_an_event_gets_its_cuda_handle_only_when_first_recorded():
    """Making a `torch.cuda.Event` object costs nothing on the GPU: the CUDA event behind it is
    created lazily, on the first `record()`. Until then the handle it wraps is a null pointer,
    and `cuda_event` shows the handle as an integer."""
    marker = torch.cuda.Event()
    assert marker.cuda_event == __


def test_an_unrecorded_event_has_captured_no_work():
    """`query()` asks whether all the work the event captured is done. An event that was never
    recorded captured no work at all."""
    assert torch.cuda.Event().query() == __
