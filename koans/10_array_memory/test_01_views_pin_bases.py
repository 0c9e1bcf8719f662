"""A NumPy view is a second array header over somebody else's memory, and it keeps that memory
alive. `del` only unbinds a name: the buffer is freed when its last reference, views included,
goes away."""

import sys
import weakref

import numpy as np


def test_writing_through_a_slice_changes_the_original():
    """Basic slicing (start:stop:step) never copies: it builds a new array header that points
    into the same buffer. Writing through the slice writes into the original's memory."""
    a = np.arange(6)
    s = a[1:4]
    s[0] = 100
    assert a.tolist() == __


def test_a_slice_records_its_base_array():
    """A view remembers the array that owns its memory in `.base`; an array that owns its
    own memory has `.base` None. (`np.shares_memory(a, s)` asks the same question about the
    bytes themselves.)"""
    a = np.arange(6)
    s = a[1:4]
    assert (s.base.shape, a.base) == __


def test_a_view_holds_a_counted_reference_to_its_base():
    """sys.getrefcount(a) reports how many references point at the array object `a` (its own
    argument's share, if any, cancels out in a difference). A view keeps its base alive in the
    ordinary way: with a reference of its own in `.base`, counted like any other."""
    a = np.arange(6)
    before = sys.getrefcount(a)
    views = [a[:2], a[2:4], a[4:]]
    assert sum(len(v) for v in views) == 6
    assert sys.getrefcount(a) - before == __


def test_base_points_at_the_owner_not_at_the_intermediate_view():
    """NumPy collapses chains of views: a view of a view records the array that actually owns
    the memory, not the view it was taken from. Here `m` is itself a view of `a`, and `row` is
    taken from `m`."""
    a = np.arange(12)
    m = a.reshape(3, 4)
    row = m[1]
    assert row.base.shape == __


def test_del_of_the_base_name_does_not_free_the_buffer():
    """`del base` removes one name, not the object. The view holds a reference to its base,
    so the whole original array survives and the view still reads valid values."""
    base = np.arange(6)
    view = base[1:4]
    del base
    assert view.base.tolist() == __


def test_a_finalizer_shows_when_the_base_array_is_really_freed():
    """`weakref.finalize` runs a callback when its object is freed, without keeping the object
    alive. CPython frees an object the moment its last strong reference goes, and a view's
    `.base` is a strong reference."""
    events = []
    base = np.arange(6)
    weakref.finalize(base, events.append, "base freed")
    view = base[1:4]
    del base
    after_del_base = list(events)
    del view
    assert (after_del_base, events) == __


def test_a_tiny_view_pins_a_huge_buffer():
    """The view pins the whole base, not just the bytes it shows. Keeping two floats of a
    million-element float64 array keeps the entire buffer alive: a classic leak."""
    big = np.zeros(1_000_000)
    tiny = big[:2]
    del big
    assert tiny.base.nbytes == __


def test_copy_releases_the_base():
    """`.copy()` allocates a fresh buffer that the new array owns and fills it with the slice's
    elements. Copy a small slice out of a big array before dropping the big one."""
    events = []
    big = np.zeros(1_000_000)
    weakref.finalize(big, events.append, "big freed")
    tiny = big[:2].copy()
    del big
    assert (tiny.base, events) == __
