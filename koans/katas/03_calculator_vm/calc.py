"""A calculator built like an interpreter: tokens, a tree, bytecode, a loop that runs it.

Source text becomes tokens (a tokenizer), tokens become a tree that encodes precedence and
associativity (a Pratt parser), the tree becomes instructions for a stack machine (a compiler),
and a loop runs them (a virtual machine). CPython does the same with Python.

Trees are tuples: ("num", 2), ("name", "x"), ("neg", tree) and (op, left, right) for the binary
operators + - * / // % **. Instructions are tuples: ("PUSH", 2), ("LOAD", "x"), ("NEG",) and
("BINARY", op).

Write the five functions, one step at a time: test_steps.py says what each must do, in order.
Python's own tokenize, ast, dis and eval are the steps' referees, not yours.
"""

from __future__ import annotations

from typing import Any

Token = tuple[str, str]


def tokenize(source: str) -> list[Token]:
    """(kind, text) pairs: NUMBER, NAME or OP, and ("END", "") last."""
    raise NotImplementedError("tokenize")


def parse(source: str) -> Any:
    """The tree of an expression, with Python's precedence and associativity."""
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
