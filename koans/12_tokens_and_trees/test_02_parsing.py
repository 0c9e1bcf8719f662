"""Stage 2: the parser checks the tokens against the grammar and builds an abstract syntax tree."""

import ast
import sys

import pytest


def test_the_parser_rejects_what_the_lexer_accepted():
    """`1 + + = x` lexes fine, but no grammar rule builds a statement from it, so the parser
    raises. Code that breaks the grammar is refused before a single instruction runs."""
    with pytest.raises(___):
        ast.parse("1 + + = x")


def lines_run_before_the_error(source):
    """Run source, which is expected to raise, and return the lines it recorded before it did."""
    ran = []
    try:
        exec(source, {"ran": ran})
    except Exception:
        return ran
    raise AssertionError("the source was expected to raise")


def test_how_far_a_source_runs_before_an_error_stops_it():
    """Python does not read a module line by line as it runs it: the parser turns the whole
    source into one tree first, and only a complete tree is compiled and run. A name that is
    bound nowhere breaks no grammar rule, though; only running the line that reads it can find
    that out."""
    broken_grammar = "ran.append(1)\n1 + + = x\nran.append(3)\n"
    unbound_name = "ran.append(1)\nundefined_name\nran.append(3)\n"
    ran = (lines_run_before_the_error(broken_grammar), lines_run_before_the_error(unbound_name))
    assert ran == __


def test_ast_dump_shows_the_tree_of_an_expression():
    """ast.dump prints the tree as nested constructor calls, with the operator as a node of its
    own, and leaves out fields that hold nothing (None, and since 3.13 an empty list). Every
    Name carries a context that says whether it is read or written. Since 3.13 a Name built
    without one gets Load(), and from 3.15 on dump leaves out that default as well."""
    tree = ast.parse("price * qty", mode="eval")
    dumped = ast.dump(tree.body)
    if sys.version_info >= (3, 15):
        assert dumped == __
    else:
        assert dumped == __


def test_a_name_node_records_whether_it_is_read_or_written():
    """The same Name node type serves for reading a variable and for writing it; its `ctx`
    attribute says which, and the compiler picks the instruction from it. The parser uses
    three contexts, one for each thing a statement can do to a name."""
    target = ast.parse("total = price * qty").body[0].targets[0]
    assert type(target.ctx).__name__ == __


def test_a_comment_makes_no_node():
    """tokenize reports a comment as a token, but the parser drops it: there is no AST node type
    for a comment, so a module's body holds only its statements. Each statement still records
    the line it stands on in the source."""
    source = "# prices\ntotal = 0  # start\n# then\ncount = 1\n"
    assert [statement.lineno for statement in ast.parse(source).body] == __


def test_parentheses_make_no_node_of_their_own():
    """Parentheses steer the parser, then disappear: there is no node type for them. What makes
    a tuple is the comma, with or without parentheses around it."""
    texts = ("(qty)", "(qty,)", "qty,")
    assert [type(ast.parse(text, mode="eval").body).__name__ for text in texts] == __


def test_parentheses_that_matter_survive_as_tree_shape():
    """In `(a + b) * c` the parentheses are gone too, but their effect is not: the top of the
    tree is the operation done last."""
    top = ast.parse("(a + b) * c", mode="eval").body
    assert type(top.op).__name__ == __


def test_a_call_node_keeps_positional_and_keyword_arguments_apart():
    """A call is an expression node, which keeps positional arguments in `args` and keyword
    arguments in `keywords`, two separate lists."""
    node = ast.parse("print(total, sep='')", mode="eval").body
    assert type(node).__name__ == "Call"
    assert (len(node.args), len(node.keywords)) == __


def test_the_tree_keeps_source_positions():
    """Comments and spacing are dropped, but every statement and expression node remembers
    where it stands: its line and its column (a 0-based offset in UTF-8 bytes, the same as
    characters for ASCII). That is how an error message, and since 3.11 a traceback, can point at
    `qty` inside the line. (Operator and context nodes carry no position.)"""
    qty = ast.parse("total = price * qty").body[0].value.right
    assert qty.col_offset == __


def test_unparse_writes_the_tree_back_in_normal_form():
    """ast.unparse regenerates source from the tree. What the tree dropped (spacing, comments,
    redundant parentheses) cannot come back, so the text is normalised."""
    assert ast.unparse(ast.parse("total=(price)*qty  # in euros")) == __


def test_a_semicolon_only_separates_statements():
    """A semicolon lets two simple statements share a line. It ends a statement for the parser
    just as a line break does, and no node records which of the two did: the module's body is
    a plain list of statements, and unparse can only write back what the tree holds."""
    assert ast.unparse(ast.parse("total = 0; count = 1")) == __
