"""Generators: a function whose frame survives between calls.

Calling a generator function runs nothing. It builds a generator object that owns a frame;
each `next()` resumes that frame until the next `yield`, where it is frozen again.
"""

import inspect
import sys

import pytest


def test_calling_a_generator_function_runs_none_of_its_body():
    """The call only creates the generator and its frame; the body waits for the first
    `next()`. inspect.getgeneratorstate names the four states a generator passes through."""
    log = []

    def gen():
        log.append("started")
        yield 1

    g = gen()
    assert (inspect.getgeneratorstate(g), log) == ("GEN_CREATED", [])


def test_a_suspended_generator_keeps_its_locals():
    """At a `yield` the frame is not popped and destroyed, only suspended. Its local
    variables stay in `gi_frame` for anyone to look at until the generator resumes."""

    def gen():
        a = 1
        yield a
        b = 2
        yield b

    g = gen()
    next(g)
    assert dict(g.gi_frame.f_locals) == {"a": 1}


def test_a_suspended_generator_is_paused_on_its_yield_line():
    """The suspended frame remembers exactly where it stopped: `f_lineno` is the line of the
    `yield` it is paused at, counted like any line of the file."""

    def gen():
        yield "first"
        yield "second"

    g = gen()
    next(g)
    next(g)
    assert g.gi_frame.f_lineno - g.gi_code.co_firstlineno == 2


def test_a_closed_generator_drops_its_frame():
    """Once a generator is finished or closed, nothing is left to resume, so it lets go of its
    frame, and the frame's locals with it. Its state is GEN_CLOSED."""

    def gen():
        yield 1

    g = gen()
    next(g)
    g.close()
    assert g.gi_frame == None


def _advance(generator):
    return next(generator)


def test_a_suspended_generator_frame_belongs_to_no_call_chain():
    """While a generator runs, its frame sits on top of whoever called `next()`, linked by
    `f_back` like any call. At a `yield` it is taken off that chain again: the next `next()`
    may come from a different caller entirely, and the frame links to that one then."""

    def gen():
        yield sys._getframe().f_back.f_code.co_name
        yield "paused"

    g = gen()
    caller_while_running = _advance(g)
    assert (caller_while_running, g.gi_frame.f_back) == ("_advance", None)


def test_the_first_send_must_be_none():
    """`send(v)` makes the paused `yield` expression evaluate to v. A just-created generator
    is not paused at any `yield` yet, so there is nowhere for a value to go: only
    `send(None)` (the same as `next()`) may start it."""

    def echo():
        while True:
            received = yield
            print(received)

    with pytest.raises(TypeError):
        echo().send("hello")


def test_send_makes_the_yield_expression_evaluate_to_the_value():
    """`yield` is an expression. Whatever the caller passes to `send` becomes its value
    inside the generator, which can use it to compute what it yields next."""

    def doubler():
        value = yield "ready"
        while True:
            value = yield value * 2

    g = doubler()
    next(g)
    assert g.send(21) == 42


def test_a_return_value_travels_in_stopiteration():
    """`return x` in a generator ends the iteration: the caller's `next()` raises
    StopIteration, and x rides along as its `.value`. A for loop silently drops it."""

    def gen():
        yield 1
        return "done"

    g = gen()
    next(g)
    with pytest.raises(StopIteration) as info:
        next(g)
    assert info.value.value == "done"


def test_close_raises_an_exception_at_the_paused_yield():
    """`close()` resumes the frame by raising an exception where it is paused, so `finally`
    blocks and `with` statements inside the generator get to clean up. Its class derives from
    BaseException only, so that `except Exception` inside the generator does not swallow it."""
    seen = []

    def gen():
        try:
            yield 1
        except BaseException as err:
            seen.append(type(err))
            raise

    g = gen()
    next(g)
    g.close()
    assert seen[0] == GeneratorExit


def test_a_generator_that_yields_after_close_breaks_the_protocol():
    """A generator asked to close must stop. If it catches GeneratorExit and yields again,
    `close()` refuses to carry on and raises an error instead."""

    def stubborn():
        try:
            yield 1
        except GeneratorExit:
            yield "not leaving"

    g = stubborn()
    next(g)
    with pytest.raises(Exception) as caught:  # close() first, so no generator is left half-open
        g.close()
    assert caught.type == RuntimeError


def test_close_returns_the_generators_return_value_since_3_13():
    """Since Python 3.13 a generator that answers GeneratorExit with `return value` hands that
    value back as the result of `close()`. Before 3.13 `close()` threw that value away."""

    def gen():
        try:
            yield 1
        except GeneratorExit:
            return "bye"

    g = gen()
    next(g)
    if sys.version_info >= (3, 13):
        assert g.close() == "bye"
    else:
        assert g.close() == None


def test_throw_raises_at_the_yield_and_returns_the_next_yield():
    """`throw(exc)` resumes the frame by raising exc at the paused `yield`. If the generator
    handles it and yields again, that yielded value is what `throw` returns."""

    def gen():
        try:
            yield "waiting"
        except ValueError:
            yield "recovered"

    g = gen()
    next(g)
    assert g.throw(ValueError("bad input")) == "recovered"


def test_a_stopiteration_escaping_a_generator_is_converted():
    """PEP 479 (the default since 3.7): a StopIteration that leaks out of a generator's body
    would silently end whatever loop is consuming it, so Python converts it into a different
    exception with the StopIteration as its `__cause__`."""

    def leaky():
        yield 1
        next(iter([]))  # raises StopIteration inside the generator body
        yield 2

    with pytest.raises(RuntimeError):
        list(leaky())


def test_yield_from_evaluates_to_the_subgenerators_return_value():
    """`yield from sub` passes every `next` and `send` straight through to sub, and when sub
    returns, the `yield from` expression evaluates to sub's return value."""

    def adder():
        x = yield "x?"
        y = yield "y?"
        return x + y

    def delegator():
        total = yield from adder()
        yield total

    g = delegator()
    next(g)
    g.send(10)
    assert g.send(5) == 15


def test_a_running_generator_cannot_be_resumed_again():
    """A generator has one frame, and a frame can only be executing once. Calling `next()` on
    a generator from inside its own body is refused with an error; `gi_running` is True
    and the state is GEN_RUNNING while its frame executes."""

    def selfish():
        yield inspect.getgeneratorstate(me)
        next(me)

    me = selfish()
    assert next(me) == "GEN_RUNNING"
    with pytest.raises(ValueError):
        next(me)
