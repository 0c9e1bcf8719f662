"""Several interpreters in one process: isolated like processes, in one address space.

Python 3.14's `concurrent.interpreters` (PEP 734) creates subinterpreters from Python. Each
has its own `__main__`, its own copy of every module it imports and its own GIL, so objects do
not cross from one to another: values are copied in (`prepare_main`, the arguments of
`call`), and results and errors come back as copies or descriptions. Earlier Pythons had
subinterpreters in the C API (with a GIL of their own since 3.12, PEP 684) and in private
modules only.
"""

import os
import sys

import pytest

pytestmark = pytest.mark.skipif(
    sys.version_info < (3, 14),
    reason="concurrent.interpreters is new in Python 3.14 (PEP 734); earlier Pythons had "
    "subinterpreters only through the C API",
)


def test_prepare_main_copies_a_value_into_another_interpreter():
    """`prepare_main(counter=...)` binds a name in the new interpreter's own `__main__`
    module, to a copy of the value; `exec` then runs code in that module, and a queue made by
    `create_queue()` carries a value back. The new interpreter also reports its process id.
    How many process ids are there, and what does each interpreter's `counter` hold?"""
    from concurrent import interpreters

    counter = 41
    interp = interpreters.create()
    try:
        queue = interpreters.create_queue()
        interp.prepare_main(counter=counter, queue=queue)
        interp.exec("counter += 1")
        interp.exec("counter += 1")
        interp.exec("queue.put(counter)")
        theirs = queue.get(timeout=10)
        their_pid = interp.call(os.getpid)
    finally:
        interp.close()
    assert (len({os.getpid(), their_pid}), counter, theirs) == __


def test_an_exception_comes_back_as_a_description():
    """An exception object belongs to the interpreter that raised it and cannot cross to
    another. `exec` raises, in the calling interpreter, an error of `concurrent.interpreters`
    whose `excinfo` is a snapshot of the original: the name of its type, its message and its
    formatted traceback. What do the type's name and the message say?"""
    from concurrent import interpreters

    interp = interpreters.create()
    try:
        with pytest.raises(interpreters.ExecutionFailed) as failed:
            interp.exec("ratio = 1 / 0")
    finally:
        interp.close()
    info = failed.value.excinfo
    assert (info.type.__name__, info.msg) == __
