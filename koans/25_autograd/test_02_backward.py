"""backward(): one walk of the tape, from a scalar to every leaf.

Reverse mode suits a loss: one scalar output, many inputs. A single backward pass gives the
partial derivative for every leaf at once and adds it into `.grad`. The pass frees what the
forward saved for it, which is what limits a second walk.
"""

import pytest

torch = pytest.importorskip(
    "torch", reason="needs torch (pip install torch): these koans run autograd"
)


def saved_count(operation, *args):
    """How many tensors `operation(*args)` saves for backward."""
    count = 0

    def pack(tensor):
        nonlocal count
        count += 1
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        operation(*args)
    return count


def test_one_backward_from_a_scalar_fills_every_partial():
    """One reverse pass from a scalar loss delivers the partial derivative by every element of
    every leaf, into each leaf's `.grad`. For loss = sum(w * x), what is the partial
    derivative by each x[i], and by each w[i]?"""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    loss = (w * x).sum()
    loss.backward()
    assert (x.grad.tolist(), w.grad.tolist()) == __


def test_backward_from_a_vector_needs_a_starting_gradient():
    """Backward computes a vector-Jacobian product, and for a scalar output the vector is simply
    1. For a vector output there is no natural choice, so autograd refuses to guess."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    with pytest.raises(___):
        y.backward()


def test_a_vector_output_takes_its_starting_gradient_explicitly():
    """`y.backward(v)` starts the pass from v instead of 1: each leaf receives v times the
    Jacobian of y."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.backward(torch.tensor([1.0, 10.0]))
    assert x.grad.tolist() == __


def test_gradients_add_up_across_backward_calls():
    """AccumulateGrad adds into `.grad` rather than overwriting it, so that a leaf used in several
    places, or several batches, can sum their contributions."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    for _ in range(2):
        (x * x).sum().backward()
    assert x.grad.tolist() == __


def test_what_zero_grad_leaves_in_grad():
    """Before each step, the old gradients must go. `zero_grad()` could write zeros into every
    gradient tensor, or drop the tensors altogether and let the next backward allocate fresh ones,
    which saves memory and a pass over the data. Since torch 2.0 the default is the cheaper one."""
    model = torch.nn.Linear(2, 1)
    model(torch.ones(2)).sum().backward()
    model.zero_grad()
    assert model.weight.grad == __


def test_a_second_backward_fails_once_saved_tensors_are_freed():
    """To differentiate x * x, the forward saved x. The first backward frees saved tensors as it
    goes (a training step would otherwise hold them until the graph died), so the second walk
    finds them missing."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(___):
        y.backward()


def test_a_graph_that_saved_nothing_can_be_walked_twice():
    """Backward frees the saved tensors, not the nodes. The derivative of x + 1 is 1 whatever x
    is, and sum's backward needs only the shape, so nothing was saved and a second walk works."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == __


def test_saved_tensor_hooks_count_what_each_forward_keeps():
    """A pack hook runs once for every tensor an operation saves for backward, and each
    operation saves what its own derivative formula will need, no more: a product needs each
    factor to differentiate by the other, whatever tensors the factors are. Count for three
    operations."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    counts = (saved_count(torch.mul, x, x), saved_count(torch.add, x, 1), saved_count(torch.exp, x))
    assert counts == __


def test_retain_graph_keeps_the_saved_tensors_for_another_pass():
    """`backward(retain_graph=True)` skips the freeing, so the same graph can be walked again, at
    the price of holding its saved tensors until the graph is dropped."""
    x = torch.tensor([1.5], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == __


def test_autograd_grad_returns_gradients_instead_of_accumulating():
    """`torch.autograd.grad(outputs, inputs)` walks the same graph but hands the gradients back as
    a tuple instead of accumulating them, which is what higher-order and functional code wants."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad((x * x).sum(), x)
    assert (g.tolist(), x.grad) == __


def gradient_by_forward_mode(f, x):
    """The gradient of a scalar function f at x, built from forward-mode derivatives: one
    Jacobian-vector product per unit direction (one per element of x)."""
    parts = []
    for i in range(x.numel()):
        direction = torch.zeros(x.numel())
        direction[i] = 1.0
        _, slope = torch.func.jvp(f, (x,), (direction.reshape(x.shape),))
        parts.append(slope)
    return torch.stack(parts).reshape(x.shape)


def test_forward_mode_needs_a_pass_per_input_direction():
    """Forward mode carries a tangent through the computation beside each value, so one pass
    yields the derivative along one chosen input direction: a Jacobian-vector product
    (`torch.func.jvp`). Reverse mode gets every partial derivative of a scalar from one forward
    pass and one walk back. Both give the same gradient; count how often each calls `f`."""
    calls = []

    def f(x):
        calls.append(1)
        return (x**2).sum()

    x = torch.arange(6.0).reshape(2, 3)
    forward = gradient_by_forward_mode(f, x)
    forward_calls, calls[:] = len(calls), []
    tracked = x.clone().requires_grad_()
    (reverse,) = torch.autograd.grad(f(tracked), tracked)
    assert torch.equal(forward, reverse)
    assert (forward_calls, len(calls)) == __
