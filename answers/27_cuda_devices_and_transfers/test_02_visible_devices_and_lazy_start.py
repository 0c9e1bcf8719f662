"""CUDA_VISIBLE_DEVICES, and when torch actually starts CUDA.

The driver reads CUDA_VISIBLE_DEVICES once, when CUDA starts in a process, and this test
process may have started CUDA long ago. So each koan here runs a fresh Python in a subprocess
(`sys.executable -c ...`) with its own environment and reads back what that child saw, printed
on its last line.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.cuda, pytest.mark.slow]

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "when torch starts CUDA, and that CUDA_VISIBLE_DEVICES counts only before that",
        allow_module_level=True,
    )


def child_python(code, **env):
    """Run `code` in a fresh Python whose environment is this one plus `env`; return the last
    line the child printed."""
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", textwrap.dedent(code)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise RuntimeError(
            f"the child Python failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
        )
    return lines[-1]


def test_cuda_starts_lazily_at_the_first_real_use():
    """`import torch` does not set up torch's CUDA state, and neither do `is_available()` or
    `device_count()`: they only ask the driver, or NVML, how many GPUs there are. Torch sets up
    its CUDA state (context, streams, allocator) on first real use, such as making a tensor on
    the device. The child records `torch.cuda.is_initialized()` after each step."""
    seen = child_python(
        """
        import json, torch
        steps = [torch.cuda.is_initialized()]
        torch.cuda.is_available()
        steps.append(torch.cuda.is_initialized())
        torch.cuda.device_count()
        steps.append(torch.cuda.is_initialized())
        torch.ones(1, device="cuda")
        steps.append(torch.cuda.is_initialized())
        print(json.dumps(steps))
        """
    )
    assert tuple(json.loads(seen)) == (False, False, False, True)  # only the tensor needed torch's CUDA state


def test_the_driver_reads_the_visible_list_when_cuda_starts():
    """The driver reads CUDA_VISIBLE_DEVICES when it starts, not when Python starts, and
    `import torch` does not start it. The child empties the list after `import torch` and then
    prints `torch.cuda.is_available()` and `torch.cuda.device_count()` on one line."""
    seen = child_python(
        """
        import os, torch
        os.environ["CUDA_VISIBLE_DEVICES"] = ""
        print(torch.cuda.is_available(), torch.cuda.device_count())
        """
    )
    assert seen == "False 0"  # still in time: nothing had started the driver


def test_hiding_gpus_after_cuda_has_started_changes_nothing():
    """Once CUDA has started, the process keeps the device list it was given; a later change to
    `os.environ` is just a string in a dictionary. The child prints where a new tensor lands,
    or the name of the exception if it cannot make one."""
    seen = child_python(
        """
        import os, torch
        torch.ones(1, device="cuda")
        os.environ["CUDA_VISIBLE_DEVICES"] = ""
        try:
            where = str(torch.ones(1, device="cuda").device)
        except Exception as error:
            where = type(error).__name__
        print(where)
        """
    )
    assert seen == "cuda:0"  # the driver never reads the variable again
