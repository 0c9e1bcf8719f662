"""From Python to a graph: torch.fx records operations, and Dynamo hands the graph to a backend.

`torch.fx.symbolic_trace` runs a function on Proxy objects whose operators record nodes, the
trick of an embedded DSL. torch.compile's front end, Dynamo, gets the same kind of graph from
the function's bytecode and passes it, with example inputs, to a backend: any callable
`backend(graph_module, example_inputs)` that returns something to run instead.
"""

import inspect
import operator

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


def recording_backend(calls):
    """A backend that notes each graph it is given and runs it as it is."""

    def backend(graph_module, example_inputs):
        calls.append((graph_module, example_inputs))
        return graph_module.forward

    return backend


LIMIT = 3


def over_21(x):
    return x > 21


def sine_sum_over_21(x):
    return torch.sin(x).sum() > 21


def branch_on_data(x):
    if x.sum() > 0:
        return x + 1
    return x - 1


def branch_on_shape(x):
    if x.shape[0] > 2:
        return x + 1
    return x - 1


def branch_on_constant(x):
    if LIMIT > 2:
        return x + 1
    return x - 1


def traces(func):
    """Whether torch.fx.symbolic_trace can record func."""
    try:
        torch.fx.symbolic_trace(func)
    except torch.fx.proxy.TraceError:  # "symbolically traced variables cannot be used as inputs"
        return False
    return True


def sine_twice(x):
    return torch.sin(x) * 2


def test_symbolic_trace_turns_a_comparison_into_a_graph_node():
    """symbolic_trace calls the function with a Proxy in place of x. The Proxy's comparison
    method returns a new Proxy and records a node calling a function, much as the query builder
    of the DSL topic built a tree. A graph also has a node for each input and one for the
    output."""
    graph_module = torch.fx.symbolic_trace(over_21)
    assert [node.op for node in graph_module.graph.nodes] == [
        "placeholder",
        "call_function",
        "output",
    ]


def test_each_node_records_what_to_call():
    """A node records which callable to call. For a torch function it is that function; for a
    method called on a Proxy it is the method's name, since the Proxy cannot know which class
    will own the method; for a Python operator it is the standard library's function for that
    operator. The graph is Python first, and lowering to tensor operations comes later."""
    graph_module = torch.fx.symbolic_trace(sine_sum_over_21)
    calls = [node.target for node in graph_module.graph.nodes if node.op.startswith("call")]
    assert calls == [torch.sin, "sum", operator.gt]


def test_symbolic_trace_cannot_branch_on_a_proxy():
    """`if` needs a real bool, but a Proxy has no value to compare, only a record of how it
    would be computed, so the tracer refuses to decide. symbolic_trace passes a Proxy for every
    argument, and whatever is computed from a Proxy (an attribute, an item, a comparison) is a
    Proxy too. Which of the three functions can it record?"""
    candidates = {"data": branch_on_data, "shape": branch_on_shape, "constant": branch_on_constant}
    recorded = [name for name, func in candidates.items() if traces(func)]
    assert recorded == ["constant"]


def test_when_torch_compile_traces():
    """Dynamo records what the bytecode does with the inputs it is given, and a graph assumes
    their shapes and dtypes. Count the graphs handed to the backend after `torch.compile`,
    after the first call, and after a second call with an input of the same kind."""
    calls = []
    compiled = torch.compile(sine_twice, backend=recording_backend(calls))
    counts = [len(calls)]
    for _ in range(2):
        compiled(torch.ones(3))
        counts.append(len(calls))
    assert counts == [0, 1, 1]


def test_dynamo_hands_the_backend_an_fx_graph_module():
    """What a backend receives is an FX GraphModule, the same structure symbolic_trace builds:
    an input node, one node per tensor operation that Dynamo saw the bytecode perform (the
    torch function, or the operator module's function for `*`), and an output node."""
    calls = []
    torch.compile(sine_twice, backend=recording_backend(calls))(torch.ones(3))
    graph_module, _ = calls[0]
    assert isinstance(graph_module, torch.fx.GraphModule)
    assert {torch.sin, operator.mul} <= {node.target for node in graph_module.graph.nodes}
    assert [node.op for node in graph_module.graph.nodes] == [
        "placeholder",
        "call_function",
        "call_function",
        "output",
    ]


def test_what_a_backend_receives_as_example_inputs():
    """Beside the graph, a backend gets example inputs, so that it can run, time or check the
    graph while compiling. Stand-ins without data could not be run, and copies would cost
    memory: where do they come from?"""
    calls = []
    x = torch.ones(3)
    torch.compile(sine_twice, backend=recording_backend(calls))(x)
    _, example_inputs = calls[0]
    assert (type(example_inputs[0]).__name__, example_inputs[0] is x) == ("Tensor", True)


def test_graph_nodes_carry_stand_ins_with_shapes_but_no_data():
    """While tracing, Dynamo does not compute on real data: it propagates stand-in tensors that
    have a shape, a dtype and a device but no data, and stores the one computed for each node
    in its `meta["example_value"]`."""
    calls = []
    torch.compile(sine_twice, backend=recording_backend(calls))(torch.ones(3))
    graph_module, _ = calls[0]
    sine = list(graph_module.graph.nodes)[1]
    assert type(sine.meta["example_value"]).__name__ == "FakeTensor"


def test_a_tensor_without_data_has_no_values_to_read():
    """Under FakeTensorMode, new tensors are stand-ins: operations on them work out the shape,
    dtype and device of each result without computing anything. A question whose answer depends
    on the numbers cannot be answered, and neither can an operation whose result's shape
    depends on them. Which of the four probes get an answer?"""
    from torch._subclasses.fake_tensor import (
        DataDependentOutputException,
        DynamicOutputShapeException,
        FakeTensorMode,
    )

    def answered(probe):
        try:
            probe()
        except (DataDependentOutputException, DynamicOutputShapeException):
            return False
        return True

    with FakeTensorMode():
        a = torch.ones(2, 3)
        product = a @ a.T
        probes = {
            "shape": lambda: product.shape,
            "sum": product.sum,
            "item": lambda: product.sum().item(),
            "nonzero": product.nonzero,
        }
        answers = [name for name, probe in probes.items() if answered(probe)]
        assert answers == ["shape", "sum"]


def default_backend():
    """The backend torch.compile uses when it is given none. torch 2.11 writes it as the default
    of compile's `backend` parameter; newer releases leave that None and ask the registry."""
    registry = torch._dynamo.backends.registry
    if hasattr(registry, "get_default_backend"):
        return registry.get_default_backend()
    return inspect.signature(torch.compile).parameters["backend"].default


def test_the_backend_torch_compile_uses_when_given_none():
    """A backend is named by the string it was registered under in Dynamo's registry, in lower
    case (`"eager"`, `"aot_eager"`, ...). The default one lowers the graphs to loops and
    generates code: Triton kernels for a GPU, C++ with OpenMP for a CPU. Asking for its name
    compiles nothing."""
    assert default_backend() == "inductor"


def test_a_backend_is_a_named_entry_in_a_registry():
    """`torch._dynamo.register_backend` files a compiler function under a name, and
    `torch.compile(fn, backend="name")` looks the name up there. `list_backends()` lists the
    registry, leaving out the entries tagged as experimental or as debugging aids, the backends
    that generate no code of their own and exist to test the layers above. Which of these names
    does it list?"""

    def counting(graph_module, example_inputs):
        return graph_module.forward

    if "koan_counter" not in torch._dynamo.list_backends(exclude_tags=()):
        torch._dynamo.register_backend(counting, name="koan_counter")
    assert torch.compile(sine_twice, backend="koan_counter")(torch.zeros(2)).tolist() == [0.0, 0.0]
    names = ("eager", "aot_eager", "inductor", "koan_counter")
    listed = [name for name in names if name in torch._dynamo.list_backends()]
    assert listed == ["inductor", "koan_counter"]
