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


def test_a_transpose_swaps_the_strides_and_is_no_longer_contiguous():
    """`.T` builds a new header over the same storage with the two strides exchanged. Walking
    the transpose row by row now jumps through memory, so it is not laid out row-major."""
    t = torch.arange(12).reshape(3, 4)
    assert t.T.stride() == __
    assert t.T.is_contiguous() == __


def test_a_row_is_a_view_that_starts_at_an_offset():
    """Indexing one row makes a view: the same storage, read through a header whose storage
    offset says where the row begins, counted in elements from the start of the storage."""
    t = torch.arange(12).reshape(3, 4)
    row = t[1]
    assert row.storage_offset() == __
    assert same_storage(row, t) == __


def test_a_small_view_keeps_the_whole_storage_alive():
    """A view holds a reference to the entire storage, not just to the bytes it shows. Two
    float32 elements of a 3x4 tensor still report, and keep allocated, the storage of all
    twelve."""
    view = torch.zeros(3, 4, dtype=torch.float32)[0, :2]
    assert view.untyped_storage().nbytes() == __


def test_contiguous_returns_the_tensor_itself_or_a_copy():
    """`.contiguous()` is a promise about layout. When the tensor already is row-major
    contiguous it returns the very same object; otherwise it copies the elements into fresh
    row-major storage."""
    t = torch.arange(12).reshape(3, 4)
    assert (t.contiguous() is t) == __
    assert same_storage(t.T.contiguous(), t) == __


def test_view_refuses_a_shape_the_strides_cannot_express():
    """`view` never copies: it only computes new strides over the same storage. Flattening a
    transpose would need the order 0, 4, 8, 1, 5, ..., which no single stride can walk, so
    `view` refuses and its message suggests `reshape`."""
    t = torch.arange(12).reshape(3, 4)
    with pytest.raises(___):
        t.T.view(12)


def test_reshape_is_a_view_when_it_can_be_and_a_copy_when_it_must():
    """`reshape` tries `view` first and falls back to a copy. For each of the two calls, say
    whether the result still reads the original storage."""
    t = torch.arange(12).reshape(3, 4)
    shared = (same_storage(t.reshape(12), t), same_storage(t.T.reshape(12), t))
    assert shared == __


def test_expand_repeats_a_row_without_copying_it():
    """`expand` is PyTorch's broadcast view: the new leading axis gets a stride that does not
    move through memory at all, so all four rows read the same three elements."""
    t = torch.arange(3).expand(4, 3)
    assert t.stride() == __
