"""Kernel errors surface later, at a call that waits; CUDA_LAUNCH_BLOCKING=1 makes them prompt.

A device-side assert (here: an out-of-range index, caught by the kernel on the GPU) leaves the
process's CUDA context unusable, so each experiment runs in a fresh Python in a subprocess and
reports, as JSON, which call raised, the exception's class and first line, and what happened
to a fresh, correct operation afterwards. Twenty warm matrix products are queued in front of
the faulty kernel, so that it runs well after its launch has returned.
"""

import functools
import json
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.cuda, pytest.mark.slow]

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "that a kernel error is reported at a later call, and CUDA_LAUNCH_BLOCKING=1",
        allow_module_level=True,
    )

EXPERIMENT = """
import json, os, torch

source = torch.arange(4.0, device="cuda")
out_of_range = torch.tensor([7], device="cuda")
a = torch.randn(4096, 4096, device="cuda")
out = torch.empty_like(a)
torch.mm(a, a, out=out)
torch.cuda.synchronize()

report = {"raised_in": "nowhere"}
step = "the products"
try:
    for _ in range(20):
        torch.mm(a, a, out=out)
    step = "index_select"
    picked = torch.index_select(source, 0, out_of_range)
    step = "synchronize"
    torch.cuda.synchronize()
except RuntimeError as error:
    report["raised_in"] = step
    report["error"] = type(error).__name__
    report["message"] = str(error).strip().splitlines()[0]
try:
    torch.ones(1, device="cuda").add_(1)
    torch.cuda.synchronize()
    report["fresh_operation"] = "ok"
except RuntimeError as error:
    report["fresh_operation"] = type(error).__name__
print(json.dumps(report), flush=True)
os._exit(0)
"""


@functools.cache
def experiment(launch_blocking):
    """Run the experiment in a fresh Python, with or without CUDA_LAUNCH_BLOCKING=1."""
    env = {**os.environ, "CUDA_LAUNCH_BLOCKING": "1" if launch_blocking else "0"}
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", EXPERIMENT],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = proc.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(
            f"the experiment failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
        )
    return json.loads(lines[-1])


def test_a_kernel_error_surfaces_at_a_later_call_that_waits():
    """The index is checked by the kernel, on the GPU, long after the launch has returned, so
    the call that launched it cannot report it. The host hears of the failure at a later call,
    here the next one that waits for the GPU, and the traceback points there instead of at the
    bug."""
    report = experiment(launch_blocking=False)
    assert report["raised_in"] == "synchronize"  # the first call that waited


def test_cuda_launch_blocking_reports_the_error_at_the_guilty_call():
    """`CUDA_LAUNCH_BLOCKING=1` makes every launch wait until its kernel has finished, so each
    call reports its own kernel's failure. Everything runs slower, but the traceback points at
    the bug."""
    report = experiment(launch_blocking=True)
    assert report["raised_in"] == "index_select"  # the launch waited for its kernel


def test_cuda_errors_arrive_as_a_subclass_of_the_usual_runtime_error():
    """Errors reported by the CUDA runtime get an exception class of their own, shared with
    torch's other GPU backends, so that `except` can tell them from torch's ordinary argument
    checks."""
    report = experiment(launch_blocking=False)
    assert "device-side assert" in report["message"]
    assert issubclass(getattr(torch, report["error"]), RuntimeError)
    assert report["error"] == "AcceleratorError"  # torch 2.8 and later


def test_a_device_side_assert_breaks_cuda_for_the_rest_of_the_process():
    """A failed device-side assert leaves the CUDA context unusable: every later CUDA call in
    the process reports the same error, even a fresh and correct one. Only a new process
    recovers, which is why these experiments run in subprocesses. The report says what the
    fresh operation raised, or "ok"."""
    report = experiment(launch_blocking=False)
    assert report["fresh_operation"] == "AcceleratorError"  # the error is sticky
