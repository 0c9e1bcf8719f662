"""A calculator built like an interpreter: tokens, a tree, bytecode, a loop that runs it.

Source text becomes tokens (a tokenizer), tokens become a tree that encodes precedence and
associativity (a Pratt parser), the tree becomes instructions for a stack machine (a compiler),
and a loop runs them (a virtual machine). CPython does the same with Python.

Trees are tuples: ("num", 2), ("name", "x"), ("neg", tree) and (op, left, right) for the binary
operators + - * / // % **. Instructions are tuples: ("PUSH", 2), ("LOAD", "x"), ("NEG",) and
("BINARY", op).
"""

from __future__ import annotations

import operator
import re
from typing import Any

TOKEN = re.compile(r"\s*(?:(?P<NUMBER>\d+(?:\.\d+)?)|(?P<NAME>[A-Za-z_]\w*)|(?P<OP>\*\*|//|[-+*/%()]))")
BINARY = {"+": (10, 11), "-": (10, 11), "*": (20, 21), "/": (20, 21), "//": (20, 21), "%": (20, 21),
          "**": (40, 39)}  # (left, right) binding powers; right < left makes ** right-associative
PREFIX = 30  # unary minus binds less tightly than ** on its right: -2 ** 2 == -(2 ** 2)
OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
             "//": operator.floordiv, "%": operator.mod, "**": operator.pow}

Token = tuple[str, str]


def tokenize(source: str) -> list[Token]:
    """(kind, text) pairs: NUMBER, NAME or OP, and ("END", "") last."""
    tokens: list[Token] = []
    at = 0
    source = source.rstrip()
    while at < len(source):
        match = TOKEN.match(source, at)
        if match is None:
            raise SyntaxError(f"unexpected character {source[at:].lstrip()[:1]!r} at {at}")
        kind = match.lastgroup or "OP"
        tokens.append((kind, match.group(kind)))
        at = match.end()
    return [*tokens, ("END", "")]


def parse_atom(tokens: list[Token], at: int) -> tuple[Any, int]:
    """A number or a name at tokens[at]: its tree, and the position after it."""
    kind, text = tokens[at]
    if kind == "NUMBER":
        return ("num", float(text) if "." in text else int(text)), at + 1
    if kind == "NAME":
        return ("name", text), at + 1
    raise SyntaxError(f"expected a number or a name, found {text or 'the end'!r}")


def parse_expression(tokens: list[Token], at: int, min_power: int = 0) -> tuple[Any, int]:
    """The expression from tokens[at] whose operators bind at least as tightly as min_power:
    its tree, and the position of the first token not in it."""
    if tokens[at] in (("OP", "-"), ("OP", "(")):
        left, at = parse_prefix(tokens, at)
    else:
        left, at = parse_atom(tokens, at)
    while True:
        kind, text = tokens[at]
        if kind != "OP" or text not in BINARY:
            return left, at
        left_power, right_power = BINARY[text]
        if left_power < min_power:
            return left, at
        right, at = parse_expression(tokens, at + 1, right_power)
        left = (text, left, right)


def parse_prefix(tokens: list[Token], at: int) -> tuple[Any, int]:
    """Unary minus, or an expression in brackets, at tokens[at]: its tree, and the position
    after it."""
    if tokens[at] == ("OP", "-"):
        operand, at = parse_expression(tokens, at + 1, PREFIX)
        return ("neg", operand), at
    if tokens[at] == ("OP", "("):
        inner, at = parse_expression(tokens, at + 1)
        if tokens[at] != ("OP", ")"):
            raise SyntaxError("'(' was never closed")
        return inner, at + 1
    raise SyntaxError(f"expected '-' or '(', found {tokens[at][1] or 'the end'!r}")


def parse(source: str) -> Any:
    """The tree of an expression, with Python's precedence and associativity."""
    tokens = tokenize(source)
    tree, at = parse_expression(tokens, 0)
    kind, text = tokens[at]
    if kind != "END":
        raise SyntaxError(f"unexpected {text!r} after a complete expression")
    return tree


def compile_tree(tree: Any) -> list[tuple[Any, ...]]:
    """Stack-machine code: operands first, then what combines them (postfix order)."""
    code: list[tuple[Any, ...]] = []

    def emit(node: Any) -> None:
        kind = node[0]
        if kind == "num":
            code.append(("PUSH", node[1]))
        elif kind == "name":
            code.append(("LOAD", node[1]))
        elif kind == "neg":
            emit(node[1])
            code.append(("NEG",))
        else:
            emit(node[1])
            emit(node[2])
            code.append(("BINARY", kind))

    emit(tree)
    return code


def run(code: list[tuple[Any, ...]], env: dict[str, Any] | None = None) -> Any:
    """The virtual machine: one loop, one stack."""
    env = env or {}
    stack: list[Any] = []
    for instruction in code:
        op = instruction[0]
        if op == "PUSH":
            stack.append(instruction[1])
        elif op == "LOAD":
            name = instruction[1]
            if name not in env:
                raise NameError(f"name {name!r} is not defined")
            stack.append(env[name])
        elif op == "NEG":
            stack.append(-stack.pop())
        elif op == "BINARY":
            right = stack.pop()
            left = stack.pop()
            stack.append(OPERATORS[instruction[1]](left, right))
        else:
            raise ValueError(f"unknown instruction {instruction!r}")
    return stack.pop()


def optimize(code: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Constant folding, as a peephole pass: an operation on constants becomes its result,
    unless computing it raises (that is left for run time, as CPython leaves 1 // 0)."""
    out: list[tuple[Any, ...]] = []
    for instruction in code:
        out.append(instruction)
        if instruction[0] == "NEG" and len(out) >= 2 and out[-2][0] == "PUSH":
            out[-2:] = [("PUSH", -out[-2][1])]
        elif (instruction[0] == "BINARY" and len(out) >= 3 and out[-2][0] == "PUSH"
              and out[-3][0] == "PUSH"):
            try:
                value = OPERATORS[instruction[1]](out[-3][1], out[-2][1])
            except ArithmeticError:
                continue
            out[-3:] = [("PUSH", value)]
    return out
