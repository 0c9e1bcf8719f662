"""Broadcasting: to combine arrays of different shapes, NumPy lines the shapes up from the right.
Two sizes are compatible when they are equal or one of them is 1, which is stretched; a missing
leading axis counts as 1. Nothing is copied: a stretched axis is read with stride 0."""

import numpy as np
import pytest


def test_a_size_one_axis_stretches_to_the_other_size():
    """A column of shape (3, 1) meets a row of shape (1, 4). Axis by axis, each size 1 is
    stretched to the size on the other side."""
    assert (np.zeros((3, 1)) + np.zeros((1, 4))).shape == __


def test_shapes_are_aligned_from_the_right():
    """Shapes are compared from the last axis backwards; the shorter shape is padded with 1s on
    the left. Every pair of sizes must then be equal or contain a 1, and the result takes the
    larger size of each pair."""
    a = np.zeros((8, 1, 6, 1))
    b = np.zeros((7, 1, 5))
    assert (a + b).shape == __


def test_trailing_sizes_that_differ_cannot_broadcast():
    """(2, 3) and (2,) are compared from the right: 3 against 2. Neither is 1, so no stretching
    helps, even though the 2s would have matched had the shapes been aligned from the left."""
    with pytest.raises(___):
        np.zeros((2, 3)) + np.zeros(2)


def test_a_broadcast_view_stretches_an_axis_without_copying():
    """`np.broadcast_to` shows the stretched array without copying anything: the three numbers
    of a column stay where they are, and the view reads them again for each of the four
    columns. NumPy strides count bytes; an int64 takes eight."""
    column = np.arange(3, dtype=np.int64).reshape(3, 1)
    view = np.broadcast_to(column, (3, 4))
    assert view.strides == __


def test_an_in_place_operation_cannot_grow_its_target():
    """`a += b` writes into `a`'s existing buffer, so the broadcast result must have `a`'s shape.
    Here it would have to be bigger, and NumPy refuses the operands instead of reallocating."""
    a = np.zeros(3)
    with pytest.raises(___):
        a += np.ones((2, 3))


def test_matmul_broadcasts_only_the_axes_in_front_of_the_matrices():
    """`@` treats the last two axes as matrices and broadcasts the axes in front of them. A
    stack of five 2x3 matrices times one 3x4 matrix is five matrix products."""
    assert (np.zeros((5, 2, 3)) @ np.zeros((3, 4))).shape == __
