"""The runner never asks CUDA anything in its warm server: torch.cuda.is_available() reaches
the driver and can leave every later fork unable to use CUDA. A koan child asks only where a
koan of its file is marked cuda."""

from __future__ import annotations

from pathlib import Path

FAKE_TORCH = '''import os

LOG = os.environ["FAKE_TORCH_LOG"]


def _asked(what):
    with open(LOG, "a") as handle:
        handle.write(f"{what} {os.getpid()}\\n")


class cuda:
    @staticmethod
    def is_available():
        _asked("is_available")
        return False

    @staticmethod
    def device_count():
        _asked("device_count")
        return 0


def tensor(values):
    return list(values)
'''

TORCH_KOAN = '''import pytest

torch = pytest.importorskip("torch")


def test_a_tensor_of_two():
    """A tensor of two values."""
    assert len(torch.tensor([1, 2])) == __
'''

CUDA_KOAN = '''import pytest

torch = pytest.importorskip("torch")


@pytest.mark.cuda
def test_on_the_gpu():
    """Needs a GPU."""
    assert torch.tensor([1]) == __
'''


def test_the_server_never_asks_cuda_and_a_child_asks_only_for_cuda_koans(course, tmp_path: Path) -> None:
    fake = tmp_path / "site" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(FAKE_TORCH)
    log = tmp_path / "asked.log"
    log.write_text("")
    for part, text in (("koans", TORCH_KOAN), ("answers", TORCH_KOAN.replace("== __", "== 2"))):
        path = course.path(f"{part}/00_torch/test_01_torch.py")
        path.parent.mkdir(parents=True)
        path.write_text(text)
    env = {"PYTHONPATH": str(tmp_path / "site"), "FAKE_TORCH_LOG": str(log)}
    result = course.run(**env)
    assert "fill in the blank on line 8" in result.stdout, result.stdout
    assert log.read_text() == ""  # neither the server (which imported torch) nor the child asked
    for part, text in (("koans", CUDA_KOAN), ("answers", CUDA_KOAN.replace("== __", "== [1]"))):
        course.path(f"{part}/00_torch/test_02_cuda.py").write_text(text)
    course.edit("koans/00_torch/test_01_torch.py", "== __", "== 2")
    result = course.run(**env)
    asked = log.read_text().split()
    assert asked and asked[0] == "is_available", (asked, result.stdout)
    server_pids = {int(p) for p in asked[1::2]}
    assert len(server_pids) == 1  # asked once, in the child that ran the cuda file
