"""str under + is a free monoid: associative, with an identity, and no other laws."""

import functools
import itertools
import operator

from hypothesis import given
from hypothesis import strategies as st


@given(st.text(), st.text(), st.text())
def test_concatenation_is_associative(a, b, c):
    """(a + b) + c and a + (b + c) spell the same characters in the same order, so
    where you put the parentheses never matters. Hypothesis tries dozens of
    triples looking for a counterexample."""
    assert (a + b) + c == a + (b + __)


@given(st.text())
def test_concatenation_has_an_identity_element(s):
    """Gluing nothing on either side changes nothing: the monoid has an identity
    element, the one string that adds no characters."""
    assert __ + s == s + __ == s


def test_a_string_records_its_characters_not_how_they_were_glued():
    """Commutativity is a law the free monoid does not have: swapping two pieces changes the
    string. But a str keeps only its characters, in order, not the pieces it was glued from,
    so two gluings that spell the same characters are one and the same string. How many
    different strings do the six orders of these three pieces spell?"""
    spelled = {"".join(order) for order in itertools.permutations(["ab", "a", "b"])}
    assert len(spelled) == __


@given(st.text())
def test_only_the_identity_is_idempotent(s):
    """A free monoid satisfies no equation that the monoid axioms do not force, so
    s + s == s holds only when s is the identity itself: a non-empty string doubles
    its length."""
    assert (s + s == s) == (s == __)


@given(st.text(), st.text())
def test_len_turns_concatenation_into_addition(a, b):
    """len is a monoid homomorphism from (str, +, "") to (int, +, 0): the length of
    a concatenation is the sum of the lengths."""
    assert len(a + b) == len(a) + __


@given(st.text(), st.text())
def test_utf_8_encoding_distributes_over_concatenation(a, b):
    """UTF-8 encodes each code point on its own, with no state and no header, so
    encoding a concatenation is concatenating the encodings."""
    assert (a + b).encode("utf-8") == a.encode("utf-8") + __


def test_utf_16_encoding_does_not_distribute_because_of_the_bom():
    """The "utf-16" codec puts a two-byte BOM in front of every output. Encoding
    "ab" writes one BOM; encoding "a" and "b" separately and gluing writes two."""
    together = len(("a" + "b").encode("utf-16"))
    apart = len("a".encode("utf-16") + "b".encode("utf-16"))
    assert (together, apart) == __


@given(st.lists(st.integers()), st.lists(st.integers()), st.lists(st.integers()))
def test_lists_form_the_same_free_monoid(a, b, c):
    """list with + is the free monoid over its element type: associative, with an
    identity element that holds no items. A str is the special case where the
    elements are characters."""
    assert (a + b) + c == a + (b + c) and a + __ == a


@given(st.lists(st.text()))
def test_join_folds_a_list_of_strings_with_the_monoid(words):
    """"".join(words) concatenates every string in order: it is the fold of the list
    with the monoid's operation, and a fold starts from the element that changes
    nothing, which is also its answer for an empty list."""
    assert "".join(words) == functools.reduce(operator.add, words, __)
