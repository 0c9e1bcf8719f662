"""Whole-program capture: torch.export today, TorchScript before it.

torch.export captures a whole module as one graph of ATen operations for deployment, with no
interpreter to fall back on, so it must settle every branch while tracing or capture both
sides with `torch.cond`. TorchScript, the older route, either traced one path
(`torch.jit.trace`) or compiled the source with its control flow (`torch.jit.script`); both
still work in torch 2.13 and warn that they are deprecated.
"""

import io
import warnings

import pytest

torch = pytest.importorskip(
    "torch", reason="needs torch (pip install torch): these koans capture whole programs"
)


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


class CondBranch(torch.nn.Module):
    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda x: x + 1, lambda x: x - 1, (x,))


def exports(module):
    """Whether torch.export can capture the module, given a 3-element example input."""
    from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode

    try:
        torch.export.export(module, (torch.ones(3),))
    except GuardOnDataDependentSymNode:  # "Could not guard on data-dependent expression ..."
        return False
    return True


def quietly(capture, *args):
    """Run a capture function, recording its warnings; returns (result, warning categories)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = capture(*args)
    return result, [w.category for w in caught]


def test_export_has_no_fallback_for_a_data_dependent_branch():
    """export traces with symbolic values and must decide each `if` for every possible input.
    A shape is fixed by the example unless you say otherwise; the sum of the values is an
    unknown symbol, so no single branch is right, and export raises where torch.compile would
    have broken the graph. `torch.cond(pred, true_fn, false_fn, operands)` instead records both
    functions as subgraphs and chooses between them at run time. Which modules can export
    capture?"""
    modules = {"data": DataBranch(), "shape": ShapeBranch(), "cond": CondBranch()}
    captured = [name for name, module in modules.items() if exports(module)]
    assert captured == ["shape", "cond"]


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


def test_a_scripted_if_is_a_node_with_two_blocks():
    """`torch.jit.script` parses the source and compiles it into TorchScript's own graph: one
    node per operation, named `aten::` for ATen's tensor operators and `prim::` for the
    language's own constructs. The `if` becomes a `prim::If` node that holds each branch as a
    block of nodes, decided per call. What does each block of the `if` hold?"""
    scripted, _ = quietly(torch.jit.script, branch_on_data)
    branch = next(node for node in scripted.graph.nodes() if node.kind() == "prim::If")
    blocks = [[node.kind() for node in block.nodes()] for block in branch.blocks()]
    assert scripted(-torch.ones(3)).tolist() == [-2.0, -2.0, -2.0]
    assert blocks == [["aten::add"], ["aten::sub"]]


def test_a_saved_torchscript_program_is_a_zip_archive():
    """`torch.jit.save` writes code, constants and tensors as entries of a zip archive, the same
    container as `torch.save`, so the file starts with the zip format's local-header magic."""
    scripted, _ = quietly(torch.jit.script, branch_on_data)
    buffer = io.BytesIO()
    quietly(torch.jit.save, scripted, buffer)
    assert buffer.getvalue()[:4] == b"PK\x03\x04"
