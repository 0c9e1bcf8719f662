"""Stage 2: the parser checks the tokens against the grammar and builds an abstract syntax tree."""

import ast

import pytest


def test_the_parser_rejects_what_the_lexer_accepted():
    """`1 + + = x` lexes fine, but no grammar rule builds a statement from it, so the parser
    raises. Code that breaks the grammar is refused before a single instruction runs."""
    with pytest.raises(SyntaxError):
        ast.parse("1 + + = x")


def test_ast_dump_shows_the_tree_of_an_expression():
    """ast.dump prints the tree as nested constructor calls. A name being read carries the
    context Load(); the operator is a node of its own."""
    tree = ast.parse("price * qty", mode="eval")
    dumped = ast.dump(tree.body)
    assert dumped == "BinOp(left=Name(id='price', ctx=Load()), op=Mult(), right=Name(id='qty', ctx=Load()))"


def test_a_name_node_records_whether_it_is_read_or_written():
    """The same Name node type serves for reading a variable and for writing it; its `ctx`
    attribute says which, and the compiler picks the instruction from it. There are three
    contexts, one for each thing a statement can do to a name."""
    target = ast.parse("total = price * qty").body[0].targets[0]
    assert type(target.ctx).__name__ == "Store"


def test_comments_vanish_from_the_tree():
    """tokenize reports a comment as a token, but the parser drops it: there is no AST node type
    for a comment. The AST keeps only what matters for running the code."""
    with_comment = ast.dump(ast.parse("total = price * qty  # in euros"))
    without = ast.dump(ast.parse("total = price * qty"))
    assert (with_comment == without) == True


def test_redundant_parentheses_vanish_from_the_tree():
    """Parentheses steer the parser, then disappear: there is no node type for them. In
    `(a * b) + c` they only restate what precedence would do anyway."""
    assert (ast.dump(ast.parse("(a * b) + c")) == ast.dump(ast.parse("a * b + c"))) == True


def test_parentheses_that_matter_survive_as_tree_shape():
    """In `(a + b) * c` the parentheses are gone too, but their effect is not: the top of the
    tree is the operation done last."""
    top = ast.parse("(a + b) * c", mode="eval").body
    assert type(top.op).__name__ == "Mult"


def test_a_call_node_keeps_positional_and_keyword_arguments_apart():
    """A call is an expression node, which keeps positional arguments in `args` and keyword
    arguments in `keywords`, two separate lists."""
    node = ast.parse("print(total, sep='')", mode="eval").body
    assert type(node).__name__ == "Call"
    assert (len(node.args), len(node.keywords)) == (1, 1)


def test_the_tree_keeps_source_positions():
    """Comments and spacing are dropped, but every node remembers its line and column (a 0-based
    offset in UTF-8 bytes, the same as characters for ASCII). That is how a SyntaxError, and since
    3.11 a traceback, can point at `qty` inside the line."""
    qty = ast.parse("total = price * qty").body[0].value.right
    assert qty.col_offset == 16


def test_unparse_writes_the_tree_back_in_normal_form():
    """ast.unparse regenerates source from the tree. What the tree dropped (spacing, comments,
    redundant parentheses) cannot come back, so the text is normalised."""
    assert ast.unparse(ast.parse("total=(price)*qty  # in euros")) == "total = price * qty"
