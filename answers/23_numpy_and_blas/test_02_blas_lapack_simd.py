"""NumPy does not do the heavy linear algebra itself: float matrix products and `np.linalg` call a
BLAS and a LAPACK library chosen when NumPy was built. Many of its own loops are compiled
several times, for different SIMD instruction sets, and the best one this CPU supports is
picked at import."""

import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

NUMPY_MAJOR = int(np.__version__.split(".")[0])

needs_config_dicts = pytest.mark.skipif(
    "mode" not in inspect.signature(np.show_config).parameters,
    reason="np.show_config(mode='dicts') arrived in NumPy 1.26; older NumPy only prints its "
    "build configuration as text",
)
needs_introspect = pytest.mark.skipif(
    NUMPY_MAJOR < 2,
    reason="numpy.lib.introspect.opt_func_info, which reports the SIMD target of each ufunc "
    "loop, is new in NumPy 2.0",
)


@needs_config_dicts
def test_numpy_records_the_linear_algebra_libraries_it_was_built_against():
    """`np.show_config(mode="dicts")` returns the build configuration as nested dicts. Its
    "Build Dependencies" section has one entry for the library of vector and matrix products
    and one for the library of solvers and factorisations (often the same OpenBLAS or MKL
    binary), each keyed by the generic, lower-case name of its interface."""
    deps = np.show_config(mode="dicts")["Build Dependencies"]
    assert sorted(deps) == ["blas", "lapack"]


@needs_config_dicts
def test_dispatched_simd_extensions_never_repeat_the_assumed_ones():
    """The "SIMD Extensions" section holds two lists. "baseline" names the instruction sets the
    build assumes every CPU has, compiled into all of NumPy; "found" names the further ones
    NumPy compiled extra loops for and detected on this CPU at import. An extension is assumed
    or detected, never both."""
    simd = np.show_config(mode="dicts")["SIMD Extensions"]
    assumed = set(simd.get("baseline", []))
    detected = set(simd.get("found", []))
    assert assumed & detected == set()


@needs_introspect
def test_a_ufunc_has_one_inner_loop_per_type_signature():
    """A ufunc is a table of C inner loops, one per combination of operand types, each named by
    the one-letter codes of its dtypes, inputs first and then the output
    (`np.dtype(np.float64).char` gives the letter for a double). `opt_func_info` lists the
    loops compiled through NumPy's CPU dispatch machinery."""
    from numpy.lib.introspect import opt_func_info

    loops = opt_func_info(func_name="^add$", signature="float64")["add"]
    assert sorted(loops) == ["ddd"]  # two float64 inputs, one float64 output


@needs_introspect
def test_vetoing_every_detected_extension_falls_back_to_the_assumed_floor():
    """At import NumPy asks the CPU which extensions it has and points each ufunc at the best
    loop it compiled. `NPY_DISABLE_CPU_FEATURES` vetoes extensions; veto every one detected
    here, and a fresh interpreter's float64 add must use the code compiled for every CPU the
    build supports. `opt_func_info` names that target after the `show_config` list of
    extensions that every CPU is assumed to have."""
    found = np.show_config(mode="dicts")["SIMD Extensions"].get("found", [])
    code = (
        "from numpy.lib.introspect import opt_func_info; "
        "print(opt_func_info(func_name='^add$', signature='float64')['add']['ddd']['current'])"
    )
    env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": " ".join(found)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.split("(")[0] == "baseline"


def test_lapack_solves_in_single_or_double_precision_only():
    """LAPACK comes as typed routines: single and double precision, real and complex (the
    s, d, c and z prefixes, as in sgesv and dgesv). NumPy picks the routine from the array's
    dtype, and converts an integer matrix to its default float type first."""
    from_ints = np.linalg.inv(np.eye(2, dtype=np.int64))
    from_singles = np.linalg.inv(np.eye(2, dtype=np.float32))
    assert (from_ints.dtype.name, from_singles.dtype.name) == ("float64", "float32")


def test_lapack_has_no_half_precision_routines():
    """There is no 16-bit float LAPACK routine, and NumPy does not quietly widen float16 for
    you: it checks the array's type before calling into the library and refuses it."""
    with pytest.raises(TypeError):
        np.linalg.inv(np.eye(2, dtype=np.float16))


def test_a_singular_matrix_is_reported_with_numpys_own_linear_algebra_error():
    """LAPACK signals failure through an integer `info` code, not an exception: a positive
    info from the LU factorisation means an exactly zero pivot. NumPy turns that code into an
    exception class of its own, defined in the `np.linalg` module."""
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.inv(np.array([[1.0, 2.0], [2.0, 4.0]]))


def test_integer_matrix_products_skip_blas_and_wrap():
    """BLAS multiplies floating-point matrices only. An int8 matrix product runs NumPy's own
    loop and, like all fixed-width integer arithmetic on arrays, keeps only the low 8 bits of
    each result, read as a signed number."""
    a = np.array([[100]], dtype=np.int8)
    b = np.array([[2]], dtype=np.int8)
    assert (a @ b).item() == -56  # 200 - 256
