"""The tape: every operation on a tensor that requires grad leaves a node behind.

`y.grad_fn` is the node that made `y`, and `grad_fn.next_functions` are its edges back to the
nodes that made its inputs. Walking them from an output ends at the leaves, in AccumulateGrad
nodes. The graph is rebuilt on every forward pass from what actually ran.
"""

import pytest

torch = pytest.importorskip(
    "torch", reason="needs torch (pip install torch): these koans read the autograd graph"
)


def parents(node):
    """The class names of a node's parents; None for an input that records nothing."""
    return [None if parent is None else type(parent).__name__ for parent, _ in node.next_functions]


def walk(node):
    """Every node reached from `node` along next_functions, once per edge, depth first."""
    for parent, _ in node.next_functions:
        if parent is not None:
            yield parent
            yield from walk(parent)


def chain(tensor):
    """Class names from the output's node back to a leaf, following the first recorded input."""
    names, node = [], tensor.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        recorded = [parent for parent, _ in node.next_functions if parent is not None]
        node = recorded[0] if recorded else None
    return names


class Cube(torch.autograd.Function):
    """A hand-written differentiable operation: forward and its derivative."""

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a**3

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return 3 * a**2 * grad


def test_an_operation_on_a_tracked_tensor_leaves_a_node():
    """With requires_grad=True, each operation also records how to differentiate itself: a node
    object stored in the result's `grad_fn`. Its class is named after the forward operation, then
    `Backward`, then a number that tells apart the derivative formulas of one operation."""
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    y = x * 3
    assert type(y.grad_fn).__name__ == "MulBackward0"


def test_each_node_points_back_at_the_nodes_of_its_inputs():
    """`next_functions` holds one (node, index) pair per input of the operation: the node that
    produced that input, if one did. What are the parents of the sum's node?"""
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    assert parents(y.grad_fn) == ["MulBackward0"]


def test_a_leaf_ends_every_path_in_an_accumulator():
    """A leaf was made by no operation, so an edge into it ends in a node whose only job is to
    add the incoming gradient into the leaf's `.grad`. The node keeps one edge per input of its
    operation, whichever tensors those inputs are."""
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    mul = (x * x).grad_fn
    assert parents(mul) == ["AccumulateGrad", "AccumulateGrad"]


def test_how_many_accumulators_one_leaf_has():
    """Every contribution to a leaf's gradient must end up in its one `.grad`. Walk the graph
    of `x * x + x.exp()` edge by edge, and count the edges that end in an accumulator, then
    the distinct accumulator objects they end in. (An accumulator's `variable` attribute names
    the leaf whose `.grad` it fills.)"""
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    y = (x * x + x.exp()).sum()
    ends = [node for node in walk(y.grad_fn) if type(node).__name__ == "AccumulateGrad"]
    assert all(node.variable is x for node in ends)
    assert (len(ends), len({id(node) for node in ends})) == (3, 1)


def test_a_graph_node_is_recognised_by_an_abstract_base_class():
    """`torch.autograd.Function` is the Python class you subclass to define a new operation. The
    nodes that built-in operations record are C++ objects whose classes derive from nothing but
    `object`. `isinstance` asks a class's `__subclasshook__` only when the class is an abstract
    base class, and `torch.autograd.graph.Node` is one."""
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    node = x.exp().grad_fn
    checks = (
        isinstance(node, torch.autograd.graph.Node),
        isinstance(node, torch.autograd.Function),
    )
    assert checks == (True, False)


def test_a_custom_function_gets_a_generated_node_class():
    """Calling `apply` on an autograd.Function subclass records a node whose class autograd
    generates for you, named from your class plus a suffix; the node calls your static
    `backward` when the gradient flows through it."""
    x = torch.tensor([2.0], requires_grad=True)
    y = Cube.apply(x)
    assert (type(y.grad_fn).__name__, isinstance(y.grad_fn, Cube)) == ("CubeBackward", False)


def test_which_operations_record_a_node():
    """Recording costs memory and time, so an operation records a node only when at least one
    of its inputs requires grad. `next_functions` keeps one slot per input, in order, whether or
    not a gradient will ever flow there."""
    a = torch.tensor([1.0, 2.0])
    w = torch.tensor([3.0], requires_grad=True)
    untracked, tracked = a * 2, a * w
    assert (untracked.grad_fn, parents(tracked.grad_fn)) == (None, [None, "AccumulateGrad"])


def test_what_no_grad_leaves_behind():
    """Inside `torch.no_grad()` operations compute as usual but record nothing, whatever their
    inputs. `is_leaf` asks only whether a recorded operation stands behind a tensor."""
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    with torch.no_grad():
        y = x * 2
    assert (y.requires_grad, y.grad_fn, y.is_leaf) == (False, None, True)


def pick(x):
    if x.sum() > 0:
        return x * 2
    return x.exp()


def test_the_tape_and_a_python_if():
    """The Python `if` is decided before either branch runs, and only the chosen branch
    performs its tensor operations. The graph is a record of what executed."""
    up = pick(torch.tensor([1.0, 2.0], requires_grad=True))
    down = pick(torch.tensor([-1.0, -2.0], requires_grad=True))
    assert (type(up.grad_fn).__name__, type(down.grad_fn).__name__) == (
        "MulBackward0",
        "ExpBackward0",
    )


def test_the_tape_and_a_python_loop():
    """Autograd never sees the loop statement, only the tensor operations the loop performs,
    one node each. Follow the chain back from the sum."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for _ in range(3):
        y = y * 2
    assert chain(y.sum()) == [
        "SumBackward0",
        "MulBackward0",
        "MulBackward0",
        "MulBackward0",
        "AccumulateGrad",
    ]
