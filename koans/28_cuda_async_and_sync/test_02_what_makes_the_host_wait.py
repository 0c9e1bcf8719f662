"""Which operations make Python wait for the GPU, seen through sync debug mode.

Most tensor operations only queue work. A few cannot return until the GPU has finished: the
ones that hand a value to Python, and the ones whose output shape depends on the data. With
`torch.cuda.set_sync_debug_mode("error")`, each such wait that torch checks for raises an
exception instead of waiting, so a test can see it happen. `makes_host_wait` switches the mode
on around one call and always switches it back off; `waiters` lists, in order, the operations
that made the host wait.
"""

import contextlib
import warnings

import pytest

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.cuda

if not torch.cuda.is_available():
    pytest.skip(
        "needs a CUDA GPU, and torch.cuda.is_available() is False here: this file shows "
        "which tensor operations make Python wait for the GPU (.item(), printing, masks, ...)",
        allow_module_level=True,
    )


def set_sync_debug_mode(mode):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "a prototype feature": we know
        torch.cuda.set_sync_debug_mode(mode)


@contextlib.contextmanager
def sync_errors():
    """Inside this block, making the host wait for the GPU raises an exception."""
    torch.cuda.synchronize()
    set_sync_debug_mode("error")
    try:
        yield
    finally:
        set_sync_debug_mode("default")


def makes_host_wait(action):
    """Whether `action()` made the host wait for the GPU, as seen by sync debug mode."""
    with sync_errors():
        try:
            action()
        except Exception as error:
            if "synchroniz" not in str(error):
                raise
            return True
    return False


def waiters(operations):
    """The names of the operations that made the host wait, in the order given."""
    return [name for name, operation in operations.items() if makes_host_wait(operation)]


def test_sync_debug_mode_turns_a_hidden_wait_into_an_error():
    """`.item()` returns a Python number, so it must wait for the kernel that computes the value
    and copy it back. In sync debug mode "error", torch raises at that point instead of
    waiting: the same check, failed, that its C++ code raises everywhere else."""
    total = torch.ones(1000, device="cuda").sum()
    with sync_errors(), pytest.raises(___):
        total.item()


def test_the_sync_debug_level_is_kept_as_a_number():
    """`set_sync_debug_mode` takes the names "default", "warn" and "error" (or their numbers)
    and stores a level counted from zero in that order; `get_sync_debug_mode()` returns the
    number."""
    with sync_errors():
        level = torch.cuda.get_sync_debug_mode()
    assert level == __


def test_handing_a_value_to_python_waits_for_the_gpu():
    """A Python number, a bool (every `if t:`), a list and the digits of a printed tensor are
    values on the host, so producing them waits for the kernels that compute them and for the
    copy back. A result that stays a tensor on the GPU is only queued, however small it is."""
    x = torch.arange(5.0, device="cuda")
    operations = {
        "x.sum()": x.sum,
        "x.sum().item()": lambda: x.sum().item(),
        "x * 2": lambda: x * 2,
        "bool(x[1] > 0)": lambda: bool(x[1] > 0),
        "x.tolist()": x.tolist,
        "repr(x)": lambda: repr(x),
    }
    assert waiters(operations) == __


def test_an_output_shape_that_depends_on_the_data_is_counted_first():
    """The host allocates every output before it queues the kernel that fills it, so it must
    know the output's size. When the size depends on the values (how many are nonzero, how
    many pass a mask), the host has to wait for a count to come back from the GPU. When every
    position is kept, the size is the input's and nothing is counted."""
    x = torch.arange(-2.0, 3.0, device="cuda")
    operations = {
        "torch.nonzero(x)": lambda: torch.nonzero(x),
        "torch.where(x > 0, x, 0.0)": lambda: torch.where(x > 0, x, 0.0),
        "x[x > 0]": lambda: x[x > 0],
        "x.clamp(min=0)": lambda: x.clamp(min=0),
    }
    assert waiters(operations) == __


def test_a_reduced_number_stays_a_gpu_tensor():
    """Torch keeps results where they were computed. A full reduction gives a tensor with an
    empty shape, in device memory, until `.item()` or `.cpu()` brings it over. The test reads
    whether it is on the GPU, and its shape."""
    total = torch.arange(5.0, device="cuda").sum()
    assert (total.is_cuda, total.shape) == __
