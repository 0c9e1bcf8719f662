"""Which operations make Python wait for the GPU, seen through sync debug mode.

Most tensor operations only queue work. A few cannot return until the GPU has finished: the
ones that hand a value to Python, and the ones whose output shape depends on the data. With
`torch.cuda.set_sync_debug_mode("error")`, each such wait that torch checks for raises an
exception instead of waiting, so a test can see it happen. `makes_host_wait` switches the mode
on around one call and always switches it back off.
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


def test_cpu_must_return_a_tensor_that_already_holds_the_values():
    """`.cpu()` returns a host tensor that must already hold the values, so it waits for the
    queued kernels that compute them, then for the copy itself."""
    running = torch.ones(1000, device="cuda").cumsum(0)
    assert makes_host_wait(running.cpu) == __


def test_an_if_on_a_gpu_tensor_needs_its_value_on_the_host():
    """`if t:` calls `bool(t)`, and Python's control flow runs on the host: the value has to come
    back from the GPU before the branch can be chosen. Data-dependent Python branches are a
    common hidden stall in training loops."""
    flag = torch.ones(1, device="cuda") > 0
    assert makes_host_wait(lambda: bool(flag)) == __


def test_printing_a_tensor_needs_its_digits():
    """Formatting the digits of a tensor needs the digits, so `print(t)` and `repr(t)` copy the
    values to the host, which waits for the GPU to finish computing them."""
    values = torch.arange(5.0, device="cuda")
    assert makes_host_wait(lambda: repr(values)) == __


def test_nonzero_must_count_its_results_before_it_can_allocate_them():
    """The output shape of `nonzero` depends on the data. The host allocates tensors, so it has
    to learn how many entries are nonzero before it can allocate the result."""
    values = torch.tensor([0.0, 1.0, 0.0, 2.0]).to("cuda")
    assert makes_host_wait(lambda: torch.nonzero(values)) == __


def test_boolean_mask_indexing_has_a_shape_that_depends_on_the_data():
    """`x[x > 0]` keeps as many elements as the mask has true entries: another data-dependent
    shape, computed with a `nonzero` behind the scenes."""
    values = torch.arange(-2.0, 3.0, device="cuda")
    assert makes_host_wait(lambda: values[values > 0]) == __


def test_elementwise_arithmetic_knows_its_output_shape_in_advance():
    """`x + 1` knows its output shape from the input's shape alone, so torch allocates the
    result, queues the kernel and returns a tensor whose values are still being computed."""
    values = torch.arange(5.0, device="cuda")
    assert makes_host_wait(lambda: values + 1) == __


def test_a_reduction_writes_its_one_number_into_device_memory():
    """`x.sum()` computes a single number, but the kernel writes it into device memory as a
    zero-dimensional tensor, and nothing has to come back until someone asks for it."""
    values = torch.arange(5.0, device="cuda")
    assert makes_host_wait(values.sum) == __


def test_a_reduced_number_stays_a_gpu_tensor():
    """Torch keeps results where they were computed. A full reduction gives a tensor with an
    empty shape, in device memory, until `.item()` or `.cpu()` brings it over. The test reads
    whether it is on the GPU, and its shape."""
    total = torch.arange(5.0, device="cuda").sum()
    assert (total.is_cuda, total.shape) == __


def test_where_keeps_every_position_so_its_shape_is_known():
    """`torch.where(mask, x, 0.0)` keeps every position and fills the rejected ones, so the
    output shape is the input shape: the usual rewrite of a masked selection that must not
    stall the host."""
    values = torch.arange(-2.0, 3.0, device="cuda")
    assert makes_host_wait(lambda: torch.where(values > 0, values, 0.0)) == __
