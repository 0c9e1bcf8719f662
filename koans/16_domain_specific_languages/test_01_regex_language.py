"""Regular expressions: a small language with its own compiler, embedded in Python strings.

`re.compile` parses the pattern and compiles it into a program for the regex engine, a
separate little interpreter written in C. The pattern language has its own rules that differ
from Python's, and those rules are what the koans below poke at.
"""

import re


def test_re_compiles_a_pattern_when_the_program_runs_and_keeps_it():
    """To Python's own compiler a pattern is just a string: `re` compiles it while the program
    runs, into a Pattern object for the C matching engine. That costs far more than a match,
    so the module keeps the patterns it compiled in a cache keyed by the pattern's type, text
    and flags; the module-level functions such as `re.match` go through the same cache, and
    `re.purge()` empties it. The set below counts distinct Pattern objects."""
    re.purge()
    patterns = [re.compile(r"\d+"), re.compile(r"\d+"), re.match(r"\d+", "42").re,
                re.compile(r"\d+", re.IGNORECASE)]
    re.purge()
    patterns.append(re.compile(r"\d+"))
    assert len({id(pattern) for pattern in patterns}) == __


def test_findall_returns_the_groups_not_the_whole_matches():
    """With capturing groups in the pattern, `re.findall` stops returning whole matches and
    returns the groups instead: one tuple per match when there are several groups."""
    assert re.findall(r"(\w)=(\d)", "a=1, b=2") == __


def test_named_groups_build_a_dict():
    """`(?P<name>...)` gives a group a name in the pattern language; `groupdict()` collects the
    named groups of a match into a dict. Each value is the text the group matched, a str for a
    str pattern (bytes for a bytes pattern), or None for a group that took no part in the
    match: the regex language knows nothing about numbers."""
    m = re.match(r"(?P<key>\w+)=(?P<value>\d+)", "depth=3")
    assert m.groupdict() == __


def test_verbose_mode_ignores_spaces_in_the_pattern():
    """`re.VERBOSE` lets a pattern be laid out with spaces and `# comments`, which the regex
    compiler throws away. The price: a plain space in the pattern no longer stands for a space
    (write `\\ ` or `[ ]` for that)."""
    pattern = re.compile("a b  # an a, then a b", re.VERBOSE)
    assert [text for text in ("a b", "ab", "a  b") if pattern.fullmatch(text)] == __


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
    assert [text for text in ("aabaa", "aaba", "abaa", "aba") if twin.fullmatch(text)] == __


def test_re_escape_turns_any_string_into_a_pattern_matching_only_itself():
    """Data pasted into a pattern becomes code in the regex language: a "." there matches any
    character. `re.escape` puts a backslash before every character the language treats as
    special, so the escaped text is a pattern that matches the original string and nothing
    else."""
    price, text = "3.14", "3.14 3x14 3114"
    found = (re.findall(price, text), re.findall(re.escape(price), text))
    assert found == __
