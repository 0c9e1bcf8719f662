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


def core_aten_overloads():
    """Every ATen operator overload that carries the `core` tag."""
    found = set()
    for schema in torch._C._jit_get_all_schemas():
        if not schema.name.startswith("aten::"):
            continue
        name, overload = schema.name[len("aten::") :], schema.overload_name or "default"
        try:
            op = getattr(getattr(torch.ops.aten, name), overload)
        except (AttributeError, RuntimeError):
            continue
        if torch.Tag.core in op.tags:
            found.add(f"{name}.{overload}")
    return found


def test_the_backward_graph_is_compiled_when_backward_first_runs():
    """The forward graph is compiled on the first call. Its backward is traced along with it but
    handed to the backward compiler only when a backward pass first needs it, since inference
    never does."""
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
    """The backward graph is what autograd would run, recorded: the sum's gradient is expanded
    back to the input's shape, multiplied by the constant 2, and by the derivative of sin."""
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


def test_the_core_aten_opset_is_a_few_hundred_operators_at_most():
    """ATen has thousands of overloads, but many decompose into a smaller set tagged `core`: the
    operators a backend must implement, and what `ExportedProgram.run_decompositions()` lowers a
    program to. Rounded to the nearest hundred, how big is that set?"""
    assert round(len(core_aten_overloads()), -2) == __


def test_composite_operators_are_not_in_the_core_set():
    """Elementwise add is a core primitive. `linear` is not: it decomposes into a matrix
    multiply (`addmm`, itself core) with a transposed weight, so a backend need not implement it."""
    aten = torch.ops.aten
    tagged = tuple(
        torch.Tag.core in op.tags
        for op in (aten.add.Tensor, aten.linear.default, aten.addmm.default)
    )
    assert tagged == __
