"""Regular expressions: a small language with its own compiler, embedded in Python strings.

`re.compile` parses the pattern and compiles it into a program for the regex engine, a
separate little interpreter written in C. The pattern language has its own rules that differ
from Python's, and those rules are what the koans below poke at.
"""

import re

from hypothesis import given
from hypothesis import strategies as st


def test_a_compiled_pattern_knows_how_many_groups_it_has():
    """Compiling a pattern analyses it once, ahead of any matching: the resulting Pattern
    object already knows its structure, such as the number of capturing groups."""
    date = re.compile(r"(\d+)-(\d+)-(?:\d+)")
    assert date.groups == __


def test_findall_returns_the_groups_not_the_whole_matches():
    """With capturing groups in the pattern, `re.findall` stops returning whole matches and
    returns the groups instead: one tuple per match when there are several groups."""
    assert re.findall(r"(\w)=(\d)", "a=1, b=2") == __


def test_named_groups_build_a_dict():
    """`(?P<name>...)` gives a group a name in the pattern language; `groupdict()` collects the
    named groups of a match into a dict. The values are always strings: the regex language
    knows nothing about numbers."""
    m = re.match(r"(?P<key>\w+)=(?P<value>\d+)", "depth=3")
    assert m.groupdict() == __


def test_ignorecase_flag_changes_what_the_pattern_matches():
    """Flags are options for the regex compiler. With `re.IGNORECASE` the compiled program
    compares letters without regard to case, so one pattern matches every spelling."""
    assert re.findall("py", "Py PY py pY", re.IGNORECASE) == __


def test_verbose_mode_ignores_spaces_in_the_pattern():
    """`re.VERBOSE` lets a pattern be laid out with spaces and `# comments`, which the regex
    compiler throws away. The price: a plain space in the pattern no longer matches a space
    (write `\\ ` or `[ ]` for that)."""
    pattern = re.compile("a b  # an a, then a b", re.VERBOSE)
    assert bool(pattern.fullmatch("a b")) == __


def test_alternation_takes_the_first_branch_that_works_not_the_longest():
    """Python's engine tries the branches of `|` left to right and stops at the first that
    lets the match succeed. A POSIX engine (leftmost-longest) would report the longest match
    "ab"; Perl-style engines, `re` among them, report the first branch that works."""
    assert re.match("a|ab", "ab").group() == __


def test_greedy_quantifiers_give_back_characters_when_needed():
    """`a*` first grabs as much as it can, then backtracks one character at a time when the
    rest of the pattern fails. The engine tries the first group's longest choice first, and the
    second group only gets what the first one left over."""
    assert re.match(r"(a*)(a*)a", "aaaa").groups() == __


def test_backreferences_reach_beyond_regular_languages():
    """`\\1` means "the same text group 1 matched". No finite automaton can remember an
    unbounded string, so a pattern with a backreference is not a regular expression in the
    theoretical sense, and an engine that supports it must backtrack."""
    twin = re.compile(r"(a+)b\1")
    assert (bool(twin.fullmatch("aabaa")), bool(twin.fullmatch("aaba"))) == __


@given(st.text(max_size=10))
def test_re_escape_turns_any_string_into_a_pattern_matching_only_itself(text):
    """Data pasted into a pattern becomes code in the regex language: a "." would match any
    character. `re.escape` quotes every special character, so the escaped text is a pattern
    that matches the original string and nothing else."""
    assert bool(re.fullmatch(re.escape(text), text)) == __
