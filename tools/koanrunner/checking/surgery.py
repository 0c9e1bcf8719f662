"""Source surgery on a kata's module: one function or method replaced, put back to a stub, or
taken from the reference; what a stub leaves to the pair."""

from __future__ import annotations

import ast
import sys
import textwrap
from typing import Any




def _defs(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    """Top-level functions and classes, and the methods of top-level classes, by qualname."""
    found: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found[node.name] = node
        if isinstance(node, ast.ClassDef):
            for inner in node.body:
                if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found[f"{node.name}.{inner.name}"] = inner
    return found


def functions(source: str) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions and methods of a module, by qualname ('encode', 'Heap.collect')."""
    return {name: node for name, node in _defs(ast.parse(source)).items()
            if not isinstance(node, ast.ClassDef)}


def splice(source: str, qualname: str, replacement: str) -> str:
    """``source`` with the definition of ``qualname`` (decorators included) replaced by the
    code in ``replacement``, indented to where the definition stood."""
    node = _defs(ast.parse(source)).get(qualname)
    if node is None:
        raise KeyError(f"{qualname} is not defined in the module")
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    last = node.end_lineno or node.lineno
    lines = source.splitlines(keepends=True)
    indent = " " * node.col_offset
    new = textwrap.indent(textwrap.dedent(replacement).strip("\n") + "\n", indent)
    return "".join(lines[:first - 1]) + new + "".join(lines[last:])


def stubbed(source: str, qualname: str) -> str:
    """``source`` with ``qualname`` put back to a stub: same signature, raises NotImplementedError."""
    node = functions(source)[qualname]
    stub = ast.FunctionDef(name=node.name, args=node.args, body=[ast.Raise(
        exc=ast.Call(func=ast.Name("NotImplementedError", ast.Load()),
                     args=[ast.Constant(qualname)], keywords=[]), cause=None)],
        decorator_list=node.decorator_list, returns=node.returns, type_comment=None)
    if sys.version_info >= (3, 12):
        stub.type_params = []
    return splice(source, qualname, ast.unparse(ast.fix_missing_locations(stub)))


def unwritten(source: str) -> list[str]:
    """The functions a stub leaves to the pair: their body raises NotImplementedError."""
    found = []
    for name, node in functions(source).items():
        body = [n for n in node.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
        if len(body) == 1 and isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.dump(body[0]):
            found.append(name)
    return found


def partial(stub: str, reference: str, written: list[str]) -> str:
    """The reference as a pair would have it with only ``written`` done: every function the
    stub leaves unwritten, other than those, put back to a stub."""
    source = reference
    for name in unwritten(stub):
        if name not in written and name in functions(source):
            source = stubbed(source, name)
    return source


def take(target: str, reference: str, names: list[str]) -> str:
    """``target`` (a stub) with the definitions of ``names`` taken from ``reference``; module-level
    helpers the reference has and the target lacks come along (appended)."""
    ref_lines = reference.splitlines(keepends=True)
    ref_defs = _defs(ast.parse(reference))
    for name in names:
        node = ref_defs[name]
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        text = textwrap.dedent("".join(ref_lines[first - 1:node.end_lineno]))
        if name in _defs(ast.parse(target)):
            target = splice(target, name, text)
        else:
            target = target.rstrip("\n") + "\n\n\n" + text
    return target
