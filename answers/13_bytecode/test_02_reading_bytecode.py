"""Reading bytecode with dis: which instruction the compiler picks, and how that changed."""

import dis
import sys

import pytest

RATE = 2


def opnames(fn):
    """Instruction names, with 3.12/3.13 variants (LOAD_FAST_CHECK, LOAD_FAST_LOAD_FAST,
    LOAD_FAST_AND_CLEAR) folded back into plain LOAD_FAST."""
    names = [i.opname for i in dis.get_instructions(fn)]
    return ["LOAD_FAST" if name.startswith("LOAD_FAST") else name for name in names]


def loads(fn):
    return [name for name in opnames(fn) if name.startswith("LOAD_")]


def test_a_local_is_read_from_a_numbered_slot():
    """Locals are known at compile time, so they live in a fixed array of slots and are read by
    index, with no dictionary lookup: the fast way."""

    def local_read(amount):
        return amount

    assert loads(local_read) == ["LOAD_FAST"]


def test_a_global_is_looked_up_by_name():
    """RATE is not assigned in the function, so the compiler makes it global: the instruction
    looks the name up in the module's dict, then in builtins, at run time."""

    def global_read():
        return RATE

    assert loads(global_read) == ["LOAD_GLOBAL"]


def test_a_closure_variable_is_read_through_a_cell():
    """`n` belongs to the enclosing function but outlives its call. It is kept in a cell
    object, and the inner function reads it by dereferencing that cell."""

    def make(n):
        def inner():
            return n

        return inner

    assert loads(make(1)) == ["LOAD_DEREF"]


def test_assigning_anywhere_in_a_function_makes_the_name_local_everywhere():
    """Scope is decided when the function is compiled. Because RATE is assigned further down,
    every use of RATE in the function is a LOAD_FAST, including the read before the assignment
    (LOAD_FAST_CHECK on 3.12+, which tests that the slot was filled)."""

    def shadow():
        before = RATE
        RATE = 3  # noqa: F841
        return before

    with pytest.raises(UnboundLocalError):
        shadow()


def test_load_fast_argument_is_an_index_into_co_varnames():
    """The operand of LOAD_FAST is the slot number, the position of the name in co_varnames.
    dis shows the name next to it only as a courtesy."""

    def second(a, b):
        return b

    load = next(i for i in dis.get_instructions(second) if i.opname.startswith("LOAD_FAST"))
    assert load.arg == 1


def first_binary(fn):
    return next(i for i in dis.get_instructions(fn) if i.opname.startswith("BINARY"))


def add(a, b):
    return a + b


@pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="3.10 still had one opcode per binary operator (3.11 merged them)",
)
def test_one_opcode_serves_every_binary_operator_since_3_11():
    """3.11 replaced the per-operator opcodes with one generic instruction whose argument says
    which operator (dis shows it as argrepr). Many older texts still show the old names; the
    adaptive interpreter then specialises the generic instruction."""
    instr = first_binary(add)
    assert (instr.opname, instr.argrepr) == ("BINARY_OP", "+")


@pytest.mark.skipif(
    sys.version_info >= (3, 11),
    reason="since 3.11 every binary operator shares one opcode, with an argument",
)
def test_addition_had_its_own_opcode_up_to_3_10():
    """Up to 3.10 each operator had its own opcode, named after the operation. 3.11 merged them
    into one, so bytecode names from older books no longer match what dis prints."""
    assert first_binary(add).opname == "BINARY_ADD"


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

    assert opnames(first)[0] == "RESUME"


@pytest.mark.skipif(
    sys.version_info < (3, 12),
    reason="before 3.12 `return None` was two instructions: LOAD_CONST, RETURN_VALUE",
)
@pytest.mark.skipif(
    sys.version_info >= (3, 14),
    reason="3.14 removed this fused instruction again: opcodes are implementation details",
)
def test_return_none_is_one_fused_instruction_on_3_12_and_3_13():
    """3.12 fused the pair 'push a constant' and 'return the top of the stack' into a single
    instruction, so a function that falls off its end returns None in one step. Opcodes are
    implementation details: they keep changing."""

    def nothing():
        pass

    assert opnames(nothing)[-1] == "RETURN_CONST"


def squares(xs):
    return [x * x for x in xs]


def nested_code(fn):
    return [c for c in fn.__code__.co_consts if hasattr(c, "co_code")]


@pytest.mark.skipif(
    sys.version_info < (3, 12),
    reason="up to 3.11 a comprehension is compiled as a hidden nested function",
)
def test_comprehensions_are_inlined_since_3_12():
    """PEP 709 (3.12) inlined list, dict and set comprehensions into the enclosing function's own
    bytecode, saving a function call per comprehension. (Generator expressions still get a
    function of their own.)"""
    assert len(nested_code(squares)) == 0


@pytest.mark.skipif(
    sys.version_info >= (3, 12),
    reason="since 3.12 (PEP 709) comprehensions are inlined into the function",
)
def test_comprehensions_were_hidden_functions_up_to_3_11():
    """Up to 3.11 a list comprehension was compiled as a nested function, stored as a code
    object in co_consts and called once; that function's scope kept the loop variable from
    leaking. 3.12 inlines it and keeps the loop variable isolated by other means (PEP 709)."""
    assert len(nested_code(squares)) == 1


def test_an_unreachable_branch_emits_no_instructions():
    """`if 0:` can never run, so the compiler emits no bytecode for its body. (On 3.10 and 3.11
    the string still lingers, unused, in co_consts; 3.12 cleans the table too.)"""

    def dead():
        if 0:
            return "unreached"
        return 1

    assert any(i.argval == "unreached" for i in dis.get_instructions(dead)) == False


def test_a_list_literal_after_in_becomes_a_constant_tuple():
    """`x in [1, 2, 3]` never lets anyone see or mutate the list, so the optimiser stores an
    immutable tuple constant instead of building a list on every call."""

    def small(x):
        return x in [1, 2, 3]

    assert [c for c in small.__code__.co_consts if isinstance(c, tuple)] == [(1, 2, 3)]
