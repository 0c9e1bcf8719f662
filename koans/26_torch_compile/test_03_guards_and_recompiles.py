"""Guards: what a compiled graph assumed, checked again on every call.

A graph is traced for particular inputs: their dtypes, shapes, requires_grad, the Python values
it read. Dynamo records these assumptions as guards. When a later call fails a guard, Dynamo
traces again; after a size changes once it retraces with a symbolic size; and past the
recompile limit it stops tracing, and a call that no cached graph fits runs in the interpreter.
"""

import pytest

torch = pytest.importorskip(
    "torch", reason="needs torch (pip install torch): these koans compile with torch.compile"
)

SCALE = 2


@pytest.fixture(autouse=True)
def fresh_dynamo():
    """Every koan starts with no compiled code and no shape history (none read from disk
    either), and leaves none behind for the next."""
    torch._dynamo.reset()
    with torch._dynamo.config.patch(automatic_dynamic_local_pgo=False):
        yield
    torch._dynamo.reset()


def recording_backend(calls):
    """A backend that notes each graph it is given, with its example inputs, and runs it."""

    def backend(graph_module, example_inputs):
        calls.append((graph_module, example_inputs))
        return graph_module.forward

    return backend


def affine(x):
    return x * 2 + 1


def scaled(x):
    return x * SCALE


def counts_after(compiled, calls, inputs):
    """How many graphs had been compiled after each call."""
    counts = []
    for x in inputs:
        compiled(x)
        counts.append(len(calls))
    return counts


def limit_setting():
    """The name of the recompile limit: `recompile_limit` in newer torch, `cache_size_limit` in
    older releases (newer ones keep it as an alias)."""
    return (
        "recompile_limit"
        if hasattr(torch._dynamo.config, "recompile_limit")
        else "cache_size_limit"
    )


def recompile_limit():
    return getattr(torch._dynamo.config, limit_setting())


def test_a_new_dtype_fails_a_guard_and_recompiles():
    """The graph was traced for float32, and a guard checks the dtype on every call. A float64
    input fails it and is traced again; both graphs stay cached, so going back to float32 costs
    nothing."""
    calls = []
    compiled = torch.compile(affine, backend=recording_backend(calls))
    inputs = [torch.ones(3), torch.ones(3), torch.ones(3, dtype=torch.float64), torch.ones(3)]
    assert counts_after(compiled, calls, inputs) == __


def test_a_python_global_read_by_the_function_is_guarded(monkeypatch):
    """The traced graph has the global's value baked in as a constant, so Dynamo guards on it.
    Changing the global fails the guard and compiles again; changing it back finds the first
    graph still cached."""
    calls = []
    compiled = torch.compile(scaled, backend=recording_backend(calls))
    counts = []
    for value in (2, 3, 2):
        monkeypatch.setitem(globals(), "SCALE", value)
        compiled(torch.ones(2))
        counts.append(len(calls))
    assert counts == __


def test_a_second_size_makes_the_size_symbolic():
    """The first graph assumes every size it saw. When a size changes, Dynamo marks that
    dimension dynamic and traces once more with a symbolic size, which later sizes satisfy
    without another compile (automatic dynamic shapes)."""
    calls = []
    compiled = torch.compile(affine, backend=recording_backend(calls))
    inputs = [torch.ones(3), torch.ones(4), torch.ones(5), torch.ones(6)]
    assert counts_after(compiled, calls, inputs) == __


def test_the_dynamic_graph_takes_the_size_as_an_input():
    """A graph with a symbolic size needs the size's value at run time, so the size becomes an
    extra graph input, placed before the tensor, and the backend's example inputs include it as
    a symbolic integer."""
    calls = []
    compiled = torch.compile(affine, backend=recording_backend(calls))
    compiled(torch.ones(3))
    compiled(torch.ones(4))
    _, example_inputs = calls[-1]
    assert [type(value).__name__ for value in example_inputs] == __


def test_sizes_zero_and_one_stay_specialised():
    """Even a dynamic graph assumes that a symbolic size is neither 0 nor 1, since those sizes
    behave differently (broadcasting, empty tensors). A size of 1 or 0 fails that guard and
    gets a graph of its own; other sizes reuse the dynamic one."""
    calls = []
    compiled = torch.compile(affine, backend=recording_backend(calls))
    counts_after(compiled, calls, [torch.ones(3), torch.ones(4)])
    assert counts_after(compiled, calls, [torch.ones(1), torch.ones(0), torch.ones(2)]) == __


def test_dynamo_caps_how_often_one_function_recompiles():
    """Each recompile costs a trace and a backend run, so Dynamo stops recompiling a function
    after a fixed number of graphs. The setting is `recompile_limit` since torch 2.7; older
    releases called it `cache_size_limit`, which newer ones keep as an alias."""
    assert recompile_limit() == __


def test_past_the_limit_the_function_runs_uncompiled():
    """With `dynamic=False` every new size fails a guard and is traced afresh, until the
    function has as many graphs as the limit allows. A call that fails every guard after that
    is not compiled again: the interpreter runs the original Python, with the same results,
    more slowly. Here the limit is lowered to make that visible."""
    calls = []
    compiled = torch.compile(affine, backend=recording_backend(calls), dynamic=False)
    with torch._dynamo.config.patch(**{limit_setting(): 3}):
        results = [compiled(torch.ones(n)).sum().item() for n in range(1, 7)]
    assert (len(calls), results) == __


def test_fullgraph_refuses_to_fall_back_at_the_limit():
    """fullgraph=True promises that the function always runs as a graph, so quietly falling
    back to the interpreter at the recompile limit would break the promise. Dynamo raises an
    exception class of its own instead (not a subclass of RuntimeError, unlike most of them)."""
    compiled = torch.compile(affine, backend="eager", dynamic=False, fullgraph=True)
    with torch._dynamo.config.patch(**{limit_setting(): 2}):
        compiled(torch.ones(1))
        compiled(torch.ones(2))
        with pytest.raises(___):
            compiled(torch.ones(3))
