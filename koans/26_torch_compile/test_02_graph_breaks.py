"""Graph breaks: where Dynamo meets Python it cannot put in a graph, it splits the function.

The part before the break becomes one graph, the interpreter runs the untraceable bit, and a
resume function continues tracing after it. `torch._dynamo.explain` counts graphs and breaks;
`fullgraph=True` turns a break into an error.
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


def recording_backend(calls):
    """A backend that notes each graph it is given and runs it as it is."""

    def backend(graph_module, example_inputs):
        calls.append(graph_module)
        return graph_module.forward

    return backend


def branch_on_data(x):
    y = x * 2
    if y.sum() > 0:
        return y + 1
    return y - 1


def scalar_out(x):
    y = x * 2
    n = y.sum().item()
    return y + n


def test_a_branch_on_tensor_data_splits_the_function():
    """Which way the `if` goes depends on the numbers in the tensor, which tracing does not know.
    Dynamo compiles the graph up to the condition, lets Python take the branch, and traces what
    follows as another graph."""
    explained = torch._dynamo.explain(branch_on_data)(torch.ones(3))
    assert (explained.graph_count, explained.graph_break_count) == __


def test_each_side_of_a_break_is_compiled_when_first_reached():
    """After the break, each branch continues in its own resume function, compiled the first
    time it runs. Repeating an input reuses what was compiled; the other branch costs one more
    graph when first taken."""
    calls = []
    compiled = torch.compile(branch_on_data, backend=recording_backend(calls))
    counts = []
    for x in (torch.ones(2), torch.ones(2), -torch.ones(2), -torch.ones(2)):
        compiled(x)
        counts.append(len(calls))
    assert counts == __


def test_print_runs_in_python_on_every_call(capsys):
    """print is a side effect a graph cannot hold, so Dynamo breaks the graph around it and the
    interpreter performs it whenever the compiled function runs: the side effect is neither
    lost in compilation nor done once at tracing time."""

    def noisy(x):
        y = x * 2
        print("tick")
        return y + 1

    calls = []
    compiled = torch.compile(noisy, backend=recording_backend(calls))
    for _ in range(3):
        compiled(torch.ones(2))
    assert (len(calls), capsys.readouterr().out.count("tick")) == __


def test_fullgraph_turns_a_break_into_an_error():
    """With fullgraph=True Dynamo must produce one graph or none: instead of falling back to
    the interpreter at the data-dependent `if`, it raises its own exception class for things it
    does not support (a RuntimeError subclass)."""
    compiled = torch.compile(branch_on_data, backend="eager", fullgraph=True)
    with pytest.raises(___):
        compiled(torch.ones(3))


def test_fullgraph_captures_item_instead_of_breaking():
    """`.item()` turns a tensor into a Python number, which Dynamo by default does not put in a
    graph. Under fullgraph=True it switches on capturing scalar outputs instead: `item` can then
    be a graph node that yields a symbolic number."""
    default, whole = [], []
    torch.compile(scalar_out, backend=recording_backend(default))(torch.ones(3))
    torch._dynamo.reset()
    torch.compile(scalar_out, backend=recording_backend(whole), fullgraph=True)(torch.ones(3))
    assert (len(default), len(whole)) == __
