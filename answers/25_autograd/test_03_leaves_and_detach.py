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
    assert (x.is_leaf, (x * 3).is_leaf, torch.ones(2).is_leaf) == (True, False, True)


def test_only_leaves_keep_their_grad():
    """Intermediate gradients flow through a non-leaf during backward and are dropped, since
    keeping them would hold a gradient for every intermediate result. Reading a non-leaf's
    `.grad` also warns."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.sum().backward()
    with pytest.warns(UserWarning):
        kept = h.grad
    assert (x.grad.tolist(), kept) == ([3.0, 3.0], None)


def test_retain_grad_asks_a_non_leaf_to_keep_it():
    """`retain_grad()` hooks the non-leaf so that the gradient passing through it is stored. Here
    the loss is the sum of h squared, so the gradient at h is 2h, with h = 3x."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.retain_grad()
    (h * h).sum().backward()
    assert h.grad.tolist() == [6.0, 12.0]


def test_detach_shares_storage_with_its_source():
    """`detach()` returns a new tensor object over the same memory, with no history and no wish
    for gradients. Writing through the detached tensor writes into the original."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    d = x.detach()
    d[0] = 100.0
    assert x.tolist() == [100.0, 2.0]


def test_a_detached_factor_is_a_constant_to_autograd():
    """In x * x.detach(), only the first factor is on the tape; the second reaches the product as
    a plain number. So the derivative is the constant factor's value, not the 2x of x * x."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x.detach()).sum().backward()
    assert x.grad.tolist() == [1.0, 2.0]


def test_an_in_place_write_bumps_the_version_counter():
    """Every tensor carries a counter, shared with its views, that each in-place operation
    increments. A saved tensor remembers the value the counter had when it was saved."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    before = y._version
    y.add_(1)
    assert (before, y._version) == (0, 1)


def test_autograd_refuses_a_saved_tensor_that_changed():
    """exp saved its own result for backward. `add_` then changed that result in place, so the
    counter no longer matches the saved one, and backward stops rather than compute a wrong
    gradient."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    with pytest.raises(RuntimeError):
        y.sum().backward()


def test_a_leaf_that_requires_grad_refuses_in_place_changes():
    """An in-place change of a leaf while recording would overwrite the very value the gradients
    are about, so autograd forbids it."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError):
        x.add_(1)


def test_an_optimizer_step_updates_a_leaf_under_no_grad():
    """An update step must change the leaf in place without recording the change. Under
    `no_grad()` the in-place write is allowed, and nothing about it goes on the tape."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    with torch.no_grad():
        x -= 0.25 * x.grad
    assert (x.tolist(), x.is_leaf, x.requires_grad) == ([0.5, 1.0], True, True)


def test_only_floating_point_tensors_can_require_grad():
    """Gradients are small real (or complex) changes; an integer tensor cannot move by a small
    amount, so asking it for gradients is refused when the tensor is made."""
    with pytest.raises(RuntimeError):
        torch.tensor([1, 2], requires_grad=True)
