"""Kata: a minimal event loop for generator coroutines. Four steps; write loop.py to pass them."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loop import Loop, Wait, gather, sleep

SETTINGS = settings(max_examples=100, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def answer():
    return 42
    yield  # never reached; a yield anywhere makes the function a generator


def counting(log):
    for i in range(3):
        log.append(i)
        yield  # a bare yield: let the others run
    return "done"


def failing():
    yield
    raise ValueError("boom")


def worker(name, turns, log):
    for i in range(turns):
        log.append(f"{name}{i}")
        yield
    return name


def sleeper(name, delays, loop, log):
    for delay in delays:
        yield from sleep(delay)
        log.append((loop.time(), name))
    return name


def slow(value, delay):
    yield from sleep(delay)
    return value


def napper(name, log):
    yield from sleep(0)
    log.append(name)


def ticker(name, turns, log):
    yield from sleep(1)
    for i in range(turns):
        log.append(f"{name}{i}")
        yield


def waiter(task):
    return (yield Wait(task))


def test_run_drives_a_coroutine_to_its_return_value():
    """A generator runs until its next yield each time it is resumed with send(), and ends by
    raising StopIteration, whose value is what it returned. The loop resumes the main task
    again and again until that happens: a coroutine is nothing more."""
    assert Loop().run(answer()) == 42
    log = []
    assert Loop().run(counting(log)) == "done"
    assert log == [0, 1, 2]
    with pytest.raises(ValueError):
        Loop().run(failing())


def test_spawned_tasks_take_turns_at_each_bare_yield():
    """Every task ready to run waits in one queue, first in, first out. A task runs until it
    yields and then goes to the back of the queue: cooperative multitasking, with no
    preemption. The loop stops when the main task is done, whatever is left."""
    loop = Loop()
    log = []
    a = loop.spawn(worker("a", 3, log))
    b = loop.spawn(worker("b", 2, log))
    assert loop.run(worker("m", 2, log)) == "m"
    assert log == ["a0", "b0", "m0", "a1", "b1", "m1", "a2"]
    assert (b.done, b.result, a.done) == (True, "b", False)


@SETTINGS
@given(st.lists(st.lists(st.integers(0, 4), max_size=4), max_size=5))
def test_sleep_parks_a_task_on_a_timer_and_the_clock_jumps(programs):
    """A sleeping task is not in the ready queue: it waits in a heap of timers, ordered by
    when they fire (timers for the same moment in the order they were set). Each round, the
    timers that are due join the ready queue; when nothing is ready, the clock jumps to the
    next timer. Nobody waits for real: the time is the loop's own."""
    loop = Loop()
    log = []
    loop.spawn(sleeper("a", [3], loop, log))
    loop.spawn(sleeper("b", [1, 1], loop, log))
    loop.spawn(sleeper("c", [2], loop, log))
    loop.spawn(sleeper("d", [2], loop, log))
    assert loop.run(sleeper("main", [5], loop, log)) == "main"
    assert log == [(1, "b"), (2, "c"), (2, "d"), (2, "b"), (3, "a"), (5, "main")]
    assert loop.time() == 5
    loop, log = Loop(), []
    for index, delays in enumerate(programs):
        loop.spawn(sleeper(index, delays, loop, log))
    longest = max((sum(delays) for delays in programs), default=0)
    loop.run(sleeper("main", [longest + 1], loop, log))
    assert [time for time, _ in log] == sorted(time for time, _ in log)
    for index, delays in enumerate(programs):
        times = [time for time, name in log if name == index]
        assert times == [sum(delays[:i + 1]) for i in range(len(delays))]
    assert loop.time() == longest + 1
    loop, log = Loop(), []
    loop.spawn(worker("w", 3, log))
    loop.run(napper("nap", log))
    assert log == ["w0", "w1", "nap"], ("sleep(0) waits one round, not until the others are done: "
                                        "each round, the timers that are due join the ready queue")
    loop, log = Loop(), []
    loop.spawn(ticker("a", 2, log))
    loop.spawn(ticker("b", 2, log))
    loop.run(sleeper("main", [2], loop, log))
    assert log == ["a0", "b0", "a1", "b1", (2, "main")], "all the timers due join the queue"


@SETTINGS
@given(st.lists(st.integers(0, 9), max_size=6))
def test_gather_waits_for_every_task_and_rethrows_its_exception(delays):
    """gather spawns a task per coroutine (yield Spawn(...) hands back the Task) and then waits
    for each in turn (yield Wait(task) hands back its result, at once if it is done, else when
    it finishes, to every task that waits). They all sleep at the same time, so gathering takes
    as long as the slowest, not the sum; the results come in the order given. A task that raises
    is done with an exception instead: whoever waits gets it thrown in at its yield
    (generator.throw), where try/except can catch it, and the other tasks carry on."""
    def main(loop, coroutines):
        start = loop.time()
        results = yield from gather(*coroutines)
        return results, loop.time() - start

    loop = Loop()
    assert loop.run(main(loop, [slow("a", 3), slow("b", 1), slow("c", 2)])) == (["a", "b", "c"], 3)
    loop = Loop()
    assert loop.run(main(loop, [gather(slow(1, 2), slow(2, 1)), slow(3, 2)])) == ([[1, 2], 3], 2)
    loop = Loop()
    coroutines = [slow(i, delay) for i, delay in enumerate(delays)]
    assert loop.run(main(loop, coroutines)) == (list(range(len(delays))), max(delays, default=0))
    loop = Loop()
    shared = loop.spawn(slow("s", 2))
    assert loop.run(gather(waiter(shared), waiter(shared))) == ["s", "s"]

    def boom(delay):
        yield from sleep(delay)
        raise ValueError("boom")

    def catcher(log):
        try:
            yield from gather(sleeper("a", [2], loop, log), boom(1))
        except ValueError as err:
            log.append(("caught", str(err)))
        results = yield from gather(slow("b", 1))
        return results

    loop = Loop()
    log = []
    assert loop.run(catcher(log)) == ["b"]
    assert log == [(2, "a"), ("caught", "boom")]
    with pytest.raises(ValueError):
        Loop().run(gather(slow("x", 1), boom(2)))
