"""Python is strongly typed (no silent coercion between unrelated types) and
dynamically typed (types are checked when an operation runs, not before)."""

import pytest


def test_adding_an_int_and_a_str_is_refused():
    """Strong typing: Python will not guess whether you meant 4 or "22". int.__add__
    returns NotImplemented and str has no __radd__ to try next, so the operation is
    refused."""
    with pytest.raises(___):
        2 + "2"


def test_a_str_times_an_int_is_repetition_not_an_error():
    """Strong typing is about refusing coercion, not about refusing mixed operands.
    str defines multiplication by an int as repetition, so no conversion is involved."""
    assert "2" * 3 == __


def test_a_type_error_in_a_branch_never_taken_never_fires():
    """Dynamic typing: the check happens when the operation executes. A bad
    operation on a path the program never reaches is never checked at all."""

    def describe(flag):
        if flag:
            return 1 + "one"
        return "fine"

    assert describe(False) == __


def test_the_compiler_accepts_an_ill_typed_expression():
    """compile() does no type checking, so it succeeds. (Its constant folder, which
    works out operations on constants ahead of time, leaves this addition alone: the
    code object still holds it, for run time.) Only evaluating the code object
    performs the addition and fails."""
    code = compile("2 + '2'", "<koan>", "eval")
    with pytest.raises(___):
        eval(code)


def test_calling_a_method_a_type_lacks_fails_at_the_lookup():
    """An operation outside a type's domain is rejected, not guessed at: an int has
    no append, and the failure comes at run time from looking the name up on the
    object, before any call is made."""
    with pytest.raises(___):
        (3).append(4)


def test_indexing_past_the_end_is_caught_at_run_time():
    """Like Java's array bounds, an index is checked only when the subscript runs.
    A list never reads past either end: a negative index counts back from the end,
    but only as far as -len(list)."""
    with pytest.raises(___):
        [1, 2, 3][-4]
