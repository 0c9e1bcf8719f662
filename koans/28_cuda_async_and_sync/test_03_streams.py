"""Streams: the GPU's queues, one by default, more on request.

Work on one stream runs in order; work on different streams is unordered and may overlap,
unless you order it with events or `wait_stream`. The koans keep a side stream busy with ten
products of 8192 x 8192 matrices (after a warm-up product) and watch the queues with
`query()`, which never waits.
"""

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "the default stream, side streams and how wait_stream orders them",
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


def busy_side_stream():
    """A side stream with ten big products queued on it, and the tensors they use (which must
    stay alive until the side stream has finished with them)."""
    a, out = warm_matrices()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        for _ in range(10):
            torch.mm(a, a, out=out)
    return side, (a, out)


def test_work_goes_to_the_default_stream_unless_told_otherwise():
    """Each device has one default stream, and every thread's current stream starts as that
    one. Kernels launched outside a stream context are queued there, one after another."""
    current, default = torch.cuda.current_stream(), torch.cuda.default_stream()
    assert (current == default) == __


def test_the_default_stream_is_the_legacy_null_stream():
    """Torch's default stream is not created: it is CUDA's legacy default stream, which the
    runtime API addresses with a null stream handle. `cuda_stream` shows the handle as an
    integer."""
    assert torch.cuda.default_stream().cuda_stream == __


def test_a_stream_context_switches_the_current_stream_only_inside_the_block():
    """`with torch.cuda.stream(s):` makes `s` the current stream, so kernels launched in the
    block go to `s`, and restores the previous stream on the way out. The test compares the
    current stream with `s` inside the block and after it."""
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        inside = torch.cuda.current_stream()
    after = torch.cuda.current_stream()
    assert (inside == side, after == side) == __


def test_new_stream_objects_come_from_a_fixed_pool():
    """Creating CUDA streams is slow, so torch creates a fixed pool of them per device and
    priority the first time one is asked for, and `torch.cuda.Stream()` deals them out
    round-robin. Ask for more stream objects than the pool holds and the handles repeat."""
    handles = [torch.cuda.Stream().cuda_stream for _ in range(100)]
    assert len(set(handles)) == __


def test_a_side_stream_is_a_separate_queue():
    """Work on different streams is not ordered. The default stream has nothing queued, so an
    event recorded on it is reached at once, while the side stream is still working through
    its products. The test asks the side stream whether it is done."""
    side, _operands = busy_side_stream()
    marker = torch.cuda.Event()
    marker.record()  # on the default stream
    marker.synchronize()
    done = side.query()
    torch.cuda.synchronize()
    assert done == __


def test_wait_stream_only_queues_a_wait():
    """`a.wait_stream(b)` queues a wait on stream `a`: work queued on `a` from now on starts
    only after the work `b` holds at this moment. The host itself does not wait, and neither
    does `b`."""
    side, _operands = busy_side_stream()
    torch.cuda.current_stream().wait_stream(side)
    done = side.query()
    torch.cuda.synchronize()
    assert done == __


def test_wait_stream_orders_later_work_behind_the_other_stream():
    """After `wait_stream`, an event recorded on the default stream sits behind the wait, and
    the wait ends only when the side stream's products are done. So once the host has seen
    that event reached, the side stream has nothing left."""
    side, _operands = busy_side_stream()
    torch.cuda.current_stream().wait_stream(side)
    marker = torch.cuda.Event()
    marker.record()  # on the default stream, behind the wait
    marker.synchronize()
    assert side.query() == __
