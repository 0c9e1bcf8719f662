"""Whole-program capture: torch.export today, TorchScript before it.

torch.export captures a whole module as one graph of ATen operations for deployment, with no
interpreter to fall back on, so it must settle every branch while tracing. TorchScript, the
older route, either traced one path (`torch.jit.trace`) or compiled the source with its control
flow (`torch.jit.script`); both now warn that they are deprecated.
"""

import io
import warnings

import pytest

torch = pytest.importorskip(
    "torch", reason="needs torch (pip install torch): these koans capture whole programs"
)
# The module whose exceptions export raises about symbolic values, imported so they can be named.
pytest.importorskip("torch.fx.experimental.symbolic_shapes")


def branch_on_data(x):
    if x.sum() > 0:
        return x + 1
    return x - 1


def branch_on_shape(x):
    if x.shape[0] > 2:
        return x + 1
    return x - 1


class DataBranch(torch.nn.Module):
    def forward(self, x):
        return branch_on_data(x)


class ShapeBranch(torch.nn.Module):
    def forward(self, x):
        return branch_on_shape(x)


def quietly(capture, *args):
    """Run a capture function, recording its warnings; returns (result, warning categories)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = capture(*args)
    return result, [w.category for w in caught]


def test_export_has_no_fallback_for_a_data_dependent_branch():
    """export traces with symbolic values and must decide the `if` for every possible input. The
    sum's value is an unknown symbol, so no single branch is right, and export raises where
    torch.compile would have broken the graph. The exception comes from the symbolic-shapes
    machinery and subclasses RuntimeError."""
    with pytest.raises(torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode):
        torch.export.export(DataBranch(), (torch.ones(3),))


def test_export_settles_a_branch_on_a_shape_while_tracing():
    """A branch on a size is decided by the example input's shape, which export treats as fixed
    unless told otherwise. Only the operations of the branch taken reach the graph."""
    program = torch.export.export(ShapeBranch(), (torch.ones(3),))
    targets = [str(node.target) for node in program.graph.nodes if node.op == "call_function"]
    assert targets == ["aten.add.Tensor"]


def test_an_exported_program_checks_the_shapes_it_assumed():
    """The exported program is correct only for inputs of the shape it was traced with, so its
    module checks the input shape on every call and refuses any other."""
    program = torch.export.export(ShapeBranch(), (torch.ones(3),))
    with pytest.raises(AssertionError):
        program.module()(torch.ones(1))


def test_trace_records_only_the_path_the_example_took():
    """`torch.jit.trace` runs the function once on the example and records the operations that
    ran. The `if` is evaluated in Python during tracing, so the recorded graph holds one branch
    and applies it to every later input."""
    traced, _ = quietly(torch.jit.trace, branch_on_data, torch.ones(3))
    assert traced(-torch.ones(3)).tolist() == [0.0, 0.0, 0.0]


def test_trace_warns_about_the_branch_and_about_itself():
    """Turning a tensor into a Python bool during tracing loses the data flow, and the tracer
    says so with a warning class of its own. Tracing also warns that TorchScript is on its way
    out, in favour of torch.compile and torch.export."""
    _, categories = quietly(torch.jit.trace, branch_on_data, torch.ones(3))
    assert sorted({category.__name__ for category in categories}) == [
        "DeprecationWarning",
        "TracerWarning",
    ]


def test_script_compiles_both_branches():
    """`torch.jit.script` parses the source and compiles the `if` itself into the graph, so the
    branch is decided per call, by the input given."""
    scripted, _ = quietly(torch.jit.script, branch_on_data)
    assert scripted(-torch.ones(3)).tolist() == [-2.0, -2.0, -2.0]


def test_script_warns_that_torchscript_is_on_its_way_out():
    """Scripting a function that needs no tracing tricks still warns once: the whole of
    TorchScript is deprecated in favour of torch.compile and torch.export."""
    _, categories = quietly(torch.jit.script, branch_on_data)
    assert categories == [DeprecationWarning]


def test_a_saved_torchscript_program_is_a_zip_archive():
    """`torch.jit.save` writes code, constants and tensors as entries of a zip archive, the same
    container as `torch.save`, so the file starts with the zip format's local-header magic."""
    scripted, _ = quietly(torch.jit.script, branch_on_data)
    buffer = io.BytesIO()
    quietly(torch.jit.save, scripted, buffer)
    assert buffer.getvalue()[:4] == b"PK\x03\x04"
