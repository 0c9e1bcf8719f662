"""A scalar reverse-mode autograd: values that remember how they were made.

Every operation on Values makes a new Value that keeps its operands and a small function that
knows the operation's local derivative. backward() then walks the graph from the output back to
the inputs, in reverse topological order, applying the chain rule: each node passes
out.grad * d(out)/d(operand) to its operands, and an operand used twice adds up both shares.
torch.autograd is this, for tensors.
"""

from __future__ import annotations

import math
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
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward() -> None:
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other: Value | Number) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward() -> None:
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __radd__(self, other: Number) -> Value:
        return self + other

    def __rmul__(self, other: Number) -> Value:
        return self * other

    def topological_order(self) -> list[Value]:
        """Every Value this one was made from, and itself last: each after the Values it was
        made from, each once."""
        order: list[Value] = []
        seen: set[int] = set()
        stack: list[tuple[Value, bool]] = [(self, False)]
        while stack:  # a depth-first postorder without recursion: graphs can be deep
            node, children_done = stack.pop()
            if children_done:
                order.append(node)
                continue
            if id(node) in seen:
                continue
            seen.add(id(node))
            stack.append((node, True))
            stack.extend((child, False) for child in node._children if id(child) not in seen)
        return order

    def backward(self) -> None:
        """Fill in .grad of every Value this one was made from: d(self)/d(that value). The
        inputs (Values made from nothing) add to what they had, as torch's leaves do; what
        was computed starts afresh."""
        order = self.topological_order()
        for node in order:
            if node._children:
                node.grad = 0.0
        self.grad += 1.0
        for node in reversed(order):
            node._backward()

    def __neg__(self) -> Value:
        return self * -1

    def __sub__(self, other: Value | Number) -> Value:
        return self + (-other)

    def __rsub__(self, other: Number) -> Value:
        return other + (-self)

    def __pow__(self, exponent: Number) -> Value:
        out = Value(self.data ** exponent, (self,), f"**{exponent}")

        def _backward() -> None:
            self.grad += exponent * self.data ** (exponent - 1) * out.grad

        out._backward = _backward
        return out

    def __truediv__(self, other: Value | Number) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        return self * other ** -1

    def __rtruediv__(self, other: Number) -> Value:
        return Value(other) * self ** -1

    def exp(self) -> Value:
        out = Value(math.exp(self.data), (self,), "exp")

        def _backward() -> None:
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    def log(self) -> Value:
        out = Value(math.log(self.data), (self,), "log")

        def _backward() -> None:
            self.grad += out.grad / self.data

        out._backward = _backward
        return out

    def tanh(self) -> Value:
        out = Value(math.tanh(self.data), (self,), "tanh")

        def _backward() -> None:
            self.grad += (1 - out.data * out.data) * out.grad

        out._backward = _backward
        return out

    def relu(self) -> Value:
        out = Value(self.data if self.data > 0 else 0.0, (self,), "relu")

        def _backward() -> None:
            self.grad += (1.0 if self.data > 0 else 0.0) * out.grad  # at 0: 0, as torch

        out._backward = _backward
        return out


def sgd_step(parameters: list[Value], learning_rate: float) -> None:
    """One step of gradient descent: each parameter moves against its gradient, by
    learning_rate times it, and its gradient goes back to 0 for the next backward() (torch's
    optimizer.step() and optimizer.zero_grad())."""
    for parameter in parameters:
        parameter.data -= learning_rate * parameter.grad
        parameter.grad = 0.0
