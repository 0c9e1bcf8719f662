"""An exception raised while another is being handled remembers it: `raise ... from err` sets
`__cause__`, any raise inside an `except` sets `__context__`, and `from None` hides the context
from the printed traceback without erasing it. The traceback itself is a linked list of frames,
from the frame that caught the exception down to the one that raised it."""

import re
import traceback

import pytest


def fail_with(mode):
    """Raise ValueError while handling a KeyError, chained in the way `mode` names."""
    try:
        {}["missing"]
    except KeyError as err:
        if mode == "from err":
            raise ValueError("bad config") from err
        if mode == "from another":
            raise ValueError("bad config") from OSError("disk full")
        if mode == "from None":
            raise ValueError("bad config") from None
        raise ValueError("bad config")


def caught(mode):
    try:
        fail_with(mode)
    except ValueError as e:
        return e


def shown(error):
    """The class names of the exceptions that the printed report of `error` shows, in order."""
    text = "".join(traceback.format_exception(error))
    return [m.group(1) for m in re.finditer(r"(?m)^(\w+): ", text)]


def test_raise_from_records_the_cause():
    """`raise New from err` stores `err` in `New.__cause__`: an explicit statement that the
    new error was caused by the old one. The traceback prints it as "the direct cause"."""
    e = caught("from err")
    assert type(e.__cause__) == KeyError


def test_an_explicit_cause_takes_the_place_of_the_context_in_the_report():
    """When you name a cause, the printed report follows only the chain you named, not the
    implicit context, which is still recorded in `__context__`. The flag
    `__suppress_context__`, set by `raise ... from`, is what tells the printer to leave the
    context out; the report prints the oldest exception first."""
    e = caught("from another")
    assert type(e.__context__) is KeyError
    assert shown(e) == ["OSError", "ValueError"]


def test_raising_inside_except_chains_implicitly():
    """Even without `from`, Python records the exception being handled in `__context__` and
    prints "During handling of the above exception, another exception occurred". The cause
    stays None: nobody claimed one error caused the other."""
    e = caught("implicit")
    assert e.__cause__ is None
    assert type(e.__context__) == KeyError


def test_raise_from_none_changes_the_report_not_the_record():
    """`from None` is for an old error that is an implementation detail: the report should show
    only the new one. It works through the same flag as an explicit cause (and sets the cause
    itself to None), and it erases nothing else from the exception object."""
    e = caught("from None")
    assert (e.__cause__, type(e.__context__)) == (None, KeyError)


def test_a_chained_report_prints_one_traceback_per_exception():
    """The printed report walks the chain: one "Traceback (most recent call last):" header per
    exception shown. Implicit chaining shows the context as well as the new exception."""
    text = "".join(traceback.format_exception(caught("implicit")))
    assert text.count("Traceback (most recent call last):") == 2


def test_from_none_cuts_the_printed_chain():
    """With the context suppressed and no cause named, the report has nothing to follow: it
    shows the new exception alone, which is the point of `from None` when the old error is an
    implementation detail."""
    assert shown(caught("from None")) == ["ValueError"]


def outer():
    middle()


def middle():
    inner()


def inner():
    raise RuntimeError("deep down")


def catch():
    try:
        outer()
    except RuntimeError as e:
        return e.__traceback__


def test_a_traceback_links_frames_from_catcher_to_raiser():
    """Each traceback entry points at a frame (`tb_frame`) and the next entry deeper in the
    call stack (`tb_next`). Walking from `e.__traceback__` starts in the function that caught
    the exception and ends in the one that raised it."""
    tb = catch()
    names = []
    while tb is not None:
        names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    assert names == ["catch", "outer", "middle", "inner"]


def test_the_except_as_name_is_deleted_after_the_block():
    """At the end of `except E as e:` Python deletes `e`, even if the name existed before.
    The exception holds its traceback, the traceback holds this frame, and the frame would
    hold the exception: deleting the name breaks that reference cycle. A local variable read
    after its deletion is a name lookup that finds nothing in the function's own scope."""

    def f():
        e = "before"
        try:
            1 / 0
        except ZeroDivisionError as e:  # noqa: F841
            pass
        return e

    with pytest.raises(UnboundLocalError):
        f()
