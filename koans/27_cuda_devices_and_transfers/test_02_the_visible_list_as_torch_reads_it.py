"""CUDA_VISIBLE_DEVICES read by the rules, and a process that can see no GPU: no GPU needed.

The driver reads CUDA_VISIBLE_DEVICES when CUDA starts in a process. Torch keeps a copy of the
driver's reading rules in Python, `torch.cuda._parse_visible_devices()` (a private helper: it
lets torch count GPUs through NVML without starting CUDA). It reads the variable from the
environment and returns the physical GPU numbers it lists, in the order the process will
number them. It only reads the text: whether a GPU of each number exists is checked afterwards,
and the first number with no GPU behind it ends the list there too. The last two koans run a
fresh Python with `CUDA_VISIBLE_DEVICES=""` and read back what that child printed; on any
machine, with or without a GPU, it sees none.
"""

import functools
import json
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")


def visible_with(monkeypatch, value):
    """What torch's copy of the driver's rules makes of CUDA_VISIBLE_DEVICES=value."""
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", value)
    return torch.cuda._parse_visible_devices()


NO_GPU_VISIBLE = """
import json, torch
print(torch.cuda.is_available(), torch.cuda.device_count())
steps = {
    "torch.device": lambda: torch.device("cuda"),
    "manual_seed": lambda: torch.cuda.manual_seed(0),
    "is_available": torch.cuda.is_available,
    "device_count": torch.cuda.device_count,
    "pin_memory": lambda: torch.ones(2).pin_memory(),
    "cuda tensor": lambda: torch.ones(2, device="cuda"),
}
refused = []
for name, step in steps.items():
    try:
        step()
    except Exception:
        refused.append(name)
print(json.dumps(refused))
"""


@functools.cache
def no_gpu_visible():
    """Run NO_GPU_VISIBLE in a fresh Python that sees no GPU; return its lines of output."""
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", NO_GPU_VISIBLE],
        env={**os.environ, "CUDA_VISIBLE_DEVICES": ""},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or len(lines) < 2:
        raise RuntimeError(
            f"the child Python failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
        )
    return lines


def test_visible_gpus_are_renumbered_in_list_order(monkeypatch):
    """A process numbers only the GPUs it can see, in the order they are listed: the first
    entry becomes `cuda:0`, the next `cuda:1`, and the physical number is not kept. (One GPU
    cannot show this to the driver, so the koan asks torch's copy of the rule.) With
    CUDA_VISIBLE_DEVICES=5,3, which physical GPU does a tensor on `cuda:1` live on?"""
    visible = visible_with(monkeypatch, "5,3")
    assert visible[1] == __


def test_the_visible_list_ends_at_the_first_invalid_entry(monkeypatch):
    """The list is read left to right and stops at the first entry that names no GPU; `-1` is
    the customary way to end it. Entries after the stop are ignored, valid or not."""
    assert visible_with(monkeypatch, "2,0,-1,1") == __


@pytest.mark.slow
def test_an_empty_visible_list_hides_every_gpu():
    """CUDA_VISIBLE_DEVICES lists the GPUs a process may use. Set to the empty string it lists
    none: the driver enumerates nothing, so torch finds no device, however many are plugged in.
    The child prints `torch.cuda.is_available()` and `torch.cuda.device_count()` on one line.
    (On a machine without a GPU, or with a torch built without CUDA, it prints the same for a
    duller reason.)"""
    assert no_gpu_visible()[0] == __


@pytest.mark.slow
def test_torch_reaches_for_the_gpu_only_when_the_work_needs_one():
    """Importing torch, naming a CUDA device or asking how many GPUs there are needs no GPU.
    Seeding the GPU's random generator before CUDA starts is only queued, to be replayed when
    it starts. Torch starts CUDA, and finds out that there is nothing to start, only when some
    work needs the driver itself. Which steps did the child, which sees no GPU, have refused?"""
    assert json.loads(no_gpu_visible()[1]) == __
