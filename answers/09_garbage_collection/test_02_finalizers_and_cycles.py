"""Finalizers and cycles: `__del__`, weakref.finalize and PEP 442.

Before Python 3.4 the collector refused to free a cycle that contained an object with a
`__del__` method: it could not know in which order to finalize, and parked such cycles in
gc.garbage forever. PEP 442 (3.4) fixed that: finalizers run first, then the cycle is freed.
"""

import contextlib
import gc
import weakref


@contextlib.contextmanager
def automatic_gc_off():
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def test_objects_with_dunder_del_in_a_cycle_are_collected_since_pep_442():
    """Both objects have `__del__` and reference each other. Python 3.3 and older could not
    choose which finalizer to run first, so the collector parked such cycles in gc.garbage for
    good. PEP 442 (3.4) runs the finalizers of the whole unreachable group first, then frees it."""
    log = []

    class Finalizable:
        def __init__(self, name):
            self.name = name
            self.other = None

        def __del__(self):
            log.append(self.name)

    with automatic_gc_off():
        first, second = Finalizable("a"), Finalizable("b")
        first.other, second.other = second, first
        del first, second
        before_collect = list(log)
        gc.collect()
    assert not any(isinstance(obj, Finalizable) for obj in gc.garbage)
    assert (before_collect, sorted(log)) == ([], ["a", "b"])


def test_dunder_del_runs_at_most_once_even_after_resurrection():
    """A `__del__` may 'resurrect' its object by storing `self` somewhere. PEP 442 marks an
    object, in its garbage-collector header, once its finalizer has run, and CPython checks that
    mark before it calls `__del__`."""
    log = []
    graveyard = []

    class Phoenix:
        def __del__(self):
            log.append("__del__")
            graveyard.append(self)

    phoenix = Phoenix()
    del phoenix
    assert len(graveyard) == 1
    graveyard.clear()
    assert log == ["__del__"]


def test_a_finalizer_called_early_does_not_run_again():
    """weakref.finalize returns a callable handle. Calling it runs the callback now and marks it
    dead, so the object's later death does not run it a second time: a tidy way to give a
    resource an explicit close() and a safety net together."""
    events = []

    class Resource:
        pass

    resource = Resource()
    closer = weakref.finalize(resource, events.append, "closed")
    closer()
    del resource
    assert (closer.alive, events) == (False, ["closed"])


def test_copying_the_caught_exception_into_a_local_makes_a_cycle():
    """Python deletes the `except ... as err` name at the end of the block, but not a copy of it.
    `saved = err` leaves the frame holding the exception, which holds its traceback, which holds
    the frame: a cycle, which reference counting alone can never bring to zero."""

    class Big:
        pass

    def keep_a_copy():
        big = Big()
        watcher = weakref.ref(big)
        try:
            raise ValueError("boom")
        except ValueError as err:
            saved = err  # noqa: F841
        return watcher

    with automatic_gc_off():
        watcher = keep_a_copy()
        freed_on_return = watcher() is None
        gc.collect()
        freed_by_collect = watcher() is None
    assert (freed_on_return, freed_by_collect) == (False, True)


def test_a_saved_exception_keeps_the_raising_frames_locals_alive():
    """A traceback references the frames it passed through, and a frame keeps its locals. So a
    caught exception you store keeps every local of the function that raised it alive, until you
    let go of the exception."""

    class Big:
        pass

    def fail():
        big = Big()
        watcher = weakref.ref(big)
        try:
            raise ValueError("boom")
        except ValueError as err:
            return err, watcher

    error, watcher = fail()
    alive_while_saved = watcher() is not None
    del error
    assert (alive_while_saved, watcher() is None) == (True, True)
