"""Reading bytecode with dis: which instruction the compiler picks, and how that changed."""

import dis
import sys

import pytest

RATE = 2

# Every instruction that loads a constant, in one release or another.
CONSTANT_LOADS = ("LOAD_CONST", "RETURN_CONST", "LOAD_SMALL_INT", "LOAD_COMMON_CONSTANT")


def opnames(fn):
    """Instruction names, with the variants of the local load (LOAD_FAST_CHECK and
    LOAD_FAST_AND_CLEAR since 3.12, LOAD_FAST_LOAD_FAST since 3.13, LOAD_FAST_BORROW since 3.14)
    folded back into plain LOAD_FAST."""
    names = [i.opname for i in dis.get_instructions(fn)]
    return ["LOAD_FAST" if name.startswith("LOAD_FAST") else name for name in names]


def loads(fn):
    return [name for name in opnames(fn) if name.startswith("LOAD_")]


def test_a_local_is_read_from_a_numbered_slot():
    """Locals are known at compile time, so they live in a fixed array of slots and are read by
    index, with no dictionary lookup: the fast way."""

    def local_read(amount):
        return amount

    assert loads(local_read) == __


def test_a_global_is_looked_up_by_name():
    """RATE is not assigned in the function, so the compiler makes it global: the instruction
    looks the name up in the module's dict, then in builtins, at run time."""

    def global_read():
        return RATE

    assert loads(global_read) == __


def test_a_closure_variable_is_read_through_a_cell():
    """`n` belongs to the enclosing function but outlives its call. It is kept in a cell
    object, and the inner function reads it by dereferencing that cell."""

    def make(n):
        def inner():
            return n

        return inner

    assert loads(make(1)) == __


def test_assigning_anywhere_in_a_function_makes_the_name_local_everywhere():
    """Scope is decided when the function is compiled. Because RATE is assigned further down,
    every use of RATE in the function is a local load, including the read before the
    assignment (LOAD_FAST_CHECK on 3.12+, which tests that the slot was filled)."""

    def shadow():
        before = RATE  # noqa: F823 -- the read the koan is about
        RATE = 3  # noqa: F841
        return before

    with pytest.raises(___):
        shadow()


def test_load_fast_argument_is_an_index_into_co_varnames():
    """The operand of a local load is the slot number, the position of the name in
    co_varnames. dis shows the name next to it only as a courtesy."""

    def last(price, qty, discount):
        return discount

    load = next(i for i in dis.get_instructions(last) if i.opname.startswith("LOAD_FAST"))
    assert load.arg == __


def first_binary(fn):
    return next(i for i in dis.get_instructions(fn) if i.opname.startswith("BINARY"))


def add(a, b):
    return a + b


def item(seq, i):
    return seq[i]


def test_one_opcode_serves_every_binary_operator_since_3_11():
    """Up to 3.10 each operator had its own opcode, named after the operation. 3.11 replaced
    them with one generic instruction whose argument says which operator (dis shows it as
    argrepr), so bytecode names from older books no longer match what dis prints."""
    if sys.version_info >= (3, 11):
        instr = first_binary(add)
        assert (instr.opname, instr.argrepr) == __
    else:
        assert first_binary(add).opname == __


def test_what_a_subscription_compiles_to():
    """`seq[i]` takes two operands from the stack and pushes one result, just like `a + b`, but
    up to 3.13 it had an opcode of its own, named after the subscript. 3.14 made it one more
    operator of the generic binary instruction, whose argument now names it with the
    brackets."""
    instr = first_binary(item)
    if sys.version_info >= (3, 14):
        assert (instr.opname, instr.argrepr) == __
    else:
        assert instr.opname == __


@pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="3.10 has no hook instruction: the first instruction is the body's own first one",
)
def test_functions_open_with_a_hook_instruction_since_3_11():
    """From 3.11 a function's bytecode opens with a hook where the interpreter checks for tracing
    and pending interrupts (and, on 3.11 only, counts warm-up calls). Only set-up work for
    closure cells or generators may come before it, and the same instruction follows every
    `yield`, where a generator continues."""

    def first(a):
        return a

    assert opnames(first)[0] == __


def test_how_a_function_returns_a_constant():
    """A return pops the value on top of the stack, so returning a constant first pushes it:
    two instructions. 3.12 fused the pair into one that returns a co_consts entry directly,
    and 3.14 took the fused instruction out again. Opcodes are implementation details: they
    come and go between releases."""

    def word():
        return "done"

    body = [name for name in opnames(word) if name != "RESUME"]
    if (3, 12) <= sys.version_info < (3, 14):
        assert body == __
    else:
        assert body == __


def test_a_small_int_rides_in_the_instruction_since_3_14():
    """3.14 added an instruction just for small ints: it carries the value itself in its
    one-byte argument, so the int needs no entry in co_consts and no table lookup. An int that
    does not fit in that byte is loaded from co_consts as before."""

    def load_of(value):
        code = compile(f"x = {value}", "<koan>", "exec")
        return next(i.opname for i in dis.get_instructions(code) if i.opname in CONSTANT_LOADS)

    loaded_with = [load_of(value) for value in (7, 255, 256, -5)]
    if sys.version_info >= (3, 14):
        assert loaded_with == __
    else:
        assert loaded_with == __


def squares(xs):
    return [x * x for x in xs]


def test_where_a_comprehension_is_compiled():
    """Up to 3.11 a list comprehension was compiled as a hidden nested function, stored as a
    code object in co_consts (named after the kind of comprehension) and called once; its own
    scope kept the loop variable from leaking. PEP 709 (3.12) inlined list, dict and set
    comprehensions into the enclosing function's bytecode, saving that call, and isolates the
    loop variable by other means. (Generator expressions still get a function of their own.)"""
    nested = [c.co_name for c in squares.__code__.co_consts if hasattr(c, "co_code")]
    if sys.version_info >= (3, 12):
        assert nested == __
    else:
        assert nested == __


def test_an_unreachable_branch_emits_no_instructions():
    """`if 0:` can never run, so the compiler emits no bytecode for its body. (On 3.10 and 3.11
    its string still lingers, unused, in co_consts; 3.12 and later drop it from the table too.)"""

    def dead():
        if 0:
            return "unreached"
        return "reached"

    loaded = [i.argval for i in dis.get_instructions(dead) if i.opname in CONSTANT_LOADS]
    assert loaded == __


def test_a_list_literal_after_in_becomes_a_constant_tuple():
    """`x in [1, 2, 3]` never lets anyone see or mutate the list, so the optimiser stores an
    immutable tuple constant instead of building a list on every call."""

    def small(x):
        return x in [1, 2, 3]

    assert [c for c in small.__code__.co_consts if isinstance(c, tuple)] == __
