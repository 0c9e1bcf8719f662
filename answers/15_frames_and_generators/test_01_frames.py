"""Frames: every call gets a workspace, linked to its caller, that you can hold as an object.

CPython keeps each call's state (its code, its locals, where it is in the bytecode, who
called it) in a frame. `sys._getframe()` hands you the current one as an ordinary object on
the heap.
"""

import sys


def _name_of_my_caller():
    return sys._getframe(1).f_code.co_name


def launch_sequence():
    return _name_of_my_caller()


def test_getframe_with_depth_one_names_the_caller():
    """`sys._getframe(0)` is the running frame and `sys._getframe(1)` the one below it on the
    call chain. Its `f_code` is the code object being run, and `co_name` that code's name:
    a function can find out who called it."""
    assert launch_sequence() == "launch_sequence"


def _inner():
    return sys._getframe()


def _outer():
    return _inner()


def test_f_back_walks_from_callee_to_caller():
    """Each frame points at the frame that called it through `f_back`. Walking that chain is
    what a debugger's `up` command does, and what `traceback.print_stack()` prints."""
    frame = _outer()
    names = [frame.f_code.co_name, frame.f_back.f_code.co_name, frame.f_back.f_back.f_code.co_name]
    assert names == ["_inner", "_outer", "test_f_back_walks_from_callee_to_caller"]


def _dive(depth):
    if depth == 0:
        return sys._getframe()
    return _dive(depth - 1)


def test_each_recursive_call_adds_one_frame():
    """Recursion is not a loop: each level is a separate frame with its own `depth` local.
    `_dive(n)` calls itself n more times, and every call, the first one included, is a frame
    of its own on top of ours. The walk starts at the frame that `_dive` handed back."""
    here = sys._getframe()
    frame, depths = _dive(3), []
    while frame is not here:
        depths.append(frame.f_locals["depth"])
        frame = frame.f_back
    assert depths == [0, 1, 2, 3]


def _make_frame():
    secret = 41
    return sys._getframe()


def test_a_frame_outlives_the_call_that_made_it():
    """In C a stack frame is gone when the function returns. A Python frame object is a heap
    object like any other: as long as someone holds a reference, its locals stay readable
    after the call has returned."""
    frame = _make_frame()
    assert frame.f_locals["secret"] == 41


def test_what_a_write_through_f_locals_does_to_the_variable():
    """PEP 667 (Python 3.13) changed what `frame.f_locals` of a function is. Before, it was a
    dict that the interpreter filled from the variables whenever it was asked for, and copied
    back only after a trace function had run. Since, it is a write-through proxy: reading or
    writing one of its keys reads or writes the frame's variable of that name."""
    colour = "red"
    sys._getframe().f_locals["colour"] = "blue"
    if sys.version_info >= (3, 13):
        assert colour == "blue"
    else:
        assert colour == "red"


def _first_locals_after_a_second_call():
    early = 1
    first = locals()
    late = 2
    locals()
    return sorted(first)


def test_what_a_second_locals_call_does_to_the_first_result():
    """Before 3.13, `locals()` in a function returned the frame's one cached dict every time,
    refreshing it in place from the current variables. PEP 667 made every call return a new,
    independent snapshot of the variables bound at that moment."""
    if sys.version_info >= (3, 13):
        assert _first_locals_after_a_second_call() == ["early"]
    else:
        assert _first_locals_after_a_second_call() == ["early", "first", "late"]


def _fail_deep():
    raise KeyError("boom")


def _fail_middle():
    _fail_deep()


def test_a_traceback_is_a_chain_of_frames_from_catcher_to_raiser():
    """A traceback is a linked list of (frame, line) entries. It starts at the frame that
    caught the exception and `tb_next` walks *down* towards the frame that raised it: the
    opposite direction to `f_back`. The callers above the catcher are not in it."""
    try:
        _fail_middle()
    except KeyError as err:
        tb = err.__traceback__
    names = []
    while tb is not None:
        names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    assert names == ["test_a_traceback_is_a_chain_of_frames_from_catcher_to_raiser", "_fail_middle", "_fail_deep"]


def _fail_with_a_local():
    payload = "kept alive"
    raise ValueError("nope")


def test_a_traceback_keeps_the_raising_frame_and_its_locals_alive():
    """The last traceback entry holds the frame that raised, and that frame holds its locals.
    This is how post-mortem debuggers inspect a crash, and why keeping an exception around can
    keep large objects in memory."""
    try:
        _fail_with_a_local()
    except ValueError as err:
        tb = err.__traceback__
    assert tb.tb_next.tb_frame.f_locals["payload"] == "kept alive"


def _keep_the_error():
    try:
        _fail_deep()
    except KeyError as err:
        return err


def _raise_it_again(err):
    raise err


def _catch_it_again(err):
    try:
        _raise_it_again(err)
    except KeyError as again:
        return again.__traceback__


def test_raising_a_kept_exception_again_grows_its_old_traceback():
    """An exception object carries its traceback in `__traceback__`, and raising the same object
    again does not start a fresh one: the entries of the new trip are put in front of the ones
    it already holds. So a traceback can list frames that returned long ago and were never
    on the current `f_back` chain."""
    tb = _catch_it_again(_keep_the_error())
    names = []
    while tb is not None:
        names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    assert names == ["_catch_it_again", "_raise_it_again", "_keep_the_error", "_fail_deep"]


def test_eval_runs_compiled_code_in_a_new_frame():
    """`eval` is the whole pipeline at run time: the source is parsed, compiled to a code
    object, and run by the interpreter in a fresh frame. That frame's code carries the filename
    given to `compile`, and the name that every top-level code object gets, whatever the
    mode."""
    code = compile("sys._getframe()", "app.py", "eval")
    frame = eval(code, {"sys": sys})
    assert (frame.f_code.co_filename, frame.f_code.co_name) == ("app.py", "<module>")


def _evaluate_formula():
    return eval("sys._getframe()", {"sys": sys})


def test_the_eval_frame_links_back_to_its_caller():
    """The frame made by `eval` is pushed on top of the caller's, like any call, and `f_back`
    links it to whichever Python frame was running when `eval` was called."""
    frame = _evaluate_formula()
    assert frame.f_back.f_code.co_name == "_evaluate_formula"


def _make_closure():
    rate = 3
    table = "x" * 1000
    rows = [table]

    def scale(n):
        return n * rate

    return scale


def test_a_closure_keeps_cells_not_the_whole_frame():
    """It is tempting to say a closure keeps its defining frame alive. It does not: the
    compiler moves only the variables the inner function names into cells, and the closure
    holds just those cells, one per name in `co_freevars`. The outer frame and its other
    locals are freed as usual."""
    scale = _make_closure()
    assert scale.__code__.co_freevars == ("rate",)
