"""What PyTorch's operators do with the GIL, seen by the same spinning helper.

The harness is the one of `test_02`: a helper thread counts whenever it holds the GIL, and the
main thread makes the calls in turn from one loop in C, reading the counter before each, until
a reading has moved. Only a call that released the GIL can let the counter move.
"""

import contextlib
import gc
import sys
import threading
import time
from collections import deque
from functools import partial
from itertools import count, cycle, islice, pairwise, repeat, starmap, takewhile
from operator import eq, itemgetter, methodcaller

import pytest

torch = pytest.importorskip("torch", reason="this koan needs PyTorch (pip install torch)")

pytestmark = pytest.mark.skipif(
    not getattr(sys, "_is_gil_enabled", lambda: True)(),
    reason="this interpreter runs without a GIL (the free-threaded build): the helper thread "
    "runs in parallel whatever the main thread calls",
)


def _spin(box, stop):
    while not stop.is_set():
        box[0] += 1


@contextlib.contextmanager
def spinning_thread():
    """A thread that counts in box[0] whenever it holds the GIL; stopped and joined on exit."""
    box = [0]
    stop = threading.Event()
    thread = threading.Thread(target=_spin, args=(box, stop), daemon=True)
    thread.start()
    try:
        for _ in range(10_000):  # until it has run at least once
            if box[0]:
                break
            time.sleep(0.001)
        yield box
    finally:
        stop.set()
        thread.join(timeout=10)


def first_to_let_go(*labelled_calls, limit=200_000):
    """Make the calls in turn, over and over, from one loop in C, reading the helper's counter
    before each; return the label of the call during which the counter first moved (None if
    it never did in `limit` calls)."""
    labels = [label for label, _ in labelled_calls]
    calls = [call for _, call in labelled_calls]
    for call in calls:
        call()  # a first call may import or set something up in Python: not counted
    collecting = gc.isenabled()
    gc.disable()  # a collection could run Python finalizers between two calls
    try:
        with spinning_thread() as box:
            readings = map(itemgetter(0), repeat(box))
            unmoved = takewhile(bool, starmap(eq, pairwise(readings)))
            made = map(methodcaller("__call__"), islice(cycle(calls), limit))
            made = map(type, made)  # drop each result at once: freeing it is part of its call
            last = deque(zip(unmoved, count(), made), maxlen=1)
    finally:
        if collecting:
            gc.enable()
    index = last[0][1]
    return None if index == limit - 1 else labels[index % len(labels)]


def test_what_a_torch_operator_does_with_the_gil():
    """Each of PyTorch's Python operators is a thin binding that calls into ATen, its C++
    library; the bindings are generated, and each one drops the GIL (pybind11's
    `gil_scoped_release`, the C++ form of `Py_BEGIN_ALLOW_THREADS`) before it dispatches.
    `Tensor.tolist()` works the other way round: it builds a Python float for every element,
    and Python objects need the GIL. Both calls touch the same 65,536 numbers."""
    a = torch.rand(256, 256)
    b = torch.rand(256, 256)
    first = first_to_let_go(
        ("Tensor.tolist", a.tolist),
        ("torch.mm", partial(torch.mm, a, b)),
    )
    assert first == "torch.mm"
