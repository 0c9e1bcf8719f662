"""Algebraic data types are called algebraic because their sizes follow arithmetic:
|A x B| = |A| * |B|, |A + B| = |A| + |B|, |A -> B| = |B| ** |A|. Here we count by enumerating."""

import itertools
import typing
from typing import Optional

from hypothesis import given
from hypothesis import strategies as st


def all_functions(domain, codomain):
    """Every function from a finite domain to a finite codomain, each as a dict (its table)."""
    domain = list(domain)
    return [
        dict(zip(domain, outputs))
        for outputs in itertools.product(list(codomain), repeat=len(domain))
    ]


BOOL = [False, True]


def test_a_function_from_bool_is_fixed_by_two_choices():
    """A function from Bool is fixed by two choices, f(False) and f(True), each one of two
    values. Two of the tables are identity and negation; a function is nothing more than its
    table, however you write the code."""
    functions = all_functions(BOOL, BOOL)
    assert {False: False, True: True} in functions  # identity
    assert {False: True, True: False} in functions  # negation
    assert len(functions) == 4


def test_a_product_has_the_product_of_the_sizes():
    """A tuple (a, b) picks one a and, independently, one b, so |A x B| = |A| * |B|.
    itertools.product enumerates exactly these pairs."""
    pairs = list(itertools.product(BOOL, "abc"))
    assert len(pairs) == 6


def test_a_sum_adds_sizes_only_when_its_alternatives_are_tagged():
    """A disjoint union remembers which side a value came from, so |A + B| = |A| + |B| even
    when A and B share values. A plain set union forgets the side and merges the shared values,
    which is why a sum type needs tags (an Enum, wrapper classes, or ("left", x) pairs)."""
    a = {0, 1}
    b = {1, 2, 3}
    tagged = {("left", x) for x in a} | {("right", y) for y in b}
    untagged = a | b
    assert len(tagged) == 5
    assert len(untagged) == 4


def test_functions_count_as_codomain_to_the_power_of_domain():
    """A function from a 3-element set to Bool makes 3 independent yes/no choices, one per
    input. The base is the codomain and the exponent is the domain, which is why the set of
    functions A -> B is written B^A."""
    functions = all_functions(["red", "green", "blue"], BOOL)
    assert len(functions) == 8


def test_a_function_out_of_the_empty_type_has_an_empty_table():
    """With nothing in the domain there is nothing to choose: a function is its table, and
    this table has no rows. How many ways are there to fill in nothing, and what does each
    look like? Python's 0 ** 0 and itertools.product(..., repeat=0) agree on the count."""
    assert all_functions([], BOOL) == [{}]


def test_a_function_into_the_empty_type_has_nothing_to_return():
    """A function must give every input an output. If the codomain is empty and the domain
    is not, the first row of any table already has nothing to put in it. This is why the
    empty type stands for falsehood: nothing can produce a value of it. With an empty domain
    as well, though, there is no row to fill."""
    counts = (len(all_functions(BOOL, [])), len(all_functions([], [])))
    assert counts == (0, 1)


def test_none_type_has_exactly_one_inhabitant():
    """type(None) is the unit type: calling it does not build a new object but hands back
    the type's only value. A type with one value carries no information, which is why
    Optional[T] adds exactly 1 to |T|."""
    NoneType = type(None)
    assert NoneType() == None


def test_optional_adds_one_inhabitant_to_a_type():
    """Optional[bool] is the union of bool and NoneType. Its inhabitants are those of its
    arguments, read off with typing.get_args, added up."""
    inhabitants = {bool: [False, True], type(None): [None]}
    count = sum(len(inhabitants[t]) for t in typing.get_args(Optional[bool]))
    assert count == 3


@given(st.integers(0, 6), st.integers(0, 6))
def test_product_law_holds_for_all_small_sizes(a, b):
    """Hypothesis tries many sizes, including the empty ones. The law must hold everywhere,
    also when one side has no values at all (then there are no pairs)."""
    pairs = list(itertools.product(range(a), range(b)))
    assert len(pairs) == a * b


def test_currying_is_the_exponent_law():
    """C ** (A * B) == (C ** B) ** A: a function of a pair carries the same information as a
    function that returns a function. Both counts below enumerate Bool x Bool -> Bool, once as
    two-argument tables and once curried; they agree."""
    uncurried = all_functions(itertools.product(BOOL, BOOL), BOOL)
    curried = all_functions(BOOL, all_functions(BOOL, BOOL))
    assert len(curried) == len(uncurried)
    assert len(curried) == 16
