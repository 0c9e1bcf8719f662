"""The stack machine, and the specialising adaptive interpreter of 3.11+ (PEP 659)."""

import dis
import sys
import sysconfig

import pytest


def test_a_chain_of_additions_needs_only_two_stack_slots():
    """CPython's VM is a stack machine: operands are pushed, an operator pops two and pushes
    one. For ((a + b) + c) + d the stack never holds more than two values."""

    def chain(a, b, c, d):
        return ((a + b) + c) + d

    assert chain.__code__.co_stacksize == 2


def test_nesting_to_the_right_makes_the_stack_deeper():
    """For a + (b + (c + d)) nothing can be added until d is loaded, so all four operands sit
    on the stack at once. The compiler computes this maximum and stores it as co_stacksize."""

    def nested(a, b, c, d):
        return a + (b + (c + d))

    assert nested.__code__.co_stacksize == 4


def test_pop_top_removes_one_value():
    """dis.stack_effect tells how an instruction changes the stack depth. POP_TOP discards the
    value on top (used for an expression statement whose result nobody keeps)."""
    assert dis.stack_effect(dis.opmap["POP_TOP"]) == -1


def test_build_list_pops_its_items_and_pushes_one_list():
    """BUILD_LIST n pops n items and pushes a single list, so its net effect depends on its
    argument."""
    assert dis.stack_effect(dis.opmap["BUILD_LIST"], 4) == -3


# ---- the adaptive interpreter (3.11+) --------------------------------------------------------

needs_adaptive = pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="3.10 has no specialising interpreter and no dis(adaptive=...) (PEP 659 is 3.11+)",
)


def fresh_add():
    """A brand-new code object each call (a nested def would share one), so no other test has
    warmed it up."""
    namespace = {}
    exec("def add(a, b):\n    return a + b\n", namespace)
    return namespace["add"]


def adaptive_binary_ops(fn):
    if sys.version_info < (3, 14) and sysconfig.get_config_var("Py_GIL_DISABLED"):
        pytest.skip("the free-threaded 3.13 build (3.13t) has specialisation switched off")
    if sys.gettrace() is not None or sys.getprofile() is not None:
        pytest.skip("a tracer or profiler (debugger, coverage) is active; 3.11 stops specialising")
    if sys.version_info >= (3, 12) and any(sys.monitoring.get_tool(t) for t in range(6)):
        pytest.skip("a sys.monitoring tool is active; it can change what gets specialised")
    names = [i.opname for i in dis.get_instructions(fn, adaptive=True)]
    return [name for name in names if name.startswith("BINARY")]


@needs_adaptive
def test_code_that_never_ran_is_not_specialised():
    """Specialisation happens while code runs. A function that was never called still shows the
    generic instruction in the adaptive view."""
    add = fresh_add()
    assert adaptive_binary_ops(add) == ["BINARY_OP"]


@needs_adaptive
def test_hot_int_addition_is_specialised():
    """After a few calls with two ints, the interpreter rewrites BINARY_OP in place into an
    int-only version that skips the generic type dispatch. How few is an internal detail that
    changes between releases, so the koan warms the function up with a generous 1000 calls."""
    add = fresh_add()
    for i in range(1000):
        add(i, 1)
    assert adaptive_binary_ops(add) == ["BINARY_OP_ADD_INT"]


@needs_adaptive
def test_hot_float_addition_gets_its_own_specialisation():
    """Specialisation follows the types actually seen: the same source warmed up with floats
    becomes a float-only add."""
    add = fresh_add()
    for i in range(1000):
        add(i + 0.5, 1.0)
    assert adaptive_binary_ops(add) == ["BINARY_OP_ADD_FLOAT"]


@needs_adaptive
def test_a_specialised_instruction_still_handles_other_types():
    """Every specialised instruction first checks its guess (two exact ints?) and falls back to
    the generic path when it is wrong. Specialisation is invisible to the result."""
    add = fresh_add()
    for i in range(1000):
        add(i, 1)
    assert add("to", "ken") == "token"


@needs_adaptive
def test_specialisation_does_not_show_in_co_code():
    """The interpreter rewrites the code object's live instructions, but co_code hands out a
    de-specialised copy: it and a plain dis still show the generic bytecode, which is also what
    a .pyc stores."""
    add = fresh_add()
    before = add.__code__.co_code
    for i in range(1000):
        add(i, 1)
    assert (add.__code__.co_code == before) == True
