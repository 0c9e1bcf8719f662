"""From Python to a graph: torch.fx records operations, and Dynamo hands the graph to a backend.

`torch.fx.symbolic_trace` runs a function on Proxy objects whose operators record nodes, the
trick of an embedded DSL. torch.compile's front end, Dynamo, gets the same kind of graph from
the function's bytecode and passes it, with example inputs, to a backend: any callable
`backend(graph_module, example_inputs)` that returns something to run instead.
"""

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


def over_21(x):
    return x > 21


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


def test_the_recorded_target_is_the_plain_python_operator():
    """The node records which callable to call. For a Python operator the Proxy records the
    standard library's function for that operator, not a torch function: the graph is Python
    first, and lowering to tensor operations comes later."""
    graph_module = torch.fx.symbolic_trace(over_21)
    node = list(graph_module.graph.nodes)[1]
    assert node.target == operator.gt


def test_symbolic_trace_cannot_branch_on_a_proxy():
    """`if` needs a real bool, but a Proxy has no value to compare, only a record of how it
    would be computed. So the tracer refuses to decide, with an exception class of its own
    (a ValueError subclass)."""

    def branchy(x):
        if x.sum() > 0:
            return x + 1
        return x - 1

    with pytest.raises(torch.fx.proxy.TraceError):
        torch.fx.symbolic_trace(branchy)


def test_torch_compile_waits_for_the_first_call():
    """torch.compile only wraps the function. Dynamo traces when the function is first called,
    because only then are the inputs known whose shapes and dtypes the graph will assume."""
    calls = []
    compiled = torch.compile(sine_twice, backend=recording_backend(calls))
    before = len(calls)
    compiled(torch.ones(3))
    assert (before, len(calls)) == (0, 1)


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


def test_the_backend_receives_the_inputs_of_the_triggering_call():
    """Beside the graph, a backend gets example inputs, so that it can run, time or check the
    graph while compiling. Stand-ins without data could not be run, and copies would cost
    memory: where do they come from?"""
    calls = []
    x = torch.ones(3)
    torch.compile(sine_twice, backend=recording_backend(calls))(x)
    _, example_inputs = calls[0]
    assert (example_inputs[0] is x) == True


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
    dtype and device of each result without computing anything. Anything that needs the actual
    numbers cannot be answered and raises an exception class of the fake-tensor module."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        a = torch.ones(2, 3)
        product = a @ a.T
        assert product.shape == (2, 2)
        with pytest.raises(torch._subclasses.fake_tensor.DataDependentOutputException):
            product.tolist()
