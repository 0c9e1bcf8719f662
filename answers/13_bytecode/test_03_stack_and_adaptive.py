"""The stack machine, the specialising adaptive interpreter of 3.11+ (PEP 659), and the JIT."""

import ast
import dis
import os
import subprocess
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


def test_what_a_borrowed_load_saves():
    """sys.getrefcount counts every reference to the object, including the one that its own
    argument holds on the stack, if it holds one. Up to 3.13 every load of a local pushes a new
    reference: one increment now, a decrement when the value is used up. 3.14's compiler
    checks, one straight run of instructions at a time, that the local outlives the stack
    entry, and then pushes a borrowed reference (LOAD_FAST_BORROW): no increment, no
    decrement. A value still on the stack where the code branches (as in `or`) cannot be
    checked that way and gets a new reference as before."""

    def counts():
        order = object()
        plain = sys.getrefcount(order)
        across_a_branch = sys.getrefcount(order or None)
        return plain, across_a_branch

    if sys.version_info >= (3, 14):
        assert counts() == (1, 2)
    else:
        assert counts() == (2, 2)


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


def _skip_if_watched():
    if sys.version_info < (3, 14) and sysconfig.get_config_var("Py_GIL_DISABLED"):
        pytest.skip("the free-threaded 3.13 build (3.13t) has specialisation switched off")
    if sys.gettrace() is not None or sys.getprofile() is not None:
        pytest.skip("a tracer or profiler (debugger, coverage) is active; 3.11 stops specialising")
    if sys.version_info >= (3, 12) and any(sys.monitoring.get_tool(t) for t in range(6)):
        pytest.skip("a sys.monitoring tool is active; it can change what gets specialised")


def adaptive_binary_ops(fn):
    _skip_if_watched()
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
    """The interpreter rewrites the code object's live instructions in place, and the adaptive
    view of dis reads those. co_code, though, is also what marshal writes into a .pyc, and a
    .pyc must not depend on how one particular run happened to warm up."""
    add = fresh_add()
    for i in range(1000):
        add(i, 1)
    in_co_code = [dis.opname[op] for op in add.__code__.co_code[::2]]
    binary_in_co_code = [name for name in in_co_code if name.startswith("BINARY")]
    assert (binary_in_co_code, adaptive_binary_ops(add)) == (["BINARY_OP"], ["BINARY_OP_ADD_INT"])


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


@needs_adaptive
def test_a_global_load_remembers_where_it_found_the_name():
    """A global load looks in the module's dict first, then in builtins. Once warm, each such
    instruction is specialised for the dict where its name was found: it remembers the slot of
    the value, and on each run it only checks that the key tables it relies on are unchanged
    (each carries a version number) before reading that slot."""
    namespace = {"PRICES": [3, 4]}
    exec("def count():\n    return len(PRICES)\n", namespace)
    count = namespace["count"]
    for _ in range(1000):
        count()
    _skip_if_watched()
    names = [i.opname for i in dis.get_instructions(count, adaptive=True)]
    assert [name for name in names if name.startswith("LOAD_GLOBAL")] == ["LOAD_GLOBAL_BUILTIN", "LOAD_GLOBAL_MODULE"]


# ---- the JIT (3.14+) ------------------------------------------------------------------------

# Run in a fresh interpreter: a hot loop, then what the process says about its JIT and how many
# of the loop's instructions were overwritten by an executor. dis shows the instruction an
# executor replaced, so the count reads the live instructions directly.
JIT_CHILD = """
import dis, sys
def total(n):
    t = 0
    for i in range(n):
        t += i
    return t
total(20_000)
live = total.__code__._co_code_adaptive
opcodes = [live[i.offset] for i in dis.get_instructions(total)]
print((sys._jit.is_enabled(), opcodes.count(dis.opmap["ENTER_EXECUTOR"])))
"""


def jit_child(setting):
    env = dict(os.environ, PYTHON_JIT=setting)
    run = subprocess.run(
        [sys.executable, "-c", JIT_CHILD],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return ast.literal_eval(run.stdout.strip())


@pytest.mark.skipif(
    sys.version_info < (3, 14),
    reason="sys._jit arrived in 3.14; 3.13's experimental JIT, found only in builds configured "
    "for it, had no public way to ask whether it was there or on",
)
def test_what_python_jit_decides_at_start_up():
    """A build configured with the JIT can compile a hot loop to machine code: after enough
    trips round the loop it builds a trace of the loop's instructions, compiles it, and
    overwrites the loop's backward jump with ENTER_EXECUTOR, which runs the compiled trace
    instead. Whether a process does this is decided when it starts: the PYTHON_JIT variable
    asks for it, and a build without the JIT (sys._jit.is_available() is False) has nothing to
    switch on."""
    if "experimental-jit=interpreter" in (sysconfig.get_config_var("CONFIG_ARGS") or ""):
        pytest.skip("this build runs traces in a debugging interpreter instead of machine code")
    reports = [jit_child("0"), jit_child("1")]
    if sys.version_info >= (3, 14) and sys._jit.is_available():
        assert reports == [(False, 0), (True, 1)]
    else:
        assert reports == [(False, 0), (False, 0)]
