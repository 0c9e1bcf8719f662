"""A calculator built like an interpreter: tokens, a tree, bytecode, a loop that runs it.

Source text becomes tokens (a tokenizer), tokens become a tree that encodes precedence and
associativity (a Pratt parser), the tree becomes instructions for a stack machine (a compiler),
and a loop runs them (a virtual machine). CPython does the same with Python.

Trees are tuples: ("num", 2), ("name", "x"), ("neg", tree) and (op, left, right) for the binary
operators + - * / // % **. Instructions are tuples: ("PUSH", 2), ("LOAD", "x"), ("NEG",) and
("BINARY", op).

Write the functions, one step at a time: test_steps.py says what each must do, in order.
Python's own tokenize, ast, dis and eval are the steps' referees, not yours.
"""

from __future__ import annotations

from typing import Any

Token = tuple[str, str]


def tokenize(source: str) -> list[Token]:
    """(kind, text) pairs: NUMBER, NAME or OP, and ("END", "") last."""
    raise NotImplementedError("tokenize")


def parse_atom(tokens: list[Token], at: int) -> tuple[Any, int]:
    """A number or a name at tokens[at]: its tree, and the position after it."""
    raise NotImplementedError("parse_atom")


def parse_expression(tokens: list[Token], at: int, min_power: int = 0) -> tuple[Any, int]:
    """The expression from tokens[at] whose operators bind at least as tightly as min_power:
    its tree, and the position of the first token not in it. Give each binary operator a
    (left, right) pair of binding powers of your choosing."""
    raise NotImplementedError("parse_expression")


def parse_prefix(tokens: list[Token], at: int) -> tuple[Any, int]:
    """Unary minus, or an expression in brackets, at tokens[at]: its tree, and the position
    after it."""
    raise NotImplementedError("parse_prefix")


def parse(source: str) -> Any:
    """The tree of a whole expression, with Python's precedence and associativity."""
    raise NotImplementedError("parse")


def compile_tree(tree: Any) -> list[tuple[Any, ...]]:
    """Stack-machine code for a tree."""
    raise NotImplementedError("compile_tree")


def run(code: list[tuple[Any, ...]], env: dict[str, Any] | None = None) -> Any:
    """Run stack-machine code; ``env`` gives the variables' values."""
    raise NotImplementedError("run")


def optimize(code: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The same code with operations on constants folded into their results."""
    raise NotImplementedError("optimize")
