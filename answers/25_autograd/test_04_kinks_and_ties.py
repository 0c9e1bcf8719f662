"""Where the derivative is not defined, autograd still answers: it picks a convention.

relu has a kink at 0, and max has no unique winner when values tie. The gradient formulas
registered for these operations choose a value, and knowing which explains odd gradients.
"""

import pytest

torch = pytest.importorskip(
    "torch", reason="needs torch (pip install torch): these koans run autograd"
)


def slope_at(f, *points):
    """The gradient of sum(f(z)) at the given points."""
    z = torch.tensor(points, requires_grad=True)
    f(z).sum().backward()
    return z.grad.tolist()


def test_each_spelling_of_relu_brings_its_own_formula_for_the_kink():
    """relu(z) = max(z, 0) has slope 0 left of zero and 1 right of it; at exactly zero any value
    between them is a valid subgradient. Autograd has no notion of the function you meant: it
    uses the derivative formula registered for the operation you called. `relu`'s formula
    passes the gradient where its output is above 0; `clamp(min=0)`'s where its input is at
    least the bound; `maximum` splits the gradient when its two inputs are equal. What is the
    slope at 0 of each?"""
    zero = torch.zeros(1)
    slopes = [
        slope_at(torch.relu, 0.0),
        slope_at(lambda z: torch.clamp(z, min=0.0), 0.0),
        slope_at(lambda z: torch.maximum(z, zero), 0.0),
    ]
    assert slopes == [[0.0], [1.0], [0.5]]


def test_a_max_must_decide_where_the_gradient_goes_when_values_tie():
    """The gradient of a max flows to the element that won. `z.max()` reduces the whole tensor
    to a value, and its formula treats every element equal to the maximum alike, keeping the
    total at one. `z.max(dim=0)` also returns the index of a winner, and its formula sends the
    gradient to that index: the first maximal one."""
    full = slope_at(lambda z: z.max(), 5.0, 5.0, 3.0)
    indexed = slope_at(lambda z: z.max(dim=0).values, 5.0, 5.0, 3.0)
    assert (full, indexed) == ([0.5, 0.5, 0.0], [1.0, 0.0, 0.0])
