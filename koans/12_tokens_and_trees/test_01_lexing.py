"""Stage 1 of the pipeline: the lexer (tokenizer) cuts source text into tokens."""

import io
import sys
import tokenize


def tokens(source):
    """(type name, text) for each token, leaving out the NEWLINE and ENDMARKER bookkeeping."""
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


def test_untokenize_rebuilds_the_gaps_from_positions():
    """Each token records the row and column where it starts and ends, so untokenize can put
    every token back in its place, the comment included. What filled the gap between two
    tokens is not recorded, only how many columns it spans, and untokenize fills a gap on a
    line with that many spaces."""
    source = "total =\tprice * qty  # in euros\n"
    rebuilt = tokenize.untokenize(tokenize.generate_tokens(io.StringIO(source).readline))
    assert rebuilt == __


def test_what_the_tokenizer_sees_inside_an_fstring():
    """Up to 3.11 the tokenizer treated an f-string like any other string literal, and the
    parser had to lex the text inside the braces again, by hand. PEP 701 (3.12) taught the
    tokenizer f-strings: the start and the end of one get token types of their own, and the
    braces and the expression between them come out as the ordinary tokens they would be
    anywhere else."""
    if sys.version_info >= (3, 12):
        assert kinds("f'{x}'") == __
    else:
        assert kinds("f'{x}'") == __
