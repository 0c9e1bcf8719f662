"""A scalar reverse-mode autograd: values that remember how they were made.

Every operation on Values makes a new Value that keeps its operands and a small function that
knows the operation's local derivative. backward() then walks the graph from the output back to
the inputs, in reverse topological order, applying the chain rule: each node passes
out.grad * d(out)/d(operand) to its operands, and an operand used twice adds up both shares.
torch.autograd is this, for tensors.

The constructor is given. Write the rest, one step at a time: test_steps.py says what each
method must do, in order. torch and finite differences are the steps' referees, not yours.
"""

from __future__ import annotations

from collections.abc import Callable

Number = int | float


class Value:
    def __init__(self, data: Number, children: tuple[Value, ...] = (), op: str = "") -> None:
        self.data = float(data)
        self.grad = 0.0
        self._children = children  # the Values this one was computed from
        self._op = op  # how: "+", "*", "exp"... (for your own debugging)
        self._backward: Callable[[], None] = lambda: None  # passes self.grad on to the children

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
        """Every Value this one was made from, and itself last: each after the Values it was
        made from, each once."""
        raise NotImplementedError("Value.topological_order")

    def backward(self) -> None:
        """Fill in .grad of every Value this one was made from: d(self)/d(that value). The
        inputs (Values made from nothing) add to what they had, as torch's leaves do; what
        was computed starts afresh."""
        raise NotImplementedError("Value.backward")

    def __neg__(self) -> Value:
        raise NotImplementedError("Value.__neg__")

    def __sub__(self, other: Value | Number) -> Value:
        raise NotImplementedError("Value.__sub__")

    def __rsub__(self, other: Number) -> Value:
        raise NotImplementedError("Value.__rsub__")

    def __pow__(self, exponent: Number) -> Value:
        """A Value to a constant power."""
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
    """One step of gradient descent: each parameter moves against its gradient, by
    learning_rate times it, and its gradient goes back to 0 for the next backward() (torch's
    optimizer.step() and optimizer.zero_grad())."""
    raise NotImplementedError("sgd_step")
