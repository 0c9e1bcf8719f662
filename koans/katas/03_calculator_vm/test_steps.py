"""Kata: a calculator built like an interpreter. Eight steps; write calc.py to pass them."""

import ast
import dis
import io
import tokenize as python_tokenize

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from calc import compile_tree, optimize, parse, parse_atom, parse_expression, parse_prefix, run, tokenize

SETTINGS = settings(max_examples=100, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
AST_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**"}


def parenthesised(text, flag):
    return f"({text})" if flag else text


def _bigger(inner):
    binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%"]), inner,
                       st.booleans(), st.booleans())
    return st.one_of(
        binary.map(lambda t: f"{parenthesised(t[0], t[3])} {t[1]} {parenthesised(t[2], t[4])}"),
        st.tuples(inner, st.integers(0, 3), st.booleans()).map(
            lambda t: f"({t[0]}) ** {'-' if t[2] else ''}{t[1]}"),
        inner.map(lambda text: f"-{text}"),
        st.tuples(inner, st.integers(0, 3)).map(lambda t: f"{t[0]} ** {t[1]} ** {min(t[1], 2)}"
                                                if t[0].isdigit() else f"-{t[0]}"),
    )


expressions = st.recursive(st.one_of(st.integers(0, 20).map(str), st.sampled_from("xyz")),
                           _bigger, max_leaves=8)
flat_expressions = st.recursive(
    st.one_of(st.integers(0, 20).map(str), st.sampled_from("xyz")),
    lambda inner: st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "**"]), inner).map(
        lambda t: f"{t[0]} {t[1]} {t[2]}"), max_leaves=8)  # no brackets, no unary minus
constants = st.recursive(st.integers(0, 20).map(str), _bigger, max_leaves=6)
envs = st.fixed_dictionaries({name: st.integers(-5, 5) for name in "xyz"})


def python_tokens(source):
    kinds = {python_tokenize.NUMBER: "NUMBER", python_tokenize.NAME: "NAME", python_tokenize.OP: "OP"}
    tokens = python_tokenize.generate_tokens(io.StringIO(source).readline)
    return [(kinds[t.type], t.string) for t in tokens if t.type in kinds] + [("END", "")]


def python_tree(node):
    """Python's own parse of an expression, in the kata's tuples."""
    if isinstance(node, ast.Constant):
        return ("num", node.value)
    if isinstance(node, ast.Name):
        return ("name", node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return ("neg", python_tree(node.operand))
    return (AST_OPS[type(node.op)], python_tree(node.left), python_tree(node.right))


def outcome(compute):
    """A value, or the type of the exception computing it raised."""
    try:
        return compute()
    except (ArithmeticError, NameError) as err:
        return type(err)


def python_constant(source):
    """What CPython's compiler folds an all-constant expression to, or None if it does not."""
    code = compile(source, "<kata>", "eval")
    rows = [i for i in dis.get_instructions(code) if i.opname not in ("RESUME", "NOP", "CACHE")]
    if len(rows) == 1 and rows[0].opname == "RETURN_CONST":
        return rows[0].argval
    if len(rows) == 2 and rows[0].opname in ("LOAD_CONST", "LOAD_SMALL_INT") and rows[1].opname == "RETURN_VALUE":
        return rows[0].argval
    return None


@SETTINGS
@given(expressions)
def test_tokenize_cuts_the_text_into_numbers_names_and_operators(source):
    """A tokenizer reads characters once, left to right, and groups them: digits into a number,
    a letter and the letters and digits after it into a name, and the longest operator that fits
    (** before *). Spaces only separate.
    Python's own tokenize module cuts every expression here into the same pieces."""
    assert tokenize("12 + x1*(3 - 4.5)") == [
        ("NUMBER", "12"), ("OP", "+"), ("NAME", "x1"), ("OP", "*"), ("OP", "("),
        ("NUMBER", "3"), ("OP", "-"), ("NUMBER", "4.5"), ("OP", ")"), ("END", "")]
    assert tokenize("2**3//4") == [("NUMBER", "2"), ("OP", "**"), ("NUMBER", "3"), ("OP", "//"),
                                   ("NUMBER", "4"), ("END", "")]
    with pytest.raises(SyntaxError):
        tokenize("2 $ 3")
    assert tokenize(source) == python_tokens(source)


def test_parse_atom_reads_a_number_or_a_name():
    """A parser walks the tokens with a position, at. The smallest expressions are atoms: a
    number (an int, or a float if it has a point, as in Python) or a name. Each parse function
    returns the tree it read and the position after it, so that the next one knows where to go
    on; anything else where an atom must be is a SyntaxError."""
    tokens = tokenize("42 x1 2.5 + 7")
    tree, at = parse_atom(tokens, 0)
    assert (tree, at, type(tree[1])) == (("num", 42), 1, int)
    assert parse_atom(tokens, 1) == (("name", "x1"), 2)
    tree, at = parse_atom(tokens, 2)
    assert (tree, at, type(tree[1])) == (("num", 2.5), 3, float)
    for where in (3, 5):  # an operator, the end
        with pytest.raises(SyntaxError):
            parse_atom(tokens, where)


@SETTINGS
@example("7 - 5 % 3")
@example("2 ** 3 ** 2")
@given(flat_expressions)
def test_parse_expression_binds_by_binding_power(source):
    """A Pratt parser reads an operand, then loops: while the next operator binds at least as
    tightly as the caller allows (min_power), it takes the operator and parses its right operand
    with the operator's right binding power. * binds tighter than +. A right power above the
    left one makes an operator left-associative (8 - 3 - 2 is (8 - 3) - 2), one below it
    right-associative (2 ** 3 ** 2 is 2 ** 9). It stops at anything else, and says where."""
    def expression(text):
        return parse_expression(tokenize(text), 0)

    assert expression("1 + 2 * 3") == (("+", ("num", 1), ("*", ("num", 2), ("num", 3))), 5)
    assert expression("1 * 2 + 3")[0] == ("+", ("*", ("num", 1), ("num", 2)), ("num", 3))
    assert expression("8 - 3 - 2")[0] == ("-", ("-", ("num", 8), ("num", 3)), ("num", 2))
    assert expression("2 ** 3 ** 2")[0] == ("**", ("num", 2), ("**", ("num", 3), ("num", 2)))
    assert expression("7 - 5 % 3")[0] == ("-", ("num", 7), ("%", ("num", 5), ("num", 3)))
    assert expression("2 * x ** 2")[0] == ("*", ("num", 2), ("**", ("name", "x"), ("num", 2)))
    assert expression("1 + 2 ) * 3") == (("+", ("num", 1), ("num", 2)), 3)
    assert expression(source)[0] == python_tree(ast.parse(source, mode="eval").body)


def test_parse_prefix_reads_unary_minus_and_brackets():
    """Where an operand is due, a - is unary minus and a ( opens brackets: a prefix, which
    parse_expression reads wherever it would read an atom. Unary minus parses its operand with
    its own binding power, below ** and above *: in Python -2 ** 2 is -(2 ** 2) but -2 * 3 is
    (-2) * 3. Brackets parse a whole expression inside, from power zero, and must be closed."""
    assert parse_prefix(tokenize("-x * 3"), 0) == (("neg", ("name", "x")), 2)
    assert parse_prefix(tokenize("-2 ** 2"), 0) == (("neg", ("**", ("num", 2), ("num", 2))), 4)
    assert parse_prefix(tokenize("(1 + x) * 2.5"), 0) == (("+", ("num", 1), ("name", "x")), 5)
    with pytest.raises(SyntaxError):
        parse_prefix(tokenize("(1"), 0)

    def expression(text):
        return parse_expression(tokenize(text), 0)[0]

    assert expression("-x * 3") == ("*", ("neg", ("name", "x")), ("num", 3))
    assert expression("(1 + x) * 2.5") == ("*", ("+", ("num", 1), ("name", "x")), ("num", 2.5))
    assert expression("2 ** -1 * 3") == ("*", ("**", ("num", 2), ("neg", ("num", 1))), ("num", 3))
    assert expression("2 * (3 - -y)") == ("*", ("num", 2), ("-", ("num", 3), ("neg", ("name", "y"))))
    assert expression("--1") == ("neg", ("neg", ("num", 1)))


@SETTINGS
@example("-2 ** 2")
@example("2 ** -1 * 3")
@example("8 - 3 - 2")
@given(expressions)
def test_parse_reads_the_whole_text_into_the_tree_python_builds(source):
    """parse() is the way in: tokens, an expression from power zero, and then nothing may be
    left but the end: 1 2 and (1)) are not expressions. Python's own parser is the referee:
    ast.parse builds the same tree for every expression here, with the same numbers, ints and
    floats alike (so the trees are compared by their repr)."""
    assert parse("1 + 2 * 3") == ("+", ("num", 1), ("*", ("num", 2), ("num", 3)))
    assert parse("-2 ** 2") == ("neg", ("**", ("num", 2), ("num", 2)))
    for broken in ("1 +", "(1", "1 2", ")", "(1))", ""):
        try:
            tree = parse(broken)
        except SyntaxError:
            continue
        pytest.fail(f"parse({broken!r}) returned {tree!r}: a text that is not one whole expression "
                    f"is a SyntaxError")
    assert repr(parse(source)) == repr(python_tree(ast.parse(source, mode="eval").body))


@SETTINGS
@given(expressions)
def test_compile_tree_emits_postfix_code_in_python_s_order(source):
    """A stack machine wants operands before the operation: the compiler walks the tree left
    subtree, right subtree, then the node (postfix order). CPython's compiler does the same:
    its code loads the names of an expression in the very order yours does."""
    assert compile_tree(parse("1 + 2 * x")) == [
        ("PUSH", 1), ("PUSH", 2), ("LOAD", "x"), ("BINARY", "*"), ("BINARY", "+")]
    assert compile_tree(parse("-(a - 3)")) == [("LOAD", "a"), ("PUSH", 3), ("BINARY", "-"), ("NEG",)]
    assert compile_tree(parse("2 ** 3 ** x")) == [
        ("PUSH", 2), ("PUSH", 3), ("LOAD", "x"), ("BINARY", "**"), ("BINARY", "**")]
    ours = [arg for op, *arg in compile_tree(parse(source)) if op == "LOAD"]
    theirs = [i.argval for i in dis.get_instructions(compile(source, "<kata>", "eval"))
              if i.opname == "LOAD_NAME"]
    assert [name for (name,) in ours] == theirs


@SETTINGS
@example("x - y", {"x": 1, "y": 5, "z": 0})
@example("(x) ** -1", {"x": 0, "y": 0, "z": 0})
@given(expressions, envs)
def test_run_computes_what_python_computes(source, env):
    """The virtual machine is one loop over the instructions and one stack: push a constant,
    push a variable's value, or pop operands and push the result. The right operand is on top:
    pop it first. Division by zero and unknown names fail as they do in Python."""
    assert run([("PUSH", 7), ("PUSH", 2), ("BINARY", "-")]) == 5
    assert run(compile_tree(parse("x * (y - 1)")), {"x": 3, "y": 5}) == 12
    with pytest.raises(NameError):
        run([("LOAD", "nowhere")], {})
    table = {"x": 7, "y": -2, "z": 3}
    for text in ("7 / 2", "7 // 2", "-7 // 2", "7 // -2", "-7 % 3", "7 % -3", "2 ** -1",
                 "2 ** 3 ** 2", "-2 ** 2", "x / y", "x % y - z", "(x - y) // z", "z ** y"):
        got = run(compile_tree(parse(text)), table)
        want = eval(text, {"__builtins__": {}}, dict(table))
        assert (got, type(got)) == (want, type(want)), text
    expected = outcome(lambda: eval(source, {"__builtins__": {}}, dict(env)))
    assert outcome(lambda: run(compile_tree(parse(source)), env)) == expected


@SETTINGS
@example("-(2 - 5) * 4", "x // (y - y)", {"x": 1, "y": 2, "z": 3})
@example("1 // 0", "2 ** -1 * z", {"x": 0, "y": 0, "z": 4})
@given(constants, expressions, envs)
def test_optimize_folds_constants_as_cpython_does(constant, source, env):
    """An operation on constants can run once, at compile time: the compiler replaces it with
    its result (constant folding). An operation that would raise is left alone for run time, as
    CPython leaves 1 // 0. Folding never changes what the code computes."""
    assert optimize(compile_tree(parse("2 * 3 + x"))) == [("PUSH", 6), ("LOAD", "x"), ("BINARY", "+")]
    assert optimize(compile_tree(parse("x + -(2 - 5)"))) == [("LOAD", "x"), ("PUSH", 3), ("BINARY", "+")]
    assert optimize(compile_tree(parse("1 // 0"))) == [("PUSH", 1), ("PUSH", 0), ("BINARY", "//")]
    code = compile_tree(parse(source))
    assert outcome(lambda: run(optimize(code), env)) == outcome(lambda: run(code, env))
    folded = python_constant(constant)
    if folded is not None:
        assert optimize(compile_tree(parse(constant))) == [("PUSH", folded)]
