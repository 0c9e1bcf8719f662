"""CUDA_VISIBLE_DEVICES, and when torch actually starts CUDA.

The driver reads CUDA_VISIBLE_DEVICES once, when CUDA starts in a process, and this test
process may have started CUDA long ago. So each koan here runs a fresh Python in a subprocess
(`sys.executable -c ...`) with its own environment and reads back what that child saw, printed
as JSON on its last line.
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
        "that CUDA_VISIBLE_DEVICES hides and renumbers GPUs, and only before CUDA starts",
        allow_module_level=True,
    )


def child_python(code, **env):
    """Run `code` in a fresh Python whose environment is this one plus `env`; return the JSON
    value printed on the child's last line of output."""
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
    return json.loads(lines[-1])


def visible_gpu(position):
    """How to name this machine's GPU number `position` in CUDA_VISIBLE_DEVICES: by the entry of
    an inherited list, if this process was given one, else by its number."""
    inherited = [entry.strip() for entry in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",")]
    inherited = [entry for entry in inherited if entry]
    return inherited[position] if position < len(inherited) else str(position)


COUNT_DEVICES = """
    import json, torch
    print(json.dumps([torch.cuda.is_available(), torch.cuda.device_count()]))
"""


def test_an_empty_visible_list_hides_every_gpu():
    """CUDA_VISIBLE_DEVICES lists the GPUs a process may use. Set to the empty string it lists
    none: the driver enumerates nothing, so torch finds no device, however many are plugged in.
    The child reports `is_available()` and `device_count()`."""
    seen = child_python(COUNT_DEVICES, CUDA_VISIBLE_DEVICES="")
    assert tuple(seen) == __


def test_the_visible_list_ends_at_the_first_invalid_entry():
    """The list is read left to right and stops at the first entry that names no GPU; `-1` is
    the customary way to end it. Entries after the stop are ignored, valid or not. Here a valid
    GPU comes right after the stop."""
    seen = child_python(COUNT_DEVICES, CUDA_VISIBLE_DEVICES=f"-1,{visible_gpu(0)}")
    assert seen[1] == __


def test_visible_gpus_are_renumbered_in_list_order():
    """A process numbers only the GPUs it can see, in the order they are listed; the physical
    slot number is not kept. The child lists the UUID of each of its devices, and we look for
    the UUID of this process's second GPU among them."""
    if torch.cuda.device_count() < 2:
        pytest.skip(
            "needs two GPUs: a child started with CUDA_VISIBLE_DEVICES naming only the second "
            "GPU sees that GPU as its device number 0 (matched here by UUID)"
        )
    wanted = str(torch.cuda.get_device_properties(1).uuid)
    seen = child_python(
        """
        import json, torch
        count = torch.cuda.device_count()
        print(json.dumps([str(torch.cuda.get_device_properties(i).uuid) for i in range(count)]))
        """,
        CUDA_VISIBLE_DEVICES=visible_gpu(1),
    )
    assert seen.index(wanted) == __


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
    assert tuple(seen) == __


def test_the_driver_reads_the_visible_list_when_cuda_starts():
    """The driver reads CUDA_VISIBLE_DEVICES when it starts, not when Python starts. Changing
    `os.environ` after `import torch` is still in time, as long as no CUDA call came first."""
    seen = child_python(
        """
        import json, os, torch
        os.environ["CUDA_VISIBLE_DEVICES"] = ""
        print(json.dumps(torch.cuda.is_available()))
        """
    )
    assert seen == __


def test_hiding_gpus_after_cuda_has_started_changes_nothing():
    """Once CUDA has started, the process keeps the device list it was given; a later change to
    `os.environ` is just a string in a dictionary. The child prints where a new tensor lands,
    or the name of the exception if it cannot make one."""
    seen = child_python(
        """
        import json, os, torch
        torch.ones(1, device="cuda")
        os.environ["CUDA_VISIBLE_DEVICES"] = ""
        try:
            where = str(torch.ones(1, device="cuda").device)
        except Exception as error:
            where = type(error).__name__
        print(json.dumps(where))
        """
    )
    assert seen == __
