"""Graph breaks: where Dynamo meets Python it cannot put in a graph, it splits the function.

The part before the break becomes one graph, the interpreter runs the untraceable bit, and a
resume function continues tracing after it. `torch._dynamo.explain` counts graphs and breaks;
`fullgraph=True` turns a break into an error.
"""

import sys

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


frames_seen = []


@torch._dynamo.disable
def note_the_frames():
    """Record the names of the frames of `three_stages` and of the functions made from it that
    are on the stack right now. Dynamo never traces this function: each call is a graph break."""
    frame, names = sys._getframe(1), []
    while frame is not None:
        if "three_stages" in frame.f_code.co_name:
            names.append(frame.f_code.co_name)
        frame = frame.f_back
    frames_seen.append(names)


def three_stages(x):
    y = x * 2
    note_the_frames()
    y = y + 1
    note_the_frames()
    y = y - 3
    note_the_frames()
    return y


def test_a_branch_on_tensor_data_splits_the_function():
    """Which way the `if` goes depends on the numbers in the tensor, which tracing does not know.
    Dynamo compiles the graph up to the condition, lets Python take the branch, and traces what
    follows as another graph."""
    explained = torch._dynamo.explain(branch_on_data)(torch.ones(3))
    assert (explained.graph_count, explained.graph_break_count) == __


def test_each_side_of_a_break_is_compiled_when_first_reached():
    """After the break, each branch continues in its own resume function, compiled the first
    time it runs. Count the graphs after each call."""
    calls = []
    compiled = torch.compile(branch_on_data, backend=recording_backend(calls))
    counts = []
    for x in (torch.ones(2), torch.ones(2), -torch.ones(2), -torch.ones(2)):
        compiled(x)
        counts.append(len(calls))
    assert counts == __


def test_print_inside_a_compiled_function(capsys):
    """print is a side effect a graph cannot hold, so Dynamo breaks the graph around it and the
    interpreter performs it whenever the compiled function runs, not once at tracing time."""

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


def test_fullgraph_and_item():
    """`.item()` turns a tensor into a Python number, which Dynamo by default does not put in a
    graph: it breaks there. fullgraph=True forbids breaks, and for `.item()` Dynamo has another
    way out: it switches on its capture of scalar outputs, so that `item` becomes a graph node
    that yields a symbolic number. Count the graphs each way."""
    default, whole = [], []
    torch.compile(scalar_out, backend=recording_backend(default))(torch.ones(3))
    torch._dynamo.reset()
    torch.compile(scalar_out, backend=recording_backend(whole), fullgraph=True)(torch.ones(3))
    assert (len(default), len(whole)) == __


def test_a_break_resumes_in_a_function_dynamo_generates():
    """At a break Dynamo compiles the graph so far and rewrites the frame's bytecode: run that
    graph, run the untraceable call in the interpreter, then call a resume function that Dynamo
    generated for the rest of the body, named `torch_dynamo_resume_in_<function>_at_<line>`
    and compiled in its turn. `note_the_frames` lists the frames of `three_stages` and of its
    resume functions on the stack when it runs. How many does each of its three calls see?"""
    calls = []
    frames_seen.clear()
    torch.compile(three_stages, backend=recording_backend(calls))(torch.ones(2))
    assert all(names[-1] == "three_stages" for names in frames_seen)
    assert (len(calls), [len(names) for names in frames_seen]) == __
