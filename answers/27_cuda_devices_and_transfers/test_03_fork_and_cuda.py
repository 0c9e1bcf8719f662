"""Forked children and CUDA: why data loaders spawn, or keep the GPU out of their workers.

`os.fork()` copies the parent's memory into the child, but a CUDA context belongs to the
process that created it and is not copied with the memory. A fresh Python in a subprocess does
the experiment below: it forks children before and after starting CUDA itself, and reports, as
JSON, what each child saw (a value, or the exception's name and message).
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
        "that a child forked after CUDA started cannot use the GPU, and what still works there",
        allow_module_level=True,
    )

if not hasattr(os, "fork"):
    pytest.skip(
        "needs os.fork (POSIX): the lesson is about forked children", allow_module_level=True
    )

EXPERIMENT = """
import json, os, torch

def in_forked_child(work):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            result = work()
        except Exception as error:
            result = [type(error).__name__, str(error)]
        os.write(write_end, json.dumps(result).encode())
        os._exit(0)
    os.close(write_end)
    chunks = []
    while True:
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    os.waitpid(pid, 0)
    return json.loads(b"".join(chunks))

report = {}
report["forked_before_start"] = in_forked_child(lambda: str(torch.ones(1, device="cuda").device))
torch.ones(1, device="cuda")  # from here on, the parent has started CUDA
report["child_initialized"] = in_forked_child(
    lambda: [torch.cuda._initialized, torch.cuda._is_in_bad_fork(), torch.cuda.is_initialized()]
)
report["child_uses_cuda"] = in_forked_child(lambda: str(torch.ones(1, device="cuda").device))
report["child_host_work"] = in_forked_child(lambda: torch.arange(4.0).sum().item())
print(json.dumps(report))
"""


@functools.cache
def experiment():
    """Run the experiment once per test process and return its report."""
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", EXPERIMENT],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise RuntimeError(
            f"the experiment failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
        )
    return json.loads(lines[-1])


def test_a_child_forked_before_cuda_starts_can_use_the_gpu():
    """If the parent has made no CUDA call yet, there is no context to inherit: the child starts
    CUDA for itself, like any fresh process. Forking early is safe; it is forking late that is
    not."""
    assert experiment()["forked_before_start"] == "cuda:0"  # the child started CUDA on its own


def test_a_forked_child_inherits_the_flag_but_not_the_context():
    """The child inherits the parent's memory, including torch's flag that says CUDA is up
    (`torch.cuda._initialized`), but not the context the flag describes. A fork handler that
    torch registers at its first CUDA call marks every child forked afterwards as 'in a bad
    fork' (`torch.cuda._is_in_bad_fork()`), and `torch.cuda.is_initialized()` checks that mark
    as well as the inherited flag. The child reports the three, in that order."""
    assert tuple(experiment()["child_initialized"]) == (True, True, False)  # the bad-fork mark overrides the copied flag


def test_a_child_forked_after_cuda_started_cannot_start_it_again():
    """In such a child, the first CUDA call finds the bad-fork mark and refuses at once, rather
    than hang or corrupt the parent's context. This is why `multiprocessing` with CUDA needs the
    'spawn' start method: a spawned child is a fresh interpreter with nothing inherited."""
    kind, message = experiment()["child_uses_cuda"]
    assert "forked subprocess" in message
    assert kind == "RuntimeError"  # raised by torch.cuda._lazy_init


def test_a_child_forked_after_cuda_started_can_still_work_on_the_host():
    """The mark guards CUDA only. A DataLoader worker forked from a process that already uses
    the GPU is fine as long as it loads and transforms data on the host and leaves the copy to
    the GPU to the parent. The child sums `torch.arange(4.0)` on the host."""
    assert experiment()["child_host_work"] == 6.0  # 0 + 1 + 2 + 3, computed in the child
