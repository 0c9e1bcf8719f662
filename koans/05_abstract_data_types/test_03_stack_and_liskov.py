"""A stack is an abstract data type: a set of operations plus a law (last in,
first out). Property tests state the law once and check it against any class that
claims to be a stack."""

import functools

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample


class Stack:
    def __init__(self):
        self._items = []

    def push(self, item):
        self._items.append(item)

    def pop(self):
        return self._items.pop()

    def peek(self):
        return self._items[-1]

    def __len__(self):
        return len(self._items)


class CountingStack(Stack):
    """Adds a statistic, changes no behaviour."""

    def __init__(self):
        super().__init__()
        self.pushes = 0

    def push(self, item):
        self.pushes += 1
        super().push(item)


class QueueStack(Stack):
    """Same method names, but pop takes the oldest item (first in, first out)."""

    def pop(self):
        return self._items.pop(0)


class BoundedStack(Stack):
    """Refuses a push beyond its capacity: a stronger precondition on push."""

    capacity = 3

    def push(self, item):
        if len(self) >= self.capacity:
            raise OverflowError("stack is full")
        super().push(item)


# An operation list such as [("push", 5), ("pop", None), ("push", -1)].
operations = st.lists(
    st.one_of(st.tuples(st.just("push"), st.integers()), st.just(("pop", None))),
    max_size=10,
)


def breaks_the_law(cls, ops):
    """Run ops on a new cls() and on a plain list used as the model. The law: every pop
    returns what the model's pop returns, and the sizes agree at the end. Pops on an empty
    model are skipped. A stack that raises on an operation the specification allows breaks
    the law as surely as a wrong pop."""
    stack, model = cls(), []
    try:
        for name, value in ops:
            if name == "push":
                stack.push(value)
                model.append(value)
            elif model and stack.pop() != model.pop():
                return True
        return len(stack) != len(model)
    except Exception:  # the stack refused a push, or a pop of a non-empty stack
        return True


@functools.cache  # the search is deterministic, so each class is searched once per run
def shortest_counterexample(cls):
    """Let Hypothesis hunt for an operation list that breaks the law for cls, and shrink
    what it finds to the simplest list that still breaks it. None when it finds none."""
    search = settings(max_examples=50, derandomize=True, database=None)
    try:
        return find(operations, lambda ops: breaks_the_law(cls, ops), settings=search)
    except NoSuchExample:
        return None


@given(st.lists(st.integers()), st.integers())
def test_pop_returns_the_item_just_pushed(history, x):
    """Whatever the stack held before, a push followed by a pop gives back the
    pushed item: the defining equation pop(push(s, x)) = x."""
    s = Stack()
    for item in history:
        s.push(item)
    s.push(x)
    assert s.pop() == __


@given(st.lists(st.integers(), min_size=1))
def test_peek_shows_the_top_without_removing_it(items):
    """peek(s) equals the item pop(s) would return, and leaves the size alone."""
    s = Stack()
    for item in items:
        s.push(item)
    top = s.peek()
    assert (top, len(s)) == (items[-1], __)


def test_popping_an_empty_stack_leaks_the_list_exception():
    """The representation is a list, and Stack.pop is list.pop. The ADT leaks its
    implementation's exception unless it wraps it: the caller sees whatever an empty
    list says."""
    with pytest.raises(___):
        Stack().pop()


@pytest.mark.slow  # Hypothesis searches and shrinks three classes: seconds on a busy machine
def test_one_law_sorts_the_stacks_from_the_look_alikes():
    """Liskov: a subtype must keep the supertype's laws. It may add behaviour, but it may not
    change what the supertype's operations promise, nor demand more of its callers. The law
    function is the same for every class; only the class passed in changes, and Hypothesis
    tries up to 50 operation lists of up to ten steps on each. Read the four classes above:
    for which of them does it find no counterexample?"""
    classes = (Stack, CountingStack, QueueStack, BoundedStack)
    lawful = [cls.__name__ for cls in classes if shortest_counterexample(cls) is None]
    assert lawful == __


def test_hypothesis_shrinks_the_counterexample_for_a_first_in_first_out_pop():
    """When Hypothesis finds a failing example it shrinks it: it deletes steps and
    simplifies values for as long as the example still fails, so no step it reports can
    be left out. QueueStack has every method a Stack has, so duck typing
    accepts it, but its pop takes the item that went in first. Which operations make the
    shortest list that tells it apart from a stack?"""
    counterexample = shortest_counterexample(QueueStack)
    assert [name for name, _ in counterexample] == __


def test_hypothesis_shrinks_the_counterexample_for_a_stronger_precondition():
    """Code written against Stack may push any number of items. BoundedStack demands more
    of its callers than Stack does, and the law counts a refusal as a failure. Shrinking
    keeps only the steps the failure needs: which operations are left?"""
    counterexample = shortest_counterexample(BoundedStack)
    assert [name for name, _ in counterexample] == __
