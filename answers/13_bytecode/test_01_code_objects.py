"""Code objects: the bytecode and the tables its operands index into."""

import dis
import sys
import types

import pytest


def checkout(price, qty, *extras, discount, **options):
    total = price * qty
    return total


def test_co_argcount_counts_only_positional_parameters():
    """co_argcount counts the parameters that can be passed by position. *extras,
    keyword-only `discount` and **options are counted elsewhere (or not at all)."""
    assert checkout.__code__.co_argcount == 2


def test_keyword_only_parameters_have_their_own_count():
    """A parameter after *args can only be passed by keyword, and the code object counts those
    separately in co_kwonlyargcount."""
    assert checkout.__code__.co_kwonlyargcount == 1


def test_co_varnames_lists_parameters_then_locals():
    """co_varnames is the table of local slots: named parameters first (keyword-only ones
    before *args!), then the * and ** collectors, then ordinary locals. LOAD_FAST n reads slot n."""
    slots = checkout.__code__.co_varnames
    assert slots == ("price", "qty", "discount", "extras", "options", "total")


def test_co_names_holds_global_and_attribute_names():
    """Names that are not local (globals, builtins, attributes) are stored in co_names. `order`
    is a parameter, so it lives in co_varnames instead."""

    def count_items(order):
        return len(order.items)

    assert count_items.__code__.co_names == ("len", "items")


def test_co_consts_holds_the_literals():
    """Literals live in co_consts and LOAD_CONST n pushes entry n. On 3.10 to 3.13 slot 0 of a
    function's table is reserved for its docstring, whether or not the function has one."""

    def greet():
        return "hello"

    assert greet.__code__.co_consts == (None, "hello")


def test_inline_caches_pad_co_code_since_3_11():
    """Since 3.6 an instruction is one two-byte code unit, an opcode byte and an argument byte,
    and co_code is the units laid end to end. From 3.11 an instruction the interpreter may
    specialise is followed in co_code by CACHE units, where its specialised form keeps its
    counters and guesses; dis lists the instructions without them."""

    def add(a, b):
        return a + b

    units = len(add.__code__.co_code) // 2
    instructions = len(list(dis.get_instructions(add)))
    if sys.version_info >= (3, 11):
        assert units - instructions == 1
    else:
        assert units - instructions == 0


def test_code_objects_are_immutable():
    """A code object can be shared by many functions and cached in .pyc files, so its fields are
    read-only. Assigning to one fails."""
    with pytest.raises(AttributeError):
        checkout.__code__.co_consts = ()


def test_replace_makes_a_patched_copy_of_the_code():
    """code.replace() returns a new code object with some fields changed. The instructions name a
    constant only by its index into co_consts (LOAD_CONST, or RETURN_CONST on 3.12 and 3.13), so
    swapping the table changes the value without touching a single instruction."""

    def answer():
        return 1

    code = answer.__code__
    answer.__code__ = code.replace(co_consts=tuple(2 if c == 1 else c for c in code.co_consts))
    assert answer() == 2


def test_a_function_is_code_plus_globals():
    """A function object pairs a code object with the globals dict it reads free names from.
    The same code with another dict finds another `rate`."""

    def price(amount):
        return amount * rate  # noqa: F821 -- rate is looked up in the function's globals

    other = types.FunctionType(price.__code__, {"rate": 10})
    assert other(3) == 30


def test_running_a_def_again_compiles_nothing_new():
    """The body of `inner` is compiled once, together with `make`, and stored among make's
    constants. Running the `def` statement builds a function object around what it finds
    there."""

    def make(n):
        def inner():
            return n

        return inner

    assert (make(1).__code__ is make(2).__code__) == True


def test_def_statements_are_compiled_into_nested_code_constants():
    """Compiling a module compiles the function bodies too: each becomes a code object stored
    in the module's co_consts. The functions themselves only appear when the code runs."""
    module = compile("def f():\n    pass\ndef g():\n    pass\n", "<koan>", "exec")
    nested = [c.co_name for c in module.co_consts if isinstance(c, types.CodeType)]
    assert nested == ["f", "g"]
