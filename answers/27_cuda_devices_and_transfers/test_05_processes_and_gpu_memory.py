"""Processes and GPU memory: each process has its own, and CUDA IPC can share it.

Every process that uses the GPU gets its own CUDA context and its own caching allocator, which
reserves its own segments of the GPU's memory and counts only its own tensors. To hand a GPU
tensor to another process without copying it, `torch.multiprocessing` sends a CUDA IPC
handle: the receiver maps the sender's memory into its own context, and both see the same
bytes. CUDA cannot be used in a forked child once the parent has started it, so the receiver
is started with the 'spawn' method. The experiment runs in a fresh Python from a script file
(a spawned child must import the function it runs) and reports as JSON on its last line.
"""

import functools
import json
import pathlib
import subprocess
import sys
import tempfile

import pytest

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.cuda, pytest.mark.slow]

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows that "
        "each process counts its own GPU memory, and that CUDA IPC shares a tensor without a copy",
        allow_module_level=True,
    )

EXPERIMENT = """
import json
import torch
import torch.multiprocessing as mp

MiB = 1 << 20


def receiver(inbox, outbox):
    shared = inbox.get()  # a CUDA tensor: its memory is the sender's, mapped through CUDA IPC
    shared[0] = 42.0
    before = torch.cuda.memory_allocated()
    own = torch.empty(64 * MiB, dtype=torch.uint8, device="cuda")
    grown = torch.cuda.memory_allocated() - before
    torch.cuda.synchronize()
    outbox.put({"receiver_allocated": grown})
    del shared, own


if __name__ == "__main__":
    context = mp.get_context("spawn")
    inbox, outbox = context.Queue(), context.Queue()
    x = torch.zeros(4, device="cuda")
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    child = context.Process(target=receiver, args=(inbox, outbox))
    child.start()
    inbox.put(x)
    report = outbox.get(timeout=120)
    report["sender_allocated"] = torch.cuda.memory_allocated() - before
    report["sender_reads"] = x[0].item()
    child.join(timeout=120)
    print(json.dumps(report), flush=True)
"""


@functools.cache
def experiment():
    """Run the experiment once per test process and return its report."""
    with tempfile.TemporaryDirectory() as folder:
        script = pathlib.Path(folder) / "ipc_experiment.py"
        script.write_text(EXPERIMENT, encoding="utf-8")
        proc = subprocess.run(
            [sys.executable, "-W", "ignore", str(script)],
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise RuntimeError(
            f"the experiment failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
        )
    return json.loads(lines[-1])


def test_a_cuda_tensor_sent_to_another_process_is_shared_not_copied():
    """Sending a CUDA tensor through a `torch.multiprocessing` queue does not copy its bytes:
    the receiver gets a tensor that points into the sender's memory. The receiver writes into
    the first element of the four zeros it was sent and synchronises; then the sender reads
    the element back."""
    assert experiment()["sender_reads"] == 42.0  # the same device memory, seen from two processes


def test_each_process_counts_only_its_own_allocations():
    """Each process has its own caching allocator, with its own segments and its own counters;
    only the GPU's memory as a whole is shared. The receiver makes a 64 MiB tensor of its own.
    By how much did `memory_allocated()` grow in the receiver, and by how much in the sender,
    over the same span?"""
    report = experiment()
    assert (report["receiver_allocated"], report["sender_allocated"]) == (67108864, 0)  # the sender's allocator never heard of it
