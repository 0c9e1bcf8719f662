"""What the host can do without the values: the meta device, a GPU's queue seen from the host.

While kernels are queued, the host knows every tensor's shape and dtype, but not its values:
those are still being computed on the GPU. The `meta` device is torch's model of exactly that
position. A meta tensor has a shape and a dtype and no storage at all, and torch runs on it
only what can be worked out from shapes alone. So what fails on `meta` is, by and large, what
would make the host wait for a GPU. These koans need no GPU.
"""

import pytest

torch = pytest.importorskip("torch")


def refused(operations):
    """The names of the operations that raise on their tensors, in the order given."""
    names = []
    for name, operation in operations.items():
        try:
            operation()
        except (RuntimeError, NotImplementedError):
            names.append(name)
    return names


def test_an_output_shape_that_depends_on_the_values_cannot_be_known():
    """An operation whose output shape follows from its inputs' shapes can run on tensors with
    no values: the result is a meta tensor of the right shape. One whose output size depends
    on how many values pass a test has to count them first, and there is nothing to count. The
    test lists the operations that were refused."""
    x = torch.ones(5, device="meta")
    operations = {
        "x + 1": lambda: x + 1,
        "x.sum()": x.sum,
        "x.cumsum(0)": lambda: x.cumsum(0),
        "torch.nonzero(x)": lambda: torch.nonzero(x),
        "x[x > 0]": lambda: x[x > 0],
        "x.sort()": x.sort,
    }
    assert refused(operations) == __


def test_handing_a_value_to_python_needs_the_value():
    """A Python number, a bool or a list must hold actual values, so turning a tensor into one
    needs them. Printing is different: torch's printer can describe a tensor it has no values
    for. The test lists the operations that were refused."""
    x = torch.ones(5, device="meta")
    operations = {
        "x.sum()": x.sum,
        "x.sum().item()": lambda: x.sum().item(),
        "bool(x[1] > 0)": lambda: bool(x[1] > 0),
        "x.tolist()": x.tolist,
        "repr(x)": lambda: repr(x),
    }
    assert refused(operations) == __


def test_a_tensor_without_values_prints_its_shape_instead():
    """Where the digits would go, torch's printer writes an ellipsis, then names the device
    and the size, the two things it does know."""
    x = torch.ones(5, device="meta")
    assert repr(x) == __


def test_a_size_fixed_in_advance_removes_the_need_to_count():
    """`torch.nonzero_static(x, size=n)` is `nonzero` with the number of results fixed by the
    caller: it pads or cuts to `n` rows. Its output shape no longer depends on the values, so
    it runs where `nonzero` cannot. Each row is the index of one nonzero element."""
    x = torch.ones(5, device="meta")
    assert tuple(torch.nonzero_static(x, size=3).shape) == __


def test_an_operation_with_no_rule_for_its_output_shape_is_not_implemented_there():
    """Torch runs an operation on meta tensors through a function that computes only the output
    shape. For `nonzero` no such function can exist, and torch says so with the exception class
    Python uses for 'this operation has no implementation here'."""
    x = torch.ones(5, device="meta")
    with pytest.raises(___):
        torch.nonzero(x)
