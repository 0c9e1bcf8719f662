"""Kata: a scalar reverse-mode autograd. Six steps; write autograd.py to pass them."""

import math

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from autograd import Value, sgd_step

SETTINGS = settings(max_examples=100, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
positive = st.floats(0.5, 3.0)


def apply(x, name):
    """x.tanh() for a Value, math.tanh(x) for a float: one formula, two kinds of number."""
    if isinstance(x, Value):
        return getattr(x, name)()
    return max(x, 0.0) if name == "relu" else getattr(math, name)(x)


def numeric_grad(f, args, i, h=1e-6):
    """The slope of f in its i-th argument, by central finite differences."""
    up, down = list(args), list(args)
    up[i] += h
    down[i] -= h
    return (f(*up) - f(*down)) / (2 * h)


def check_against_finite_differences(f, args):
    values = [Value(a) for a in args]
    out = f(*values)
    out.backward()
    assert math.isclose(out.data, f(*args), rel_tol=1e-12, abs_tol=1e-12)
    for i, value in enumerate(values):
        expected = numeric_grad(f, args, i)
        assert math.isclose(value.grad, expected, rel_tol=1e-5, abs_tol=1e-6), (i, value.grad, expected)


def torch_or_none():
    try:
        import torch
    except ImportError:  # without torch, finite differences and hand-written derivatives referee
        return None
    return torch


OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b * b + 1),
    "neg": lambda a: -a,
    "square": lambda a: a ** 2,
    "cube": lambda a: a ** 3,
}
UNARY = {"exp": lambda a, f: f(f(a, "tanh"), "exp"), "log": lambda a, f: f(a * a + 1, "log"),
         "tanh": lambda a, f: f(a, "tanh"), "relu": lambda a, f: f(a, "relu")}


def evaluate(tree, inputs, function, kinks=None):
    """Evaluate an expression tree on Values, tensors or floats; ``kinks`` collects the
    arguments of relu, where finite differences cannot be trusted."""
    kind = tree[0]
    if kind == "input":
        return inputs[tree[1]]
    if kind == "const":
        return tree[1]
    args = [evaluate(child, inputs, function, kinks) for child in tree[1:]]
    if kind in UNARY:
        if kind == "relu" and kinks is not None:
            kinks.append(float(args[0].data if isinstance(args[0], Value) else args[0]))
        return UNARY[kind](args[0], function)
    return OPS[kind](*args)


leaves = st.one_of(st.tuples(st.just("input"), st.integers(0, 2)),
                   st.tuples(st.just("const"), st.floats(-2, 2)))
trees = st.recursive(leaves, lambda inner: st.one_of(
    st.tuples(st.sampled_from(["add", "sub", "mul", "div"]), inner, inner),
    st.tuples(st.sampled_from(["neg", "square", "cube", *UNARY]), inner)), max_leaves=10)


def reachable(out):
    """Every Value out was made from, and out: found with an explicit stack."""
    found, stack = {}, [out]
    while stack:
        node = stack.pop()
        if id(node) not in found:
            found[id(node)] = node
            stack.extend(node._children)
    return found


def check_topological(out, order):
    assert isinstance(order, list), order
    position = {id(node): i for i, node in enumerate(order)}
    assert len(position) == len(order), "a Value appears twice"
    assert set(position) == set(reachable(out)), "not every Value out was made from, or others too"
    assert order[-1] is out, "the output comes last"
    for node in order:
        for child in node._children:
            assert position[id(child)] < position[id(node)], f"{child} comes after {node}, made from it"


POINTS = [((2.0, 3.0), 1.0), ((3.0, -1.0), -1.0), ((0.5, 1.0), -1.0), ((1.0, 1.0), 1.0)]
START = (0.5, -0.3, 0.1)  # w1, w2, b
STEPS, RATE = 30, 0.05


def train_by_hand():
    """The same neuron trained with its derivatives written out: tanh(w1*x1 + w2*x2 + b), the
    squared error summed over the points; d/dw of (t - y)**2 is 2 * (t - y) * (1 - t**2) * x."""
    w1, w2, b = START
    losses = []
    for _ in range(STEPS):
        loss, g1, g2, gb = 0.0, 0.0, 0.0, 0.0
        for (x1, x2), y in POINTS:
            t = math.tanh(w1 * x1 + w2 * x2 + b)
            loss += (t - y) ** 2
            share = 2 * (t - y) * (1 - t * t)
            g1, g2, gb = g1 + share * x1, g2 + share * x2, gb + share
        losses.append(loss)
        w1, w2, b = w1 - RATE * g1, w2 - RATE * g2, b - RATE * gb
    return losses


def train_with_torch(torch):
    w = torch.tensor(START, dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.SGD([w], lr=RATE)
    x = torch.tensor([point for point, _ in POINTS], dtype=torch.float64)
    y = torch.tensor([target for _, target in POINTS], dtype=torch.float64)
    losses = []
    for _ in range(STEPS):
        loss = ((torch.tanh(x[:, 0] * w[0] + x[:, 1] * w[1] + w[2]) - y) ** 2).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return losses


def test_values_add_and_multiply():
    """A Value wraps a number. Adding or multiplying Values gives a new Value, which also
    remembers its operands: the start of a graph of the whole computation. Plain numbers on
    either side are wrapped first, so 3 * a works like a * 3."""
    a, b = Value(2.0), Value(-3.0)
    c = a * b + 10
    assert isinstance(c, Value)
    assert c.data == 4.0
    assert (3 * a).data == 6.0
    assert (1 + a).data == 3.0
    assert (a.data, b.data) == (2.0, -3.0)


def test_topological_order_puts_every_value_after_its_operands():
    """backward() will walk the graph from the output back to the inputs, and a node may pass
    its gradient on only once every use of it has passed it theirs. So it needs the graph in
    topological order: every Value after the Values it was made from, each once, the output
    last. Build it without recursion (a stack of your own): graphs can be deeper than Python's
    recursion limit."""
    a, b = Value(2.0), Value(-3.0)
    c = a * b
    d = c + a
    check_topological(d, d.topological_order())
    x = Value(1.0)
    s = x + 1
    out = s * 2 + s * 3
    check_topological(out, out.topological_order())
    q = Value(2.0)
    out = q * (q + 1)
    check_topological(out, out.topological_order())
    y = x
    for _ in range(5000):
        y = y * 1.0 + 0.0
    check_topological(y, y.topological_order())


def test_backward_applies_the_chain_rule_from_the_output():
    """d(a*b)/da is b and d(a+b)/da is 1. Each operation stores a small function that passes
    the output's gradient back to its operands, times its local derivative; backward() seeds
    the output with d(out)/d(out) = 1 and calls those functions in reverse topological order.
    A value used twice gets a share from each use, so shares are added, never assigned. And as
    in torch, inputs keep what earlier backward() calls gave them: two calls, twice the
    gradient (torch frees the graph after a backward() unless the first call asks it to keep
    it, with retain_graph=True)."""
    a, b = Value(2.0), Value(-3.0)
    c = a * b
    c.backward()
    assert (a.grad, b.grad, c.grad) == (-3.0, 2.0, 1.0)
    x, y, z = Value(1.5), Value(4.0), Value(-2.0)
    out = (x + y) * z
    out.backward()
    assert (x.grad, y.grad, z.grad) == (-2.0, -2.0, 5.5)
    a = Value(3.0)
    (a * a).backward()
    assert a.grad == 6.0
    a = Value(3.0)
    (a + a).backward()
    assert a.grad == 2.0
    a = Value(2.0)
    (a * 3 * (a + 1)).backward()
    assert a.grad == 15.0
    a = Value(1.0)
    s = a + 1
    (s * 2 + s * 3).backward()
    assert a.grad == 5.0
    a = Value(2.0)
    b = a * 3
    c = b * b
    c.backward()
    c.backward()
    assert a.grad == 72.0, "two backward() calls add up at the inputs (torch, with retain_graph=True: 72.0)"
    x = Value(1.0)
    y = x
    for _ in range(5000):
        y = y * 1.0 + 0.0
    y.backward()
    assert x.grad == 1.0


@SETTINGS
@given(positive, positive)
def test_subtraction_division_and_powers_have_gradients_too(x, y):
    """-a is a * -1, a - b is a + (-b) and a / b is a * b**-1: built from what you have,
    their gradients come for free. A power needs its own rule: d(a**n)/da = n * a**(n - 1).
    Finite differences, (f(x + h) - f(x - h)) / 2h, check the slopes."""
    assert (-Value(2.0)).data == -2.0
    assert (1 - Value(3.0)).data == -2.0
    assert (Value(6.0) / Value(3.0)).data == 2.0
    assert (2 / Value(4.0)).data == 0.5
    assert (Value(3.0) ** 2).data == 9.0
    check_against_finite_differences(
        lambda a, b: (a - b) / (a * b) ** 2 + 1 / a - (3 - b) * -a + a ** 3 / 2, (x, y))


@SETTINGS
@example(1.0, 1.5, ("square", ("relu", ("input", 0))), (-1.0, 0.0, 0.0))
@given(positive, positive, trees, st.tuples(st.floats(-2, 2), st.floats(-2, 2), st.floats(-2, 2)))
def test_exp_log_tanh_and_relu_know_their_derivatives(x, y, tree, inputs):
    """Each function brings its derivative: exp's is itself, log's is 1/x, tanh's is
    1 - tanh(x)**2 (computed from the output), relu's is 1 where the input is positive and 0
    elsewhere, 0 at the kink itself, as torch has it. With that the set is complete: on random
    expression trees of every operation your gradients match torch.autograd's (in float64), or
    without torch, finite differences away from relu's kink."""
    assume(abs(x - y) > 1e-3)
    assert Value(0.0).exp().data == 1.0
    assert Value(1.0).log().data == 0.0
    r = Value(0.0)
    r.relu().backward()
    assert r.grad == 0.0
    n = Value(-1.0)
    out = n.relu()
    out.backward()
    assert (out.data, n.grad) == (0.0, 0.0)
    check_against_finite_differences(
        lambda a, b: apply(a * b, "tanh") + apply(a / b, "log") + apply(a - b, "relu")
        + apply(-a, "exp"), (x, y))
    check_random_expression(tree, inputs)


def check_random_expression(tree, inputs):
    """Your gradients on a random expression tree: torch's, or else finite differences'."""
    values = [Value(x) for x in inputs]
    out = evaluate(tree, values, apply)
    if not isinstance(out, Value):
        return
    out.backward()
    torch = torch_or_none()
    if torch is not None:
        tensors = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in inputs]

        def torch_apply(t, name):
            t = torch.as_tensor(t, dtype=torch.float64)
            return torch.relu(t) if name == "relu" else getattr(t, name)()

        result = evaluate(tree, tensors, torch_apply)
        if not result.requires_grad:
            return
        result.backward()
        assert math.isclose(out.data, result.item(), rel_tol=1e-9, abs_tol=1e-12)
        for value, tensor in zip(values, tensors, strict=True):
            expected = 0.0 if tensor.grad is None else tensor.grad.item()
            assert math.isclose(value.grad, expected, rel_tol=1e-9, abs_tol=1e-9), (tree, value.grad, expected)
        return
    kinks = []
    plain = evaluate(tree, list(inputs), apply, kinks)
    if any(abs(k) <= 1e-4 for k in kinks) or abs(plain) >= 1e6:
        return  # finite differences cannot be trusted here
    assert math.isclose(out.data, plain, rel_tol=1e-9, abs_tol=1e-12)
    f = lambda *xs: evaluate(tree, list(xs), apply)  # noqa: E731
    for i, value in enumerate(values):
        expected = numeric_grad(f, inputs, i)
        assert math.isclose(value.grad, expected, rel_tol=1e-4, abs_tol=1e-5), (tree, i, value.grad, expected)


def test_a_neuron_learns_by_gradient_descent():
    """What it is all for: a neuron, tanh(w1*x1 + w2*x2 + b), fitted to four points by gradient
    descent. Each round computes the loss (the squared errors, summed), calls backward(), and
    moves every parameter a little against its gradient, which then goes back to zero: since
    backward() adds up, a stale gradient would push the next step. The losses must fall, and
    match the same training with the derivatives written by hand, and torch's where it is
    installed."""
    w1, w2, b = (Value(v) for v in START)
    losses = []
    for _ in range(STEPS):
        loss = sum(((w1 * x1 + w2 * x2 + b).tanh() - y) ** 2 for (x1, x2), y in POINTS)
        loss.backward()
        sgd_step([w1, w2, b], RATE)
        losses.append(loss.data)
    assert losses[-1] < losses[0] / 2, losses
    for step, (ours, hand) in enumerate(zip(losses, train_by_hand(), strict=True)):
        assert math.isclose(ours, hand, rel_tol=1e-9), f"step {step}: loss {ours}, by hand {hand}"
    torch = torch_or_none()
    if torch is not None:
        for step, (ours, theirs) in enumerate(zip(losses, train_with_torch(torch), strict=True)):
            assert math.isclose(ours, theirs, rel_tol=1e-9), f"step {step}: loss {ours}, torch {theirs}"
