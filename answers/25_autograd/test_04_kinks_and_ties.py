"""Where the derivative is not defined, autograd still answers: it picks a convention.

relu has a kink at 0, and max has no unique winner when values tie. The gradient formulas
registered for these operations choose a value, and knowing which explains odd gradients.
"""

import pytest

torch = pytest.importorskip(
    "torch", reason="needs torch (pip install torch): these koans run autograd"
)


def test_relu_takes_the_flat_side_at_its_kink():
    """relu(z) = max(z, 0) has slope 0 left of zero and 1 right of it; at exactly zero any value
    between them is a valid subgradient. The derivative formula returns the gradient where the
    output is positive and 0 everywhere else."""
    z = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    torch.relu(z).sum().backward()
    assert z.grad.tolist() == [0.0, 0.0, 1.0]


def test_max_splits_the_gradient_between_ties():
    """The gradient of a full max flows only to the element that won. When several elements tie,
    the formula shares it out evenly among them, so the total still sums to one."""
    z = torch.tensor([5.0, 5.0, 3.0], requires_grad=True)
    z.max().backward()
    assert z.grad.tolist() == [0.5, 0.5, 0.0]
