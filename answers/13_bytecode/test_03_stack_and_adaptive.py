"""The stack machine, and the specialising adaptive interpreter of 3.11+ (PEP 659)."""

import dis
import sys
import sysconfig

import pytest


def test_a_chain_of_additions_keeps_the_stack_shallow():
    """CPython's VM is a stack machine: operands are pushed, an operator pops two and pushes
    one. In ((a + b) + c) + d each addition can run as soon as its second operand is pushed."""

    def chain(a, b, c, d):
        return ((a + b) + c) + d

    assert chain.__code__.co_stacksize == 2


def test_nesting_to_the_right_makes_the_stack_deeper():
    """In a + (b + (c + d)) nothing can be added until d is loaded. The compiler computes the
    deepest the stack can get and stores it as co_stacksize."""

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
def test_what_co_code_shows_after_warm_up():
    """The interpreter rewrites the code object's live instructions in place. co_code, though, is
    also what marshal writes into a .pyc, and a .pyc must not depend on how one particular run
    happened to warm up."""
    add = fresh_add()
    before = add.__code__.co_code
    for i in range(1000):
        add(i, 1)
    assert (add.__code__.co_code == before) == True


@needs_adaptive
def test_a_specialisation_that_keeps_missing_is_replaced():
    """A specialised instruction counts the calls where its guess was wrong. After enough
    misses the interpreter undoes the specialisation, watches the types that arrive now, and
    specialises again for them. One function can change its mind many times over its life."""
    add = fresh_add()
    for i in range(1000):
        add(i, 1)
    for i in range(1000):
        add(i + 0.5, 1.0)
    assert adaptive_binary_ops(add) == ["BINARY_OP_ADD_FLOAT"]


@pytest.mark.skipif(
    sys.version_info < (3, 13),
    reason="before 3.13 CPython had no JIT and no second-tier optimiser to hand a hot loop to",
)
def test_a_standard_build_keeps_a_hot_loop_in_bytecode():
    """3.13 can be compiled with an experimental JIT (configure --enable-experimental-jit). In
    such a build, once a loop has run often, its backward jump is overwritten with
    ENTER_EXECUTOR, which hands control to a trace compiled to machine code. The builds that
    python.org and Linux distributions ship are configured without it."""
    if "--enable-experimental-jit" in (sysconfig.get_config_var("CONFIG_ARGS") or ""):
        pytest.skip("this interpreter was built with the experimental JIT; the koan is about "
                    "standard builds, where nothing compiles bytecode to machine code")
    namespace = {}
    exec("def total(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\n",
         namespace)
    total = namespace["total"]
    assert total(100_000) == 4_999_950_000
    names = [i.opname for i in dis.get_instructions(total, adaptive=True)]
    assert ("ENTER_EXECUTOR" in names) == False
