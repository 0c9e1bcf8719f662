"""Stage 1 of the pipeline: the lexer (tokenizer) cuts source text into tokens."""

import io
import sys
import tokenize

import pytest


def tokens(source):
    """(type name, text) for each token, without the NEWLINE/ENDMARKER bookkeeping at the end."""
    return [
        (tokenize.tok_name[tok.type], tok.string)
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type not in (tokenize.NEWLINE, tokenize.ENDMARKER)
    ]


def kinds(source):
    return tuple(kind for kind, _ in tokens(source))


def test_an_assignment_lexes_into_names_and_operators():
    """The lexer knows nothing about assignment or multiplication. It only sees words (NAME)
    and punctuation (OP); what they mean is the parser's job."""
    assert kinds("total = price * qty") == __


def test_a_number_literal_is_one_token_exponent_included():
    """A literal such as 2.5e3 is cut out whole, as one NUMBER token: the lexer reads the
    longest run of characters that can form a number."""
    assert tokens("price * 2.5e3")[-1] == __


def test_a_minus_sign_is_not_part_of_the_number():
    """There are no negative literals in Python's grammar. `-1` is an OP token followed by a
    NUMBER token; the compiler folds them back into the constant -1 later."""
    assert kinds("-1") == __


def test_the_lexer_does_not_know_keywords_from_identifiers():
    """`if` and `def` come out of the tokenizer with the same token type as `price`. Telling
    keywords from identifiers is left to the parser (which is how soft keywords such as
    `match` can also be ordinary variables)."""
    assert kinds("if ready: go()")[0] == __


def test_an_operator_token_carries_its_exact_type():
    """Every operator has the generic type OP, but `exact_type` names the precise symbol.
    tok_name turns the number into a name; use the names, the numbers moved between releases."""
    star = [tok for tok in tokenize.generate_tokens(io.StringIO("price * qty").readline)][1]
    assert tokenize.tok_name[star.exact_type] == __


def test_comments_are_tokens():
    """The tokenize module keeps comments as COMMENT tokens (formatters and linters need them).
    The tokenizer inside the compiler skips them, so the parser never sees a comment."""
    found = tokens("total = price * qty  # in euros")
    comments = [text for kind, text in found if kind == "COMMENT"]
    assert comments == __


def test_closing_blocks_emit_one_dedent_per_level():
    """Indentation is turned into INDENT and DEDENT tokens, like the braces of C: an INDENT
    opens a block and a DEDENT closes one. At the end of a file every block still open is
    closed."""
    source = "if a:\n    if b:\n        c\n"
    assert kinds(source).count("DEDENT") == __


def test_the_lexer_accepts_token_soup_the_parser_would_reject():
    """The tokenizer checks only that each piece is a valid token, not that the pieces make a
    sentence. `1 + + = x` is a row of good tokens that make a bad statement."""
    assert len(tokens("1 + + = x")) == __


def test_tokens_remember_their_positions_for_untokenize():
    """Each token records where it started and ended, so the gaps between tokens and the comment
    can be rebuilt from the tokens alone. untokenize fills each gap between two tokens on a line
    with spaces (a tab would come back as a space)."""
    source = "total = price * qty  # in euros\n"
    rebuilt = tokenize.untokenize(tokenize.generate_tokens(io.StringIO(source).readline))
    assert (rebuilt == source) == __


@pytest.mark.skipif(
    sys.version_info < (3, 12),
    reason="before 3.12 the tokenizer did not look inside an f-string (PEP 701 changed it)",
)
def test_an_fstring_is_split_into_tokens_since_3_12():
    """PEP 701 (3.12) taught the tokenizer f-strings: the start and the end of an f-string get
    token types of their own, and the braces and the expression inside them come out as the
    ordinary tokens they would be anywhere else."""
    assert kinds("f'{x}'") == __


@pytest.mark.skipif(
    sys.version_info >= (3, 12),
    reason="since 3.12 (PEP 701) the tokenizer looks inside an f-string",
)
def test_an_fstring_was_opaque_to_the_tokenizer_before_3_12():
    """Up to 3.11 the tokenizer treated an f-string like any other string literal; the parser
    had to lex the text inside the braces again, by hand. 3.12 (PEP 701) changed that."""
    assert kinds("f'{x}'") == __
