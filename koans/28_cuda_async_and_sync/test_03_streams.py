"""Streams: the GPU's queues, one by default, more on request.

Work on one stream runs in order; work on different streams is unordered and may overlap,
unless you order it with events or `wait_stream`. The koans keep streams busy with products of
8192 x 8192 matrices (after a warm-up product). Some watch the queues from the host with
`query()`, which never waits; others read the GPU's own clock: events made with
`enable_timing=True` record when the GPU reached them, and `finishing_order` sorts named events
by those times once everything has run.
"""

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "the default stream, side streams, how wait_stream orders them and what overlaps",
        allow_module_level=True,
    )

SIDE = 8192
MiB = 1 << 20


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


def timed_event(stream=None):
    """An event that records the GPU's time, recorded now on `stream` (default: the current one)."""
    event = torch.cuda.Event(enable_timing=True)
    event.record(stream)
    return event


def finishing_order(origin, events):
    """The names of `events`, ordered by when the GPU reached them (waits for all of them)."""
    torch.cuda.synchronize()
    return sorted(events, key=lambda name: origin.elapsed_time(events[name]))


def test_the_default_stream_is_the_legacy_null_stream():
    """Torch's default stream is not created: it is CUDA's legacy default stream, which the
    runtime API addresses with a null stream handle. A stream prints as
    `<torch.cuda.Stream device=D cuda_stream=H>`, its device and its handle written in
    hexadecimal."""
    assert repr(torch.cuda.default_stream()) == __


def test_a_stream_context_switches_the_current_stream_only_inside_the_block():
    """Each thread's current stream starts as the device's default stream. `with
    torch.cuda.stream(s):` makes `s` current, so kernels launched in the block go to `s`, and
    restores the previous stream on the way out. Streams compare equal when they are the same
    CUDA stream: how many different streams were current before, inside and after the block?"""
    side = torch.cuda.Stream()
    before = torch.cuda.current_stream()
    with torch.cuda.stream(side):
        inside = torch.cuda.current_stream()
    after = torch.cuda.current_stream()
    assert len({before, inside, after}) == __


def test_new_stream_objects_come_from_a_fixed_pool():
    """Creating CUDA streams is slow, so the first time one is asked for, torch creates a pool
    of 32 streams per device and priority (kStreamsPerPool), and `torch.cuda.Stream()` deals
    them out round-robin, each object standing for the next stream of the pool. A hundred
    stream objects are made: how many of them stand for the same CUDA stream as the first?"""
    handles = [torch.cuda.Stream().cuda_stream for _ in range(100)]
    assert handles.count(handles[0]) == __


def test_a_side_stream_is_a_separate_queue():
    """Work on different streams is not ordered. Ten products are queued on a side stream,
    with an event behind them; then an event is recorded on the default stream, which has
    nothing else queued. In which order did the GPU reach the two events?"""
    a, out = warm_matrices()
    origin = timed_event()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())  # the side stream starts after `origin`
    with torch.cuda.stream(side):
        queue_products(a, out, 10)
        behind_products = timed_event()
    on_default = timed_event()
    order = finishing_order(origin, {"side": behind_products, "default": on_default})
    assert order == __


def test_wait_stream_only_queues_a_wait():
    """`a.wait_stream(b)` queues a wait on stream `a`: work queued on `a` from now on starts
    only after the work `b` holds at this moment. The host itself does not wait, and `b` does
    not hurry. A side stream gets three products as a head start and then ten more, each with a
    marker behind it; right after `wait_stream` returns, how many of those ten markers has the
    GPU not reached yet?"""
    a, out = warm_matrices()
    side = torch.cuda.Stream()
    markers = []
    with torch.cuda.stream(side):
        queue_products(a, out, 3)
        for _ in range(10):
            queue_products(a, out, 1)
            markers.append(timed_event())
    torch.cuda.current_stream().wait_stream(side)
    pending = sum(not marker.query() for marker in markers)
    torch.cuda.synchronize()
    assert pending == __


def test_wait_stream_orders_later_work_behind_the_other_stream():
    """After `wait_stream`, work queued on the waiting stream starts only when the other
    stream's work at that moment is done. Ten products go on a side stream with an event
    behind them; the default stream waits for the side stream, runs one product of its own and
    records an event. In which order did the GPU reach the two events?"""
    a, out = warm_matrices()
    own_out = torch.empty_like(out)
    origin = timed_event()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())  # the side stream starts after `origin`
    with torch.cuda.stream(side):
        queue_products(a, out, 10)
        behind_products = timed_event()
    torch.cuda.current_stream().wait_stream(side)
    queue_products(a, own_out, 1)
    on_default = timed_event()
    order = finishing_order(origin, {"default": on_default, "side": behind_products})
    assert order == __


def test_a_copy_on_a_side_stream_overlaps_a_kernel():
    """A GPU has copy engines that move data over the bus while its cores compute, so a copy
    from pinned memory queued on a side stream need not wait for kernels on another stream.
    Ten products are queued on the default stream, then a 64 MiB copy to the GPU on a side
    stream. Which finished first?"""
    a, out = warm_matrices()
    host = torch.empty(64 * MiB, dtype=torch.uint8).pin_memory()
    target = torch.empty(64 * MiB, dtype=torch.uint8, device="cuda")
    origin = timed_event()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())  # the side stream starts after `origin`
    queue_products(a, out, 10)
    products_done = timed_event()
    with torch.cuda.stream(side):
        target.copy_(host, non_blocking=True)
        copy_done = timed_event()
    order = finishing_order(origin, {"products": products_done, "copy": copy_done})
    assert order == __
