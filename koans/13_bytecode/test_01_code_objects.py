"""Code objects: the bytecode and the tables its operands index into."""

import dis
import sys
import types

import pytest


def checkout(price, qty, *extras, discount, **options):
    total = price * qty
    return total


def test_the_signature_is_counted_by_kind():
    """co_argcount counts the parameters that can be passed by position. A parameter after
    *extras can only be passed by keyword, and those are counted separately, in
    co_kwonlyargcount. The * and ** collectors are in neither count: flags in co_flags say
    that they exist."""
    code = checkout.__code__
    assert (code.co_argcount, code.co_kwonlyargcount) == __


def test_co_varnames_lists_parameters_then_locals():
    """co_varnames is the table of local slots: named parameters first (keyword-only ones
    before *args!), then the * and ** collectors, then ordinary locals. LOAD_FAST n reads slot n."""
    slots = checkout.__code__.co_varnames
    assert slots == __


def test_co_names_holds_global_and_attribute_names():
    """Names that are not local (globals, builtins, attributes) are stored in co_names. `order`
    is a parameter, so it lives in co_varnames instead."""

    def count_items(order):
        return len(order.items)

    assert count_items.__code__.co_names == __


def test_co_consts_holds_the_literals():
    """Most literals live in co_consts, and LOAD_CONST n pushes entry n. Up to 3.13 entry 0 of a
    function's table is kept for its docstring, and holds None when there is none. Since 3.14
    entry 0 is the docstring only when there is one, and a flag in co_flags says which
    (CO_HAS_DOCSTRING)."""

    def greet():
        return "hello"

    if sys.version_info >= (3, 14):
        assert greet.__code__.co_consts == __
    else:
        assert greet.__code__.co_consts == __


def code_units(fn):
    """How many two-byte code units each instruction of fn takes up in co_code, its inline
    caches included (dis lists the instructions without their caches)."""
    instructions = list(dis.get_instructions(fn))
    ends = [i.offset for i in instructions[1:]] + [len(fn.__code__.co_code)]
    return {i.opname: (end - i.offset) // 2 for i, end in zip(instructions, ends, strict=True)}


@pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="3.10 has no inline caches: every instruction is exactly one code unit of co_code",
)
def test_inline_caches_pad_co_code_since_3_11():
    """Since 3.6 an instruction is one two-byte code unit, an opcode byte and an argument byte.
    From 3.11 an instruction the interpreter may specialise is followed in co_code by CACHE
    units, where its specialised form keeps its data. BINARY_OP's cache is one unit, a counter,
    up to 3.13; 3.14 added to it an 8-byte pointer to an extended specialisation."""

    def add(a, b):
        return a + b

    if sys.version_info >= (3, 14):
        assert code_units(add)["BINARY_OP"] == __
    else:
        assert code_units(add)["BINARY_OP"] == __


def test_code_objects_are_immutable():
    """A code object can be shared by many functions and cached in .pyc files, so its fields are
    read-only. Assigning to one fails."""
    with pytest.raises(___):
        checkout.__code__.co_consts = ()


def test_replace_makes_a_patched_copy_of_the_code():
    """code.replace() returns a new code object with some fields changed. An instruction that
    loads a constant names it only by its index into co_consts, so swapping the table changes
    the value without touching a single instruction. Since 3.14, though, a small int is not
    loaded from the table at all: its instruction carries the value in its own argument byte."""

    def answer():
        word = "draft"
        return word, 7

    code = answer.__code__
    swapped = {"draft": "final", 7: 8}
    answer.__code__ = code.replace(co_consts=tuple(swapped.get(c, c) for c in code.co_consts))
    if sys.version_info >= (3, 14):
        assert answer() == __
    else:
        assert answer() == __


def test_a_function_is_code_plus_globals():
    """A function object pairs a code object with the globals dict it reads free names from.
    The same code with another dict finds another `rate`."""

    def price(amount):
        return amount * rate  # noqa: F821 -- rate is looked up in the function's globals

    other = types.FunctionType(price.__code__, {"rate": 10})
    assert other(3) == __


def test_running_a_def_again_compiles_nothing_new():
    """The body of `inner` is compiled once, together with `make`, and stored among make's
    constants. Each run of the `def` statement builds a new function object around what it
    finds there, with its own closure cell for `n`."""

    def make(n):
        def inner():
            return n

        return inner

    made = [make(n) for n in range(3)]
    functions = len({id(f) for f in made})
    code_objects = len({id(f.__code__) for f in made})
    assert (functions, code_objects) == __


def test_def_statements_are_compiled_into_nested_code_constants():
    """Compiling a module compiles the function bodies too: each becomes a code object stored
    in the module's co_consts. The functions themselves only appear when the code runs."""
    module = compile("def f():\n    pass\ndef g():\n    pass\n", "<koan>", "exec")
    nested = [c.co_name for c in module.co_consts if isinstance(c, types.CodeType)]
    assert nested == __
