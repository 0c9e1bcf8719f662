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


def outcomes(fullgraph, sizes, limit):
    """Compile `affine` without dynamic shapes, call it on tensors of the given sizes with the
    recompile limit set to `limit`, and say for each call what happened: "traced" (a new graph
    was compiled), "cached" (a graph compiled before ran), "interpreted" (no graph ran: the
    original Python did) or "refused" (Dynamo raised instead)."""
    traced, ran = [], []

    def backend(graph_module, example_inputs):
        traced.append(graph_module)

        def run(*args):
            ran.append(graph_module)
            return graph_module.forward(*args)

        return run

    compiled = torch.compile(affine, backend=backend, dynamic=False, fullgraph=fullgraph)
    seen = []
    with torch._dynamo.config.patch(**{limit_setting(): limit}):
        for n in sizes:
            before = (len(traced), len(ran))
            try:
                compiled(torch.ones(n))
            except torch._dynamo.exc.FailOnRecompileLimitHit:
                seen.append("refused")
                continue
            if len(traced) > before[0]:
                seen.append("traced")
            else:
                seen.append("cached" if len(ran) > before[1] else "interpreted")
    return seen


def test_a_new_dtype_fails_a_guard_and_recompiles():
    """The graph was traced for float32, and a guard checks the dtype on every call. Dynamo
    keeps the graphs of a function in a cache, each with its own guards. Count the graphs after
    each call."""
    calls = []
    compiled = torch.compile(affine, backend=recording_backend(calls))
    inputs = [torch.ones(3), torch.ones(3), torch.ones(3, dtype=torch.float64), torch.ones(3)]
    assert counts_after(compiled, calls, inputs) == [1, 1, 2, 2]


def test_a_python_global_read_by_the_function_is_guarded(monkeypatch):
    """The traced graph has the global's value baked in as a constant, so Dynamo guards on the
    global's value as it guards on the inputs. Count the graphs as the global changes and
    changes back."""
    calls = []
    compiled = torch.compile(scaled, backend=recording_backend(calls))
    counts = []
    for value in (2, 3, 2):
        monkeypatch.setitem(globals(), "SCALE", value)
        compiled(torch.ones(2))
        counts.append(len(calls))
    assert counts == [1, 2, 2]


def test_a_second_size_makes_the_size_symbolic():
    """The first graph assumes every size it saw. When a size changes, Dynamo marks that
    dimension dynamic and traces again with a symbolic size, a stand-in for any size
    (automatic dynamic shapes). Count the graphs after each call."""
    calls = []
    compiled = torch.compile(affine, backend=recording_backend(calls))
    inputs = [torch.ones(3), torch.ones(4), torch.ones(5), torch.ones(6)]
    assert counts_after(compiled, calls, inputs) == [1, 2, 2, 2]


def test_the_dynamic_graph_takes_the_size_as_an_input():
    """A graph with a symbolic size needs the size's value at run time, so the size becomes an
    extra graph input. What are the types of the backend's example inputs, in order?"""
    calls = []
    compiled = torch.compile(affine, backend=recording_backend(calls))
    compiled(torch.ones(3))
    compiled(torch.ones(4))
    _, example_inputs = calls[-1]
    assert [type(value).__name__ for value in example_inputs] == ["SymInt", "Tensor"]


def test_sizes_zero_and_one_stay_specialised():
    """Even a dynamic graph assumes that a symbolic size is neither 0 nor 1, since those sizes
    behave differently (a size of 1 broadcasts, a size of 0 makes an empty tensor), and it
    guards on that assumption."""
    calls = []
    compiled = torch.compile(affine, backend=recording_backend(calls))
    counts_after(compiled, calls, [torch.ones(3), torch.ones(4)])
    assert counts_after(compiled, calls, [torch.ones(1), torch.ones(0), torch.ones(2)]) == [3, 4, 4]


def test_what_the_recompile_limit_does_to_later_calls():
    """With `dynamic=False` every new size fails a guard and is traced afresh, until the
    function has as many graphs as the recompile limit allows (8 by default, lowered to 2 here
    to make it visible). Past the limit Dynamo traces the function no more, but it still checks
    the guards of the graphs it has. What happens on each call?"""
    seen = outcomes(False, [1, 2, 3, 1], limit=2)
    assert seen == ["traced", "traced", "interpreted", "cached"]


def test_fullgraph_at_the_recompile_limit():
    """fullgraph=True promises that the function always runs as one graph, so quietly running
    the original Python at the recompile limit would break the promise. What happens on each
    call now?"""
    seen = outcomes(True, [1, 2, 3, 1], limit=2)
    assert seen == ["traced", "traced", "refused", "cached"]  # FailOnRecompileLimitHit
