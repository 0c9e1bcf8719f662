"""A mapping that can never change can keep the hashing contract: Python 3.15's frozendict
(PEP 814)."""

import sys
import types

import pytest


def test_an_immutable_mapping_can_hash_its_items():
    """A dict can change, so it cannot be hashed: a change after insertion would misfile it,
    as the mutated key of the hashing koans was. Python 3.15 adds the builtin frozendict: a
    mapping that refuses every change, and so can hash its items. Like dict equality, which
    ignores the order of the items, its hash does not depend on the order either, and a
    frozendict compares equal to a dict with the same items. Before 3.15 the standard
    library's read-only mapping, types.MappingProxyType, is only a view of a dict that can
    still change behind it, so it cannot be hashed either (from 3.12 it hands hash() on to
    the dict it shows)."""
    if sys.version_info >= (3, 15):
        configs = {frozendict(x=1, y=2), frozendict(y=2, x=1), frozendict(x=1)}  # noqa: F821
        assert len(configs) == __
    else:
        with pytest.raises(___):
            hash(types.MappingProxyType({"x": 1}))


def test_the_left_operand_of_a_mapping_union_picks_the_result_type():
    """`a | b` builds a new mapping with a's items and then b's on top, so b wins where both
    have a key, and the left operand's type decides what is built. `|=` on a frozendict
    cannot change it: like += on a str, it builds a new object and rebinds the name, and
    every other name still sees the old one. Before 3.15, | on the read-only
    types.MappingProxyType (which prints as mappingproxy({...})) gives no read-only result
    at all."""
    if sys.version_info >= (3, 15):
        settings = frozendict(a=1)  # noqa: F821
        alias = settings
        settings |= {"b": 2}
        shown = (repr(alias), repr(settings), repr({"b": 2} | alias))
        assert shown == __
    else:
        assert repr(types.MappingProxyType({"a": 1}) | {"b": 2}) == __
