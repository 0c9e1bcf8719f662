"""Stage 3: compile() turns source (or a tree) into a code object, folding constants on the way."""

import sys

import pytest


def consts(source):
    return compile(source, "<koan>", "exec").co_consts


def test_compile_returns_an_object_ready_to_run():
    """compile() runs the lexer, the parser and the compiler and hands back the result:
    instructions plus the tables they refer to (constants, names), not yet executed. Every
    function carries an object of the same type."""
    assert type(compile("2 + 3 * 4", "<koan>", "eval")).__name__ == __


def test_eval_mode_rejects_statements():
    """Mode 'eval' accepts exactly one expression. An assignment is a statement, so the
    compiler refuses it in this mode even though it is valid Python."""
    with pytest.raises(___):
        compile("total = price * qty", "<koan>", "eval")


def test_exec_mode_code_evaluates_to_none():
    """Mode 'exec' compiles a module: a sequence of statements. An expression statement's value
    is computed and discarded, and eval() hands back whatever the code returns when it runs off
    its end."""
    assert eval(compile("2 + 3", "<koan>", "exec")) == __


def test_single_mode_echoes_every_expression_statement(monkeypatch):
    """Mode 'single' is the REPL's: each expression statement's value is passed to
    sys.displayhook, even inside a loop. Assignments echo nothing."""
    shown = []
    monkeypatch.setattr(sys, "displayhook", shown.append)
    exec(compile("for i in range(3): i\n", "<koan>", "single"), {})
    exec(compile("total = 5\n", "<koan>", "single"), {})
    assert shown == __


def test_constant_arithmetic_is_folded_at_compile_time():
    """The compiler's optimiser evaluates 2 * 3 once, at compile time. The code object holds
    the result; the operands 2 and 3 are not even stored."""
    assert consts("seconds = 2 * 3") == __


def test_folding_goes_left_to_right_and_stops_at_a_name():
    """`y * 2 * 3` means `(y * 2) * 3`: each multiplication involves y, so nothing is constant
    and nothing is folded. Written `2 * 3 * y`, the constant part comes first and folds to 6."""
    assert consts("x = y * 2 * 3") == __


def test_minus_one_comes_back_as_a_single_constant():
    """The lexer saw OP and NUMBER and the parser built UnaryOp(USub, 1), but a unary minus
    applied to a constant is constant arithmetic too, and the optimiser folds it."""
    assert consts("x = -1") == __


def test_folding_refuses_results_that_could_be_huge():
    """The optimiser estimates the size of a result before folding and gives up past a limit.
    For an int power the estimate is the bit length of the base times the exponent, and the
    limit is 128 bits."""
    assert consts("x = 2 ** 65") == __


def test_division_by_zero_is_left_for_run_time():
    """Folding must not change behaviour. 1 / 0 would raise, so the compiler leaves the
    division in the bytecode and the error happens only if the line runs."""
    assert consts("x = 1 / 0") == __
