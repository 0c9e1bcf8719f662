"""A stack is an abstract data type: a set of operations plus a law (last in,
first out). Property tests state the law once and check it against any class that
claims to be a stack."""

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st


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
    """Refuses a fourth item: a stronger precondition on push."""

    def push(self, item):
        if len(self) >= 3:
            raise OverflowError("stack is full")
        super().push(item)


# An operation list such as [("push", 5), ("pop", None), ("push", -1)].
operations = st.lists(
    st.one_of(st.tuples(st.just("push"), st.integers()), st.just(("pop", None))),
    max_size=10,
)


def lifo_holds_for(stack, ops):
    """Run ops on the stack and on a plain list used as the model. The law: every
    pop returns what the model's pop returns. Pops on an empty model are skipped."""
    model = []
    for name, value in ops:
        if name == "push":
            stack.push(value)
            model.append(value)
        elif model:
            if stack.pop() != model.pop():
                return False
    return len(stack) == len(model)


def law_survives_hypothesis(cls):
    """Let Hypothesis hunt for an operation list that breaks the law for cls.
    Returns True when none is found, False when one is. A stack that raises on an
    operation the specification allows breaks the law as surely as a wrong pop;
    any other error (a bug here, a Hypothesis misuse) propagates instead of
    passing for a law failure."""

    @settings(
        max_examples=50,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # a yes/no answer needs no shrinking
        report_multiple_bugs=False,
    )
    @given(operations)
    def law(ops):
        try:
            holds = lifo_holds_for(cls(), ops)
        except Exception:  # the stack refused a push, or a pop of a non-empty stack
            holds = False
        assert holds

    try:
        law()
    except AssertionError:
        return False
    return True


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


@given(operations)
def test_one_property_checks_every_interleaving_of_pushes_and_pops(ops):
    """Hypothesis generates random operation sequences; the model, a plain list, is
    the abstract specification, and Stack is a thin wrapper over the same list
    operations."""
    assert lifo_holds_for(Stack(), ops) == __


def test_a_subclass_that_only_counts_pushes_faces_the_same_law():
    """Liskov: a subtype must keep the supertype's laws. CountingStack adds a
    counter that no law mentions and leaves push, pop and len doing what they did;
    run the same property against it."""
    assert law_survives_hypothesis(CountingStack) == __


def test_a_subclass_that_pops_the_oldest_item_faces_the_same_law():
    """QueueStack has every method a Stack has, so duck typing accepts it, but its
    pop takes the item that went in first. Hypothesis searches operation lists of up
    to ten steps."""
    assert law_survives_hypothesis(QueueStack) == __


def test_a_subclass_that_refuses_a_fourth_push_faces_the_same_law():
    """Code written against Stack may push any number of items, and the generated
    operation lists hold up to ten. BoundedStack demands more of its callers: it
    raises on a fourth push, and the law counts a refusal as a failure."""
    assert law_survives_hypothesis(BoundedStack) == __


def test_the_base_class_faces_its_own_law():
    """The law function is the same for every class; only the class passed in
    changes. Here it is the class the list model was written to describe."""
    assert law_survives_hypothesis(Stack) == __
