"""AOTAutograd: the backward graph, derived ahead of time, in ATen operations.

Dynamo captures only the forward. AOTAutograd traces the forward again, through autograd's own
derivative formulas, and splits the joint trace into a forward graph and a backward graph,
both written in ATen operations: the C++ tensor library's operator set, which a compiler such as
Inductor (the default backend) lowers to loops. The backend named "aot_eager" runs that path
without generating any code.
"""

import pytest

torch = pytest.importorskip(
    "torch", reason="needs torch (pip install torch): these koans compile with torch.compile"
)


@pytest.fixture(autouse=True)
def fresh_dynamo():
    """Every koan starts with no compiled code and no shape history (none read from disk
    either), and leaves none behind for the next."""
    torch._dynamo.reset()
    with torch._dynamo.config.patch(automatic_dynamic_local_pgo=False):
        yield
    torch._dynamo.reset()


def aot_recorder():
    """An AOTAutograd backend whose forward and backward compilers record the graphs they get."""
    from torch._dynamo.backends.common import aot_autograd
    from torch._functorch.aot_autograd import make_boxed_func

    forward, backward = [], []

    def forward_compiler(graph_module, example_inputs):
        forward.append((graph_module, example_inputs))
        return make_boxed_func(graph_module.forward)  # AOTAutograd passes inputs as one list

    def backward_compiler(graph_module, example_inputs):
        backward.append((graph_module, example_inputs))
        return make_boxed_func(graph_module.forward)

    return (
        aot_autograd(fw_compiler=forward_compiler, bw_compiler=backward_compiler),
        forward,
        backward,
    )


def loss_of(x):
    return (torch.sin(x) * 2).sum()


def call_targets(graph_module):
    return [str(node.target) for node in graph_module.graph.nodes if node.op == "call_function"]


def test_when_each_aot_graph_is_compiled():
    """AOTAutograd traces the forward and the backward together, on the first call. Compiling
    the backward graph would be wasted work if no backward pass ever came, as in inference.
    Count the calls of each compiler after the forward call, and after `backward()`."""
    backend, forward, backward = aot_recorder()
    x = torch.ones(3, requires_grad=True)
    loss = torch.compile(loss_of, backend=backend)(x)
    after_forward = (len(forward), len(backward))
    loss.backward()
    assert (after_forward, (len(forward), len(backward))) == __


def test_the_forward_graph_is_written_in_aten_operations():
    """Dynamo's graph calls torch functions and Python operators. AOTAutograd traces it down to
    ATen overloads, each named namespace.operator.overload; the overload says which of the
    operator's signatures was matched, which is not always the one you would guess."""
    backend, forward, _ = aot_recorder()
    torch.compile(loss_of, backend=backend)(torch.ones(3, requires_grad=True))
    graph_module, _ = forward[0]
    assert call_targets(graph_module) == __


def test_the_backward_graph_is_built_from_the_derivative_formulas():
    """The backward graph is what autograd would run, recorded: each forward operation
    contributes its own derivative formula, applied in reverse order, from the loss back to the
    input. Which ATen operators does it call?"""
    backend, _, backward = aot_recorder()
    loss = torch.compile(loss_of, backend=backend)(torch.ones(3, requires_grad=True))
    loss.backward()
    graph_module, _ = backward[0]
    assert sorted(set(call_targets(graph_module))) == __


def test_the_aot_compilers_trace_with_stand_in_tensors():
    """AOTAutograd derives both graphs without touching real data: the example inputs its
    compilers receive are stand-ins with shapes and dtypes only, unlike the real tensors a plain
    Dynamo backend gets."""
    backend, forward, _ = aot_recorder()
    torch.compile(loss_of, backend=backend)(torch.ones(3, requires_grad=True))
    _, example_inputs = forward[0]
    assert type(example_inputs[0]).__name__ == __


def test_which_overloads_of_add_carry_the_core_tag():
    """An ATen operator has one overload per signature. `aten.add` has more than a dozen:
    `Tensor` and `Scalar` add a tensor or a Python number to a tensor and return a new tensor,
    `out` and `Scalar_out` write the sum into a tensor the caller passes, and the rest add plain
    values (numbers, strings, lists) in TorchScript programs. The `core` tag marks what a backend
    must implement to run any graph that export or AOTAutograd captures, and those graphs are
    functional: no operation in them writes into a tensor it was given. Which of add's overloads
    carry the tag?"""
    add = torch.ops.aten.add
    tagged = [name for name in add.overloads() if torch.Tag.core in getattr(add, name).tags]
    assert sorted(tagged) == __


def test_composite_operators_are_not_in_the_core_set():
    """An operator is tagged `core` when a backend cannot do without it; one that decomposes
    into core operators is left out, so that a backend need not implement it. `linear(x, W, b)`
    computes x @ Wᵀ + b; `addmm(b, x, M)` computes b + x @ M in one call; `add` adds two
    tensors elementwise. Which of the three carry the tag?"""
    aten = torch.ops.aten
    tagged = tuple(
        torch.Tag.core in op.tags
        for op in (aten.add.Tensor, aten.linear.default, aten.addmm.default)
    )
    assert tagged == __


def softmax_as_traced(table):
    """The ATen operators `make_fx` records for a softmax when it applies a decomposition
    table while tracing."""
    from torch.fx.experimental.proxy_tensor import make_fx

    graph_module = make_fx(lambda x: torch.softmax(x, dim=-1), decomposition_table=table)(
        torch.ones(2, 3)
    )
    return [
        node.target.overloadpacket.__name__
        for node in graph_module.graph.nodes
        if node.op == "call_function"
    ]


def test_a_decomposition_table_decides_how_far_softmax_is_split():
    """A decomposition table maps an operator to a function that rewrites it in smaller ones.
    `core_aten_decompositions()` rewrites only what lies outside the core set, and ATen's
    `_softmax` is core: a backend is expected to have a fast one. Inductor writes its own
    loops and fuses pointwise steps, so its table splits softmax(x) into the formula
    exp(x - max x) / sum exp(x - max x), one ATen operator per step, with the max taken
    along the softmax's dimension."""
    from torch._decomp import core_aten_decompositions
    from torch._inductor.decomposition import select_decomp_table

    core = softmax_as_traced(core_aten_decompositions())
    inductor = softmax_as_traced(select_decomp_table())
    assert core == ["_softmax"]
    assert inductor == __
