"""A scalar reverse-mode autograd."""

from __future__ import annotations

from collections.abc import Callable

Number = int | float


class Value:
    def __init__(self, data: Number, children: tuple[Value, ...] = (), op: str = "") -> None:
        self.data = float(data)
        self.grad = 0.0
        self._children = children
        self._op = op
        self._backward: Callable[[], None] = lambda: None

    def __repr__(self) -> str:
        return f"Value(data={self.data}, grad={self.grad})"

    def __add__(self, other: Value | Number) -> Value:
        raise NotImplementedError("Value.__add__")

    def __mul__(self, other: Value | Number) -> Value:
        raise NotImplementedError("Value.__mul__")

    def __radd__(self, other: Number) -> Value:
        raise NotImplementedError("Value.__radd__")

    def __rmul__(self, other: Number) -> Value:
        raise NotImplementedError("Value.__rmul__")

    def topological_order(self) -> list[Value]:
        raise NotImplementedError("Value.topological_order")

    def backward(self) -> None:
        raise NotImplementedError("Value.backward")

    def __neg__(self) -> Value:
        raise NotImplementedError("Value.__neg__")

    def __sub__(self, other: Value | Number) -> Value:
        raise NotImplementedError("Value.__sub__")

    def __rsub__(self, other: Number) -> Value:
        raise NotImplementedError("Value.__rsub__")

    def __pow__(self, exponent: Number) -> Value:
        raise NotImplementedError("Value.__pow__")

    def __truediv__(self, other: Value | Number) -> Value:
        raise NotImplementedError("Value.__truediv__")

    def __rtruediv__(self, other: Number) -> Value:
        raise NotImplementedError("Value.__rtruediv__")

    def exp(self) -> Value:
        raise NotImplementedError("Value.exp")

    def log(self) -> Value:
        raise NotImplementedError("Value.log")

    def tanh(self) -> Value:
        raise NotImplementedError("Value.tanh")

    def relu(self) -> Value:
        raise NotImplementedError("Value.relu")


def sgd_step(parameters: list[Value], learning_rate: float) -> None:
    """One step of gradient descent."""
    raise NotImplementedError("sgd_step")
