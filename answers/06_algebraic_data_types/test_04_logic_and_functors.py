"""Curry-Howard read in Python: types as propositions, values as proofs, the empty type as
falsehood. And functors: map lifts a function A -> B to containers, keeping shape and laws."""

import sys
import typing
from typing import Callable, Tuple, TypeVar, Union

import pytest
from hypothesis import given
from hypothesis import strategies as st

A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")


def test_the_empty_type_cannot_be_instantiated():
    """typing.NoReturn names the empty type: no value has it, so there is nothing to
    construct. At runtime the special form refuses to be called at all, like any other
    typing special form."""
    with pytest.raises(TypeError):
        typing.NoReturn()


@pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="typing.Never only exists from Python 3.11; on 3.10 the empty type is spelled "
    "typing.NoReturn, which works on every version",
)
def test_never_and_noreturn_are_two_runtime_objects_for_one_type():
    """Python 3.11 added typing.Never as the general name of the bottom type, keeping
    NoReturn for return annotations. Type checkers treat them as the same type, but at
    runtime they are two distinct special-form objects, and special forms define no equality
    of their own. How many members does a set of the two keep?"""
    assert len({typing.Never, typing.NoReturn}) == 2


def test_sys_exit_never_returns_it_raises():
    """sys.exit is annotated NoReturn in typeshed: it never returns, it raises an exception
    named for what it asks of the program. That exception derives from BaseException, not
    Exception, so `except Exception` does not stop a program from exiting."""
    with pytest.raises(SystemExit):
        sys.exit(3)


@pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="typing.assert_never was added in Python 3.11; on 3.10 write "
    "`raise AssertionError(...)` in the unreachable branch yourself",
)
def test_assert_never_raises_when_unreachable_code_is_reached():
    """assert_never(arg: Never) -> Never takes a proof of falsehood, so a checker only lets
    you call it where all cases have been handled. If it runs anyway, the types lied, and it
    fails the way a failed `assert` statement does."""
    with pytest.raises(AssertionError):
        typing.assert_never(42)  # type: ignore[arg-type]


def test_modus_ponens_is_function_application():
    """An implication A -> B is a function that turns evidence of A into evidence of B.
    Applying it to evidence of A (modus ponens) yields evidence of B, here a str built from
    an int."""

    def modus_ponens(implication: Callable[[A], B], evidence: A) -> B:
        return implication(evidence)

    assert modus_ponens(str, 42) == "42"


def test_implication_is_transitive_because_functions_compose():
    """From A -> B and B -> C follows A -> C: compose the functions. The composite runs the
    first function, then the second; the order matters, because the second one expects the
    first one's output."""

    def compose(f: Callable[[A], B], g: Callable[[B], C]) -> Callable[[A], C]:
        return lambda a: g(f(a))

    digit_count = compose(str, len)
    assert digit_count(2**20) == 7


def test_a_proof_of_a_conjunction_is_a_pair():
    """Evidence of A and B is a tuple holding evidence of each. Projection is and-elimination:
    from (a, b) you may conclude A, and you may conclude B, independently."""

    def and_elim_right(proof: Tuple[A, B]) -> B:
        return proof[1]

    assert and_elim_right((1, "one")) == "one"


def test_using_a_disjunction_requires_handling_both_sides():
    """Evidence of A or B is a value of Union[A, B]: you hold one side but not which. To
    conclude C from it you need a way from A to C and a way from B to C, one per case, which
    is exactly what isinstance or match dispatch does."""

    def or_elim(proof: Union[int, str], from_int, from_str):
        if isinstance(proof, int):
            return from_int(proof)
        return from_str(proof)

    assert or_elim("hello", lambda n: n + 1, len) == 5


@given(st.lists(st.integers(-9, 9), max_size=8))
def test_map_preserves_composition(xs):
    """Second functor law: mapping f and then mapping g gives the same list as mapping their
    composite once. This is what lets a compiler or a pipeline fuse two passes into one."""

    def f(x):
        return x * 3

    def g(x):
        return x - 1

    assert list(map(lambda x: g(f(x)), xs)) == list(map(g, map(f, xs)))


def test_a_map_object_is_a_one_shot_iterator():
    """In Python 3, map() returns a lazy iterator, not a list: each value is computed when
    something asks for the next one, and once given out it is gone. zip asks each of its
    arguments for one value per pair, here twice the same iterator, and stops at the first
    that runs out."""
    doubled = map(lambda x: x * 2, [1, 2, 3])
    assert list(zip(doubled, doubled)) == [(2, 4)]  # noqa: B905


def test_mapping_over_a_set_can_break_the_composition_law():
    """A set merges equal elements, and 1 == True. Mapping f then g over a set merges the
    1 and True that f produces before g can tell them apart; mapping g after f in one pass
    does not. So set-building with == is not a lawful functor for every function."""
    f = lambda x: 1 if x == 0 else True  # noqa: E731
    g = type
    one_pass = {g(f(x)) for x in [0, 1]}
    two_passes = {g(y) for y in {f(x) for x in [0, 1]}}
    assert (one_pass, two_passes) == ({int, bool}, {int})
