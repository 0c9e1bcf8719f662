"""Backtracking blow-up: counted in a model matcher, then measured in `re` itself.

A regular language can always be matched by a finite automaton in one step per character
(RE2's guarantee). Python's `re` instead backtracks, which buys backreferences and lookarounds
but allows an exponential worst case (ReDoS). Below is a tiny backtracking matcher built the
same way, instrumented to count its character comparisons, a DFA for comparison, and then
`re` itself, timed only as a ratio of CPU times.
"""

import re
import sys
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st


def backtracking_steps(text):
    """Match `(a+)+b` at the start of `text` by backtracking; return (matched, comparisons)."""
    steps = 0

    def char(c):
        def match(i, then):
            nonlocal steps
            steps += 1
            return i < len(text) and text[i] == c and then(i + 1)

        return match

    def plus(node):  # greedy: after one match, first try to repeat, then try to stop
        def match(i, then):
            return node(i, lambda j: match(j, then) or then(j))

        return match

    a_plus_plus = plus(plus(char("a")))
    b = char("b")
    matched = a_plus_plus(0, lambda j: b(j, lambda k: True))
    return matched, steps


def dfa_steps(text):
    """Match `a+b` (the same language as `(a+)+b`) with a table-driven DFA; return
    (matched, steps). One table lookup per character, never a second look."""
    table = {("start", "a"): "as", ("as", "a"): "as", ("as", "b"): "done"}
    state, steps = "start", 0
    for ch in text:
        steps += 1
        state = table.get((state, ch), "dead")
        if state in ("dead", "done"):
            break
    return state == "done", steps


def test_a_successful_match_is_cheap_even_for_the_bad_pattern():
    """Greedy `a+` eats every "a", the outer `+` finds no more, and `b` matches: the first path
    tried succeeds. The matcher counts every character comparison it makes, the failed ones
    included."""
    assert backtracking_steps("a" * 10 + "b") == (True, 13)


@given(st.integers(min_value=1, max_value=9))
def test_each_extra_a_multiplies_the_work_of_a_failing_match(n):
    """When there is no "b", the matcher must try every way of splitting the run of a's between
    the inner and the outer `+` before giving up. One more "a" gives every split two ways to go
    on: close a group before the new "a", or not."""
    _, fewer = backtracking_steps("a" * n)
    _, more = backtracking_steps("a" * (n + 1))
    assert more // fewer == 2


def test_a_dfa_takes_one_step_per_character_even_when_failing():
    """An automaton never backtracks: it reads each character once, looks up its next state,
    and never looks at a character twice; it stops before the end only once it has matched or
    has fallen into a state from which no match is possible. This bound is what a restricted language buys,
    and what RE2 guarantees. Both texts below are 25 characters long."""
    runs = [dfa_steps("a" * 25), dfa_steps("a" * 10 + "c" + "a" * 14)]
    assert runs == [(False, 25), (False, 11)]


BAD = re.compile(r"(a+)+b")


def cpu_seconds_per_match(text, times):
    """CPU time (not wall-clock time, which a busy machine stretches) per BAD.match(text), the
    least of three rounds of `times` matches each."""
    rounds = []
    for _ in range(3):
        start = time.process_time()
        for _ in range(times):
            BAD.match(text)
        rounds.append((time.process_time() - start) / times)
    return min(rounds)


def test_python_re_itself_pays_the_same_exponential_price():
    """`re` backtracks too, in C: against a run of a's with no b, `(a+)+b` tries every way of
    splitting the run between the two `+` before it gives up, like the model above. Below, the
    failing match on 18 a's is timed against the one on 10; the eighth root of the ratio is the
    factor that each extra "a" multiplies the work by, rounded, so that the noise of a busy
    machine cannot tip it."""
    short = cpu_seconds_per_match("a" * 10, times=256)
    long = cpu_seconds_per_match("a" * 18, times=1)
    assert round((long / short) ** (1 / 8)) == 2


def test_possessive_quantifiers_exist_since_3_11():
    """`a++` is possessive: it takes every "a" it can and never gives one back, whatever the
    rest of the pattern needs. Python 3.11 added possessive quantifiers and atomic groups to
    `re`; on 3.10 the pattern is a syntax error of the regex language, reported when it is
    compiled."""
    if sys.version_info >= (3, 11):
        assert re.match("a++a", "aaaa") == None
    else:
        with pytest.raises(re.error):
            re.compile("a++a")


def test_an_atomic_group_cuts_off_backtracking_since_3_11():
    """`(?>...)` matches its contents once and then forgets the alternatives it skipped, so a
    failing match cannot go back inside it to try another split of the a's. Before 3.11 `re`
    did not know this syntax at all."""
    if sys.version_info >= (3, 11):
        assert re.fullmatch(r"(?>a+)+b", "a" * 40) == None
    else:
        with pytest.raises(re.error):
            re.compile(r"(?>a+)+b")
