"""eval, exec and ast.literal_eval: the whole pipeline at run time, and a safe subset of it."""

import ast

import pytest


def test_eval_runs_the_pipeline_at_run_time():
    """eval() lexes, parses, compiles and executes a string in one call. Precedence is decided
    by the parser, exactly as in a source file."""
    assert eval("2 + 3 * 4") == __


def test_literal_eval_reads_nested_literals():
    """ast.literal_eval parses the string and accepts only literal nodes: numbers, strings,
    bytes, tuples, lists, dicts, sets, booleans, None and Ellipsis (plus a sign, the `+`/`-`
    of a complex literal, and `set()`, since an empty set has no literal of its own)."""
    assert ast.literal_eval("{'qty': (1, 2.5)}") == __


def test_literal_eval_refuses_calls():
    """A Call node is not a literal, so literal_eval refuses it instead of running it (the one
    call it accepts is `set()`, which runs nothing). That is what makes it safe for untrusted
    input, unlike eval."""
    with pytest.raises(___):
        ast.literal_eval("__import__('os').getcwd()")


def test_literal_eval_adds_only_to_make_complex_numbers():
    """`1+2j` is accepted: a real plus an imaginary number is how complex literals are written.
    Plain arithmetic such as `1+2` is refused; literal_eval is not a calculator."""
    with pytest.raises(___):
        ast.literal_eval("1 + 2")


def test_exec_inserts_builtins_into_the_globals():
    """With an explicit dict as globals, exec stores the code's variables there and nowhere
    else: the dict is the module namespace. If it has no '__builtins__' key, exec also adds one
    (a reference to the builtins module's namespace) so that names like len and print can be
    found."""
    namespace = {}
    exec("total = 6 * 7", namespace)
    assert sorted(namespace) == __


def test_eval_looks_names_up_like_a_class_body():
    """A name in evaluated code is looked up as in a class body (LOAD_NAME), where a name
    assigned in the class shadows a global of the same name. eval's second argument plays the
    module's globals, its third the class body's own namespace. A function body is different:
    there the compiler fixes each name's scope in advance."""
    assert eval("owner", {"owner": "globals"}, {"owner": "locals"}) == __


def test_eval_with_a_namespace_cannot_see_your_variables():
    """Given an explicit globals dict, the evaluated code sees only that dict (and builtins),
    not the variables of the function that called eval."""
    qty = 3
    assert qty == 3
    with pytest.raises(___):
        eval("qty", {})
