"""While one thread waits for the GPU, another Python thread may run.

`torch.cuda.synchronize()` waits in C++ for the GPU, and torch lets go of the GIL around that
wait: the Python thread is then an observer, not an interpreter, and the interpreter is free
for any other thread. The koan makes the order visible. The switch interval is set so long
that the main thread never hands the GIL over on a timer: a helper thread can run only when
the main thread lets go of the GIL by itself.
"""

import sys
import threading

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "that Python threads run while torch.cuda.synchronize() waits for the GPU",
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


def test_other_threads_may_run_while_synchronize_waits():
    """The main thread queues ten big products, wakes a helper thread and calls
    `synchronize()`; the helper only writes its name into a list. Which name comes first?"""
    a, out = warm_matrices()
    events = []
    go = threading.Event()

    def helper():
        go.wait()
        events.append("helper")

    thread = threading.Thread(target=helper)
    thread.start()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)  # no hand-over on a timer
    try:
        for _ in range(10):
            torch.mm(a, a, out=out)
        go.set()
        torch.cuda.synchronize()
        events.append("synchronize returned")
    finally:
        sys.setswitchinterval(interval)
        thread.join()
    assert events == ["helper", "synchronize returned"]  # the helper ran while the GPU worked
