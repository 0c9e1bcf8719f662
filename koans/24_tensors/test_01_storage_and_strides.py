"""A tensor is a view onto a storage: a flat block of bytes, read through a header of sizes,
strides and a storage offset. Unlike NumPy, PyTorch counts strides and offsets in elements, not
bytes. Views share the storage; `.contiguous()`, `.clone()` and a `reshape` that cannot be a
view copy it."""

import pytest

torch = pytest.importorskip("torch", reason="the tensor koans need PyTorch (pip install torch)")


def same_storage(a, b):
    """Whether two tensors read the same block of memory."""
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def test_torch_strides_count_elements_not_bytes():
    """In a row-major (3, 4) tensor the next column is the next element and the next row is a
    whole row further on. PyTorch reports those steps as element counts, whatever the dtype;
    NumPy's `.strides` would multiply them by the item size."""
    t = torch.arange(12, dtype=torch.int64).reshape(3, 4)
    assert t.stride() == __


def test_a_transpose_is_a_new_header_over_the_same_storage():
    """`.T` copies nothing: it builds a new header that reads the same storage with the axes
    taken in the other order. `.contiguous()` is what lays the elements out row-major, in fresh
    storage, for the shape it is given. Compare the strides of the two (4, 3) tensors."""
    t = torch.arange(12).reshape(3, 4)
    assert (t.T.stride(), t.T.contiguous().stride()) == __


def test_a_row_is_a_view_that_starts_at_an_offset():
    """Indexing one row makes a view: the same storage, read through a header whose storage
    offset says where the row begins, counted in elements from the start of the storage.
    `data_ptr()` is the address of a tensor's first element, in bytes, and an int64 takes
    eight."""
    t = torch.arange(12, dtype=torch.int64).reshape(3, 4)
    row = t[1]
    assert (row.storage_offset(), row.data_ptr() - t.data_ptr()) == __


def test_a_small_view_keeps_the_whole_storage_alive():
    """A view holds a reference to the entire storage it was cut from, not just to the bytes
    it shows, and keeps all of it allocated."""
    view = torch.zeros(3, 4, dtype=torch.float32)[0, :2]
    assert view.untyped_storage().nbytes() == __


def test_contiguous_copies_only_what_is_not_laid_out_row_major():
    """`.contiguous()` is a promise about layout: it does only the work needed to keep it, and
    it keeps no memory of earlier calls. All five tensors below are alive at once, so no two
    storages can share an address by reusing freed memory. How many storages do they read?"""
    t = torch.arange(12).reshape(3, 4)
    tensors = (t, t.contiguous(), t.T, t.T.contiguous(), t.T.contiguous())
    assert len({x.untyped_storage().data_ptr() for x in tensors}) == __


def test_view_refuses_a_shape_the_strides_cannot_express():
    """`view` never copies: it only computes new strides over the same storage. Flattening a
    transpose would need the order 0, 4, 8, 1, 5, ..., which no single stride can walk, so
    `view` refuses and its message suggests `reshape`."""
    t = torch.arange(12).reshape(3, 4)
    with pytest.raises(___):
        t.T.view(12)


def test_reshape_tries_a_view_before_it_copies():
    """`reshape` first tries to describe the new shape with strides over the same storage, and
    copies only when no strides can. Splitting an axis into two is always possible; merging two
    axes needs them to be adjacent in memory in the right order. For each call, does the result
    still read the original storage?"""
    t = torch.arange(12).reshape(3, 4)
    results = (t.reshape(12), t.T.reshape(12), t.T.reshape(2, 2, 3))
    assert [same_storage(r, t) for r in results] == __


def test_expand_is_a_broadcast_view():
    """`expand` is PyTorch's broadcast view: it adds a leading axis of size 4 without copying,
    so each of the four (2, 3) matrices it shows is the one matrix in storage."""
    t = torch.arange(6).reshape(2, 3).expand(4, 2, 3)
    assert t.stride() == __
