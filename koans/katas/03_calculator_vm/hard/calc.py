"""A calculator built like an interpreter: tokens, a tree, bytecode, a loop that runs it."""

from __future__ import annotations

from typing import Any

Token = tuple[str, str]


def tokenize(source: str) -> list[Token]:
    """(kind, text) pairs, ("END", "") last."""
    raise NotImplementedError("tokenize")


def parse_atom(tokens: list[Token], at: int) -> tuple[Any, int]:
    """A number or a name: (tree, next position)."""
    raise NotImplementedError("parse_atom")


def parse_expression(tokens: list[Token], at: int, min_power: int = 0) -> tuple[Any, int]:
    """Binary operators by binding power: (tree, next position)."""
    raise NotImplementedError("parse_expression")


def parse_prefix(tokens: list[Token], at: int) -> tuple[Any, int]:
    """Unary minus or brackets: (tree, next position)."""
    raise NotImplementedError("parse_prefix")


def parse(source: str) -> Any:
    """The tree of a whole expression."""
    raise NotImplementedError("parse")


def compile_tree(tree: Any) -> list[tuple[Any, ...]]:
    """Stack-machine code for a tree."""
    raise NotImplementedError("compile_tree")


def run(code: list[tuple[Any, ...]], env: dict[str, Any] | None = None) -> Any:
    """Run stack-machine code."""
    raise NotImplementedError("run")


def optimize(code: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Constant folding."""
    raise NotImplementedError("optimize")
