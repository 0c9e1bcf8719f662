"""What the picture tests draw: a struct with padding, two threads' events, an allocator
snapshot and a model of the allocator, a four-instruction function, and the namespace that
``draw()`` evaluates picture expressions in (as a koan module's globals would be)."""

from __future__ import annotations

import ctypes
from typing import Any


class Padded(ctypes.Structure):
    """char, int, double, short: 3 bytes of padding after the char, 6 at the end."""

    _fields_ = [("flag", ctypes.c_char), ("count", ctypes.c_int), ("ratio", ctypes.c_double),
                ("tag", ctypes.c_short)]


TWO_THREADS = [("main", "start worker"), ("worker", "acquire lock"), ("worker", "count += 1"),
               ("main", "sleep: GIL free"), ("worker", "release lock"), ("main", "join")]

MiB = 1 << 20
SNAPSHOT = [  # the shape of torch.cuda.memory_snapshot(): a small segment split in two, a large one
    {"device": 0, "address": 0x7F0000000000, "total_size": 2 * MiB, "segment_type": "small",
     "blocks": [{"address": 0x7F0000000000, "size": 512, "requested_size": 4,
                 "state": "active_allocated"},
                {"address": 0x7F0000000200, "size": 2 * MiB - 512, "requested_size": 0,
                 "state": "inactive"}]},
    {"device": 0, "address": 0x7F0000200000, "total_size": 20 * MiB, "segment_type": "large",
     "blocks": [{"address": 0x7F0000200000, "size": 20 * MiB, "state": "inactive"}]},
]


class Block:
    """A block of the kata's allocator model: neighbours in its segment, a pool, in use or not."""

    def __init__(self, address: int, size: int, allocated: bool, pool: str,
                 prev: Block | None = None) -> None:
        self.address, self.size, self.allocated, self.pool = address, size, allocated, pool
        self.prev: Block | None = prev
        self.next: Block | None = None
        if prev is not None:
            prev.next = self


class Model:
    """The kata's allocator after malloc(1), malloc(3 MiB), malloc(1000) and a free of the first."""

    def __init__(self) -> None:
        a = Block(0x1000, 512, False, "small")
        b = Block(0x1200, 1024, True, "small", prev=a)
        c = Block(0x1600, 2 * MiB - 1536, False, "small", prev=b)
        d = Block(0x201000, 3 * MiB, True, "large")
        e = Block(0x501000, 17 * MiB, False, "large", prev=d)
        self.pools = {"small": [a, c], "large": [e]}
        self.live = {b.address: b, d.address: d}


MODEL = Model()


def add(x: Any, y: Any) -> Any:
    return x + y


def branchy(items: Any, key: Any) -> Any:
    """A loop, a handler, a conditional expression: jumps for the stack picture to follow."""
    total = 0
    for item in items:
        try:
            total += item[key]
        except KeyError as error:
            print(error, len(items))
    a, b = total, -total
    return [a, b] if a is not b and a in (b,) else {"t": total}


NAMESPACE = {"Padded": Padded, "TWO_THREADS": TWO_THREADS, "SNAPSHOT": SNAPSHOT, "MODEL": MODEL,
             "add": add}

# course-sized pictures, each kind, for the rules every picture keeps
TYPICAL = [
    "float_bits(0.1)", "float_bits(-0.0)", "float_bits(5e-324)", "float_bits(float('inf'))",
    "float_bits(float('nan'))", "float_bits(0.1, 'float32')", "float_bits(70000.0, 'float16')",
    "float_bits(0.1, 'bfloat16')", "int_bits(300)", "int_bits(-5)", "int_bits(40000, 16)",
    "struct_layout(Padded)", "struct_layout('@cid')", "struct_layout('<cid')",
    "strided_view((3, 2), (8, 24), 0, 8, 48, base=((2, 3), (24, 8), 0))",
    "strided_view((4,), (-3,), 9, 1, 10)",
    "object_graph([('A', 'B'), ('B', 'C'), ('C', 'A')], names={'a': 'A'})",
    "object_graph({'A': ['B'], 'B': ['C'], 'C': ['A']}, names={})",
    "stack_effects(add)", "timeline(TWO_THREADS)", "allocator_segments(SNAPSHOT)",
    "allocator_segments(model_segments(MODEL))",
]
