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
CONFIG_DICTS = "mode" in inspect.signature(np.show_config).parameters

needs_config_dicts = pytest.mark.skipif(
    not CONFIG_DICTS,
    reason="np.show_config(mode='dicts') arrived in NumPy 1.26; older NumPy only prints its "
    "build configuration as text",
)
needs_introspect = pytest.mark.skipif(
    NUMPY_MAJOR < 2,
    reason="numpy.lib.introspect.opt_func_info, which reports the SIMD target of each ufunc "
    "loop, is new in NumPy 2.0",
)


def simd_extensions():
    return np.show_config(mode="dicts")["SIMD Extensions"]


def fresh_numpy(code, veto):
    """Run `code` in a new interpreter whose NumPy is imported with `veto` as the value of
    NPY_DISABLE_CPU_FEATURES; return what it printed."""
    env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": veto}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout.strip()


@needs_config_dicts
def test_numpy_records_the_linear_algebra_libraries_it_was_built_against():
    """`np.show_config(mode="dicts")` returns the build configuration as nested dicts. Its
    "Build Dependencies" section has one entry for the library of vector and matrix products
    and one for the library of solvers and factorisations (often the same OpenBLAS or MKL
    binary), each keyed by the generic, lower-case name of its interface."""
    deps = np.show_config(mode="dicts")["Build Dependencies"]
    assert sorted(deps) == __


@needs_introspect
def test_a_ufunc_has_one_inner_loop_per_type_signature():
    """A ufunc is a table of C inner loops, one per combination of operand types, each named by
    the one-letter codes of its dtypes, inputs first and then the output
    (`np.dtype(np.float64).char` gives the letter for a double). `opt_func_info` lists the
    loops compiled through NumPy's CPU dispatch machinery."""
    from numpy.lib.introspect import opt_func_info

    loops = opt_func_info(func_name="^add$", signature="float64")["add"]
    assert sorted(loops) == __


@needs_config_dicts
@pytest.mark.skipif(
    CONFIG_DICTS and not simd_extensions().get("found"),
    reason="this CPU offers no SIMD extension beyond the ones the NumPy build assumes, so there "
    "is nothing detected at import to veto",
)
def test_numpy_reads_the_veto_list_when_it_is_imported():
    """The "SIMD Extensions" section of `show_config` sorts instruction sets into "baseline"
    (assumed by the build, compiled into all of NumPy), "found" (NumPy compiled extra loops for
    them and detected them on this CPU at import) and "not found". The environment variable
    `NPY_DISABLE_CPU_FEATURES` is read at import, before the loops are chosen. In which
    sections does a fresh interpreter list an extension that this one found, once it is
    vetoed?"""
    vetoed = simd_extensions()["found"][0]
    code = (
        "import numpy as np; "
        "simd = np.show_config(mode='dicts')['SIMD Extensions']; "
        f"print(' / '.join(section for section, names in simd.items() if {vetoed!r} in names))"
    )
    assert fresh_numpy(code, vetoed).split(" / ") == __


@needs_config_dicts
@pytest.mark.skipif(
    CONFIG_DICTS and not simd_extensions().get("baseline"),
    reason="this NumPy build assumes no SIMD extension at all, so there is none to veto",
)
def test_vetoing_an_assumed_extension():
    """The baseline extensions are not dispatched: the build's compiler used them everywhere,
    in every loop, so there is no code left that could run without them. What does a fresh
    interpreter report when it tries to import NumPy with the first baseline extension
    vetoed?"""
    assumed = simd_extensions()["baseline"][0]
    code = (
        "try:\n"
        "    import numpy\n"
        "except Exception as error:\n"
        "    print(type(error).__name__)\n"
        "else:\n"
        "    print('imported')"
    )
    assert fresh_numpy(code, assumed) == __


def test_lapack_solves_in_single_or_double_precision_only():
    """LAPACK comes as typed routines: single and double precision, real and complex (the
    s, d, c and z prefixes, as in sgesv and dgesv), and none for integers. NumPy picks the
    routine from the array's dtype, converting first where it must."""
    from_ints = np.linalg.inv(np.eye(2, dtype=np.int64))
    from_singles = np.linalg.inv(np.eye(2, dtype=np.float32))
    assert (from_ints.dtype.name, from_singles.dtype.name) == __


def test_lapack_has_no_half_precision_routines():
    """There is no 16-bit float LAPACK routine, and NumPy does not quietly widen float16 for
    you: it checks the array's type before calling into the library and refuses it."""
    with pytest.raises(___):
        np.linalg.inv(np.eye(2, dtype=np.float16))


def test_lapack_reports_a_zero_pivot_through_its_info_code():
    """LAPACK signals failure through an integer `info` code, not an exception: a positive
    info from the LU factorisation means an exactly zero pivot, so the matrix has no inverse.
    NumPy checks the code after the call and raises an exception class that its linear algebra
    module defines for failures of the computation itself."""
    with pytest.raises(___):
        np.linalg.inv(np.array([[1.0, 2.0], [2.0, 4.0]]))


def test_integer_matrix_products_skip_blas_and_wrap():
    """BLAS multiplies floating-point matrices only. An int8 matrix product runs NumPy's own
    loop and, like all fixed-width integer arithmetic on arrays, keeps only the low 8 bits of
    each result, read as a signed number."""
    a = np.array([[100]], dtype=np.int8)
    b = np.array([[2]], dtype=np.int8)
    assert (a @ b).item() == __
