"""Snapshot tests of the pictures of a running program (tools/koanrunner/pictures): an object
graph with its cycle, the value stack through a dis listing, a timeline of two threads, and
the caching allocator's segments from a snapshot and from a model. Each is drawn in the Unicode
and the ASCII style and compared exactly. The stack picture depends on the interpreter's
opcodes, so its snapshot is kept per Python version."""

from __future__ import annotations

import dis
import sys
import sysconfig
from types import SimpleNamespace

import pytest
from picture_support import MODEL, NAMESPACE, MiB, add, branchy

from koanrunner.pictures import (
    allocator_segments,
    draw,
    model_segments,
    object_graph,
    stack_effects,
)

GRAPH_CYCLE = """\
        ┌────────────┐
  a ──▶ │ A  rc 2    │──┐
        │ in a cycle │◀─┼───┐
        └────────────┘  │   │
        ┌────────────┐  │   │
        │ B  rc 1    │──┼─┐ │
        │ in a cycle │◀─┘ │ │
        └────────────┘    │ │
        ┌────────────┐    │ │
        │ C  rc 1    │────┼─┘
        │ in a cycle │◀───┘
        └────────────┘
  cycle: A → B → C → A
  rc: the references drawn here, from names and from objects"""

GRAPH_CYCLE_ASCII = """\
        +------------+
  a --> | A  rc 2    |--+
        | in a cycle |<-+---+
        +------------+  |   |
        +------------+  |   |
        | B  rc 1    |--+-+ |
        | in a cycle |<-+ | |
        +------------+    | |
        +------------+    | |
        | C  rc 1    |----+-+
        | in a cycle |<---+
        +------------+
  cycle: A -> B -> C -> A
  rc: the references drawn here, from names and from objects"""

GRAPH_UNREACHABLE_CYCLE = """\
  ┌─────────────────────────┐
  │ A  rc 1                 │──┐
  │ in a cycle, unreachable │◀─┼───┐
  └─────────────────────────┘  │   │
  ┌─────────────────────────┐  │   │
  │ B  rc 1                 │──┼─┐ │
  │ in a cycle, unreachable │◀─┘ │ │
  └─────────────────────────┘    │ │
  ┌─────────────────────────┐    │ │
  │ C  rc 1                 │────┼─┘
  │ in a cycle, unreachable │◀───┘
  └─────────────────────────┘
  cycle: A → B → C → A
  rc: the references drawn here, from names and from objects
  no name reaches A, B, C:
  a cycle keeps their counts above 0; only the cycle collector frees them"""

GRAPH_SHARED = """\
        ┌─────────┐
  x ──▶ │ a  rc 1 │──┬─┐
        │         │  │ │
        └─────────┘  │ │
        ┌─────────┐  │ │
        │ b  rc 1 │──┼─┼─┐
        │         │◀─┘ │ │
        └─────────┘    │ │
        ┌─────────┐    │ │
        │ c  rc 1 │──┐ │ │
        │         │◀─┼─┘ │
        └─────────┘  │   │
        ┌─────────┐  │   │
  y ──▶ │ d  rc 3 │  │   │
        │         │◀─┴───┘
        └─────────┘
  rc: the references drawn here, from names and from objects"""

TIMELINE_TWO_THREADS = """\
timeline: 2 lanes, 6 events in the order recorded
  main    ██────██──██
  worker    ████──██

  step  main                          worker
     0  █ start worker
     1  │                             █ acquire lock
     2  │                             █ count += 1
     3  █ sleep: GIL free             │
     4  │                             █ release lock
     5  █ join"""

TIMELINE_TWO_THREADS_ASCII = """\
timeline: 2 lanes, 6 events in the order recorded
  main    ##----##--##
  worker    ####--##

  step  main                          worker
     0  # start worker
     1  |                             # acquire lock
     2  |                             # count += 1
     3  # sleep: GIL free             |
     4  |                             # release lock
     5  # join"""

TIMELINE_STAMPED = """\
timeline: 2 lanes, 3 events in the order recorded
  t1  ██──██
  t2    ██

     t  t1                            t2
     0  █ a
   0.5  │                             █ b
  1.25  █ c"""

ALLOCATOR_SPLIT = """\
caching allocator: 2 segments, 22 MiB reserved
  allocated 512 B, cached 22527.5 KiB
  segment 0: 2 MiB, small pool, at 0x7f0000000000, split into 2 blocks
  ┌─┬──────────────────────────────────────────────────────────────┐
  │█│░░░░░░░░░░░░░░░░░░░░░░░░░ 2047.5 KiB ░░░░░░░░░░░░░░░░░░░░░░░░░│
  └─┴──────────────────────────────────────────────────────────────┘
    +0 B             512 B  allocated (requested 4 B)
    +512 B      2047.5 KiB  cached
  segment 1: 20 MiB, large pool, at 0x7f0000200000
  ┌────────────────────────────────────────────────────────────────┐
  │░░░░░░░░░░░░░░░░░░░░░░░░░░░░ 20 MiB ░░░░░░░░░░░░░░░░░░░░░░░░░░░░│
  └────────────────────────────────────────────────────────────────┘
    +0 B            20 MiB  cached
    wholly cached: empty_cache() hands it back to the driver
  ██ allocated  ░░ cached"""

ALLOCATOR_SPLIT_ASCII = """\
caching allocator: 2 segments, 22 MiB reserved
  allocated 512 B, cached 22527.5 KiB
  segment 0: 2 MiB, small pool, at 0x7f0000000000, split into 2 blocks
  +-+--------------------------------------------------------------+
  |#|......................... 2047.5 KiB .........................|
  +-+--------------------------------------------------------------+
    +0 B             512 B  allocated (requested 4 B)
    +512 B      2047.5 KiB  cached
  segment 1: 20 MiB, large pool, at 0x7f0000200000
  +----------------------------------------------------------------+
  |............................ 20 MiB ............................|
  +----------------------------------------------------------------+
    +0 B            20 MiB  cached
    wholly cached: empty_cache() hands it back to the driver
  ## allocated  .. cached"""

ALLOCATOR_MODEL = """\
caching allocator: 2 segments, 22 MiB reserved
  allocated 3073 KiB, cached 19455 KiB
  segment 0: 2 MiB, small pool, at 0x1000, split into 3 blocks
  ┌─┬─┬────────────────────────────────────────────────────────────┐
  │░│█│░░░░░░░░░░░░░░░░░░░░░░░░ 2046.5 KiB ░░░░░░░░░░░░░░░░░░░░░░░░│
  └─┴─┴────────────────────────────────────────────────────────────┘
    +0 B             512 B  cached
    +512 B           1 KiB  allocated
    +1.5 KiB    2046.5 KiB  cached
  segment 1: 20 MiB, large pool, at 0x201000, split into 2 blocks
  ┌─────────┬──────────────────────────────────────────────────────┐
  │█ 3 MiB █│░░░░░░░░░░░░░░░░░░░░░░░ 17 MiB ░░░░░░░░░░░░░░░░░░░░░░░│
  └─────────┴──────────────────────────────────────────────────────┘
    +0 B             3 MiB  allocated
    +3 MiB          17 MiB  cached
  ██ allocated  ░░ cached"""


SNAPSHOTS = [
    ("object_graph([('A', 'B'), ('B', 'C'), ('C', 'A')], names={'a': 'A'})", True, GRAPH_CYCLE),
    ("object_graph([('A', 'B'), ('B', 'C'), ('C', 'A')], names={'a': 'A'})", False, GRAPH_CYCLE_ASCII),
    ("object_graph({'A': ['B'], 'B': ['C'], 'C': ['A']}, names={})", True, GRAPH_UNREACHABLE_CYCLE),
    ("object_graph([('a', 'b'), ('a', 'c'), ('b', 'd'), ('c', 'd')], names={'x': 'a', 'y': 'd'})", True, GRAPH_SHARED),
    ('timeline(TWO_THREADS)', True, TIMELINE_TWO_THREADS),
    ('timeline(TWO_THREADS)', False, TIMELINE_TWO_THREADS_ASCII),
    ("timeline([(0.0, 't1', 'a'), (0.5, 't2', 'b'), (1.25, 't1', 'c')])", True, TIMELINE_STAMPED),
    ('allocator_segments(SNAPSHOT)', True, ALLOCATOR_SPLIT),
    ('allocator_segments(SNAPSHOT)', False, ALLOCATOR_SPLIT_ASCII),
    ('allocator_segments(model_segments(MODEL))', True, ALLOCATOR_MODEL),
]


@pytest.mark.parametrize(("expression", "unicode", "expected"), SNAPSHOTS,
                         ids=[f"{e}-{'unicode' if u else 'ascii'}" for e, u, _ in SNAPSHOTS])
def test_snapshot(expression, unicode, expected):
    assert "\n".join(draw(expression, NAMESPACE, unicode, False)) == expected


STACK_0 = """\
add(): the value stack after each instruction, top on the right
  offset  instruction   depth  stack
       0  LOAD_FAST x   0→1    │ x │
       2  LOAD_FAST y   1→2    │ x │ y │
       4  BINARY_ADD    2→1    │ x + y │
       6  RETURN_VALUE  1→0    (empty)"""

STACK_1 = """\
add(): the value stack after each instruction, top on the right
  offset  instruction   depth  stack
       0  RESUME 0      0→0    (empty)
       2  LOAD_FAST x   0→1    │ x │
       4  LOAD_FAST y   1→2    │ x │ y │
       6  BINARY_OP +   2→1    │ x + y │
      10  RETURN_VALUE  1→0    (empty)"""

STACK_2 = """\
add(): the value stack after each instruction, top on the right
  offset  instruction               depth  stack
       0  RESUME 0                  0→0    (empty)
       2  LOAD_FAST_LOAD_FAST x, y  0→2    │ x │ y │
       4  BINARY_OP +               2→1    │ x + y │
       8  RETURN_VALUE              1→0    (empty)"""

STACK_3 = """\
add(): the value stack after each instruction, top on the right
  offset  instruction                             depth  stack
       0  RESUME 0                                0→0    (empty)
       2  LOAD_FAST_BORROW_LOAD_FAST_BORROW x, y  0→2    │ x │ y │
       4  BINARY_OP +                             2→1    │ x + y │
      16  RETURN_VALUE                            1→0    (empty)"""

STACK_4 = """\
add(): the value stack after each instruction, top on the right
  offset  instruction                             depth  stack
       0  RESUME 0                                0→0    (empty)
       4  LOAD_FAST_BORROW_LOAD_FAST_BORROW x, y  0→2    │ x │ y │
       6  BINARY_OP +                             2→1    │ x + y │
      18  RETURN_VALUE                            1→0    (empty)"""

STACK_ASCII_0 = """\
add(): the value stack after each instruction, top on the right
  offset  instruction   depth  stack
       0  LOAD_FAST x   0->1   | x |
       2  LOAD_FAST y   1->2   | x | y |
       4  BINARY_ADD    2->1   | x + y |
       6  RETURN_VALUE  1->0   (empty)"""

STACK_ASCII_1 = """\
add(): the value stack after each instruction, top on the right
  offset  instruction   depth  stack
       0  RESUME 0      0->0   (empty)
       2  LOAD_FAST x   0->1   | x |
       4  LOAD_FAST y   1->2   | x | y |
       6  BINARY_OP +   2->1   | x + y |
      10  RETURN_VALUE  1->0   (empty)"""

STACK_ASCII_2 = """\
add(): the value stack after each instruction, top on the right
  offset  instruction               depth  stack
       0  RESUME 0                  0->0   (empty)
       2  LOAD_FAST_LOAD_FAST x, y  0->2   | x | y |
       4  BINARY_OP +               2->1   | x + y |
       8  RETURN_VALUE              1->0   (empty)"""

STACK_ASCII_3 = """\
add(): the value stack after each instruction, top on the right
  offset  instruction                             depth  stack
       0  RESUME 0                                0->0   (empty)
       2  LOAD_FAST_BORROW_LOAD_FAST_BORROW x, y  0->2   | x | y |
       4  BINARY_OP +                             2->1   | x + y |
      16  RETURN_VALUE                            1->0   (empty)"""

STACK_ASCII_4 = """\
add(): the value stack after each instruction, top on the right
  offset  instruction                             depth  stack
       0  RESUME 0                                0->0   (empty)
       4  LOAD_FAST_BORROW_LOAD_FAST_BORROW x, y  0->2   | x | y |
       6  BINARY_OP +                             2->1   | x + y |
      18  RETURN_VALUE                            1->0   (empty)"""


STACK_BY_VERSION = {
    (3, 10): STACK_0,
    (3, 11): STACK_1,
    (3, 12): STACK_1,
    (3, 13): STACK_2,
    (3, 14): STACK_3,
    (3, 15): STACK_4,
}
STACK_ASCII_BY_VERSION = {
    (3, 10): STACK_ASCII_0,
    (3, 11): STACK_ASCII_1,
    (3, 12): STACK_ASCII_1,
    (3, 13): STACK_ASCII_2,
    (3, 14): STACK_ASCII_3,
    (3, 15): STACK_ASCII_4,
}


def test_the_stack_through_a_four_instruction_function():
    lines = stack_effects(add)
    listing = list(dis.get_instructions(add))
    assert stack_effects(listing) == [lines[0].replace("add()", "the listing", 1), *lines[1:]]
    version = sys.version_info[:2]
    if version in STACK_BY_VERSION and not sysconfig.get_config_var("Py_GIL_DISABLED"):
        assert "\n".join(lines) == STACK_BY_VERSION[version]
        assert "\n".join(stack_effects(add, unicode=False)) == STACK_ASCII_BY_VERSION[version]
    else:  # a version or build with no snapshot: the shape, whatever the opcodes are called
        assert lines[0] == "add(): the value stack after each instruction, top on the right"
        assert any(line.endswith("│ x │ y │") for line in lines)
        assert lines[-2].endswith("│ x + y │")
        assert "1→0" in lines[-1]
        assert lines[-1].endswith("(empty)")


def test_the_stack_is_followed_through_jumps_loops_and_handlers():
    lines = stack_effects(branchy)
    returns = [line for line in lines[2:] if "RETURN" in line]
    assert returns, lines
    assert all("→0" in line for line in returns), lines  # every return leaves an empty stack
    assert any("│ item[key] │" in line for line in lines), lines
    if sys.version_info >= (3, 11):  # the exception table gives a handler's entry stack
        assert any("│ exception │" in line for line in lines), lines


def test_a_model_heap_is_read_for_its_references_and_counts():
    heap = SimpleNamespace(objects={"a": SimpleNamespace(refcount=2, refs=["b"]),
                                    "b": SimpleNamespace(refcount=1, refs=["a"]),
                                    "d": SimpleNamespace(refcount=1, refs=[])})
    lines = object_graph(heap, names={"x": "a", "y": "d"})
    assert "  cycle: a → b → a" in lines
    assert "  x ──▶ │ a  rc 2    │──┐" in lines
    assert "  y ──▶ │ d  rc 1    │" in lines  # no reference in or out, drawn all the same


def test_a_model_is_read_into_the_snapshots_shape():
    segments = model_segments(MODEL)
    assert [s["total_size"] for s in segments] == [2 * MiB, 20 * MiB]
    assert [s["segment_type"] for s in segments] == ["small", "large"]
    assert [[b["state"] for b in s["blocks"]] for s in segments] == [
        ["inactive", "active_allocated", "inactive"], ["active_allocated", "inactive"]]
    assert segments[0]["blocks"][1] == {"address": 0x1200, "size": 1024, "state": "active_allocated"}
    assert allocator_segments(MODEL) == ALLOCATOR_MODEL.split("\n")  # a model is read directly
