"""Stage 3: compile() turns source (or a tree) into a code object, folding constants on the way."""

import ast
import dis
import sys

import pytest

# Every instruction that loads a constant, in one release or another. Since 3.14 some of them
# take the value from elsewhere than co_consts (their own argument, or a table inside the
# interpreter), so these koans read what the instructions load, not the co_consts table.
CONSTANT_LOADS = ("LOAD_CONST", "RETURN_CONST", "LOAD_SMALL_INT", "LOAD_COMMON_CONSTANT")


def loaded_constants(expression):
    """The values the compiled expression pushes as constants, in the order it pushes them."""
    code = compile(expression, "<koan>", "eval")
    return [i.argval for i in dis.get_instructions(code) if i.opname in CONSTANT_LOADS]


def test_compile_returns_an_object_ready_to_run():
    """compile() runs the lexer, the parser and the compiler and hands back the result:
    instructions plus the tables they refer to (constants, names), not yet executed. Every
    function carries an object of the same type."""
    assert type(compile("2 + 3 * 4", "<koan>", "eval")).__name__ == "code"


def test_eval_mode_rejects_statements():
    """Mode 'eval' accepts exactly one expression. An assignment is a statement, so the
    compiler refuses it in this mode even though it is valid Python."""
    with pytest.raises(SyntaxError):
        compile("total = price * qty", "<koan>", "eval")


def test_exec_mode_code_evaluates_to_none():
    """Mode 'exec' compiles a module: a sequence of statements. An expression statement's value
    is computed and discarded, and eval() hands back whatever the code returns when it runs off
    its end."""
    assert eval(compile("2 + 3", "<koan>", "exec")) == None


def test_single_mode_echoes_every_expression_statement(monkeypatch):
    """Mode 'single' is the REPL's: each expression statement's value is passed to
    sys.displayhook, even inside a loop. Assignments echo nothing."""
    shown = []
    monkeypatch.setattr(sys, "displayhook", shown.append)
    exec(compile("for i in range(3): i\n", "<koan>", "single"), {})
    exec(compile("total = 5\n", "<koan>", "single"), {})
    assert shown == [0, 1, 2]


def test_constant_arithmetic_is_folded_at_compile_time():
    """The compiler's optimiser evaluates an operation whose operands are constants once, at
    compile time, and the code pushes only the result: the operands are never loaded."""
    assert loaded_constants("60 * 60 * 24") == [86400]


def test_folding_goes_left_to_right_and_stops_at_a_name():
    """`y * 2 * 3` means `(y * 2) * 3`: each multiplication involves y, so nothing is constant
    and nothing is folded. Written `2 * 3 * y`, the constant part comes first and folds."""
    assert loaded_constants("y * 2 * 3") == [2, 3]


def test_a_negative_number_is_folded_from_an_operator():
    """There are no negative literals: the lexer sees an OP and a NUMBER, and the parser wraps
    a UnaryOp(USub) around whatever the minus applies to. In `-2 ** 2` that is the power, since
    `**` binds tighter than a unary minus. A unary minus applied to a constant is constant
    arithmetic too, and the optimiser folds it with the rest."""
    assert loaded_constants("-2 ** 2") == [-4]


def test_folding_refuses_results_that_could_be_huge():
    """The optimiser estimates the size of a result before folding and gives up past a limit.
    For an int power the estimate is the bit length of the base times the exponent, and the
    limit is 128 bits."""
    assert loaded_constants("2 ** 65") == [2, 65]


def test_division_by_zero_is_left_for_run_time():
    """Folding must not change behaviour. Dividing by zero raises, so the compiler leaves such
    a division in the bytecode, and the error happens only if the line runs."""
    assert loaded_constants("2 * 3 / 0") == [6, 0]


@pytest.mark.skipif(
    sys.version_info < (3, 13),
    reason="ast.parse(optimize=...) arrived in 3.13: before it, the tree the compiler optimises "
    "could not be seen from Python (its AST optimiser did the folding)",
)
def test_which_stage_does_the_folding():
    """From 3.13 ast.parse(..., optimize=1) returns the tree after the AST optimiser, the tree
    the compiler would generate code from. Up to 3.13 that optimiser did the arithmetic on
    literals. 3.14 moved the folding into the bytecode optimiser, which folds the instructions
    that load the operands and apply the operator; the optimised tree keeps the arithmetic."""
    top = ast.parse("60 * 60", mode="eval", optimize=1).body
    if sys.version_info >= (3, 14):
        assert type(top).__name__ == "BinOp"
    else:
        assert type(top).__name__ == "Constant"
