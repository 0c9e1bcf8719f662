"""Leaves, non-leaves, detach and in-place changes.

Only leaves (tensors you created, not results of recorded operations) keep a `.grad`. `detach()`
gives a second tensor over the same memory that is cut off from the tape. Autograd also guards
the tensors it saved: a version counter catches in-place writes that would corrupt backward.
"""

import pytest

torch = pytest.importorskip(
    "torch", reason="needs torch (pip install torch): these koans run autograd"
)


def test_leaves_are_the_tensors_no_recorded_operation_made():
    """`is_leaf` asks whether the tensor has a recorded operation behind it, that is, a
    `grad_fn`. Which of these three were made by an operation that autograd recorded?"""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    assert (x.is_leaf, (x * 3).is_leaf, torch.ones(2).is_leaf) == __


def test_a_non_leaf_passes_its_gradient_on():
    """During backward a gradient reaches every intermediate result on its way to the leaves,
    but only a leaf has an accumulator to store it in `.grad`; keeping one for every
    intermediate result would hold memory for all of them. Reading a non-leaf's `.grad` also
    warns."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.sum().backward()
    with pytest.warns(UserWarning):
        kept = h.grad
    assert (x.grad.tolist(), kept) == __


def test_retain_grad_asks_a_non_leaf_to_keep_it():
    """`retain_grad()` hooks the non-leaf so that the gradient passing through it is stored in
    its `.grad`: the derivative of the loss by h itself, before the chain rule carries it on
    to x."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.retain_grad()
    (h * h).sum().backward()
    assert h.grad.tolist() == __


def test_a_write_through_a_detached_tensor():
    """`detach()` returns a new tensor object over the same memory, with no history and no wish
    for gradients: a view that autograd does not follow."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    d = x.detach()
    d[0] = 100.0
    assert x.tolist() == __


def test_a_detached_factor_is_a_constant_to_autograd():
    """In x * x.detach(), only the first factor is on the tape; the second reaches the product as
    a plain number, and backward has only one path to follow back to x."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x.detach()).sum().backward()
    assert x.grad.tolist() == __


def test_autograd_refuses_a_saved_tensor_that_changed():
    """exp saved its own result for backward, with the version counter's value at that moment.
    `add_` then changed that result in place and bumped the counter, so the saved version no
    longer matches, and backward stops rather than compute a wrong gradient."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    with pytest.raises(___):
        y.sum().backward()


def test_a_write_around_the_version_counter():
    """The check only compares counters, and the counter counts PyTorch's in-place operations.
    A NumPy array over the same memory (here made through `detach()`, since a tensor that
    requires grad refuses `.numpy()`) writes the bytes with NumPy's own code. exp saved its
    result for backward, because the derivative of exp is exp. What does backward deliver?"""
    x = torch.zeros(2, requires_grad=True)
    y = x.exp()
    y.detach().numpy()[:] = 0.0
    y.sum().backward()
    assert x.grad.tolist() == __


def test_a_leaf_that_requires_grad_refuses_in_place_changes():
    """An in-place change of a leaf while recording would overwrite the very value the gradients
    are about, so autograd forbids it."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(___):
        x.add_(1)


def test_an_optimizer_step_updates_a_leaf_under_no_grad():
    """An update step must change the leaf in place without recording the change. Under
    `no_grad()` the in-place write is allowed, and nothing about it goes on the tape."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    with torch.no_grad():
        x -= 0.25 * x.grad
    assert (x.tolist(), x.is_leaf, x.requires_grad) == __


def test_only_floating_point_tensors_can_require_grad():
    """Gradients are small real (or complex) changes; an integer tensor cannot move by a small
    amount, so asking it for gradients is refused when the tensor is made."""
    with pytest.raises(___):
        torch.tensor([1, 2], requires_grad=True)
