"""Kata: PyTorch's CUDA caching allocator, simulated. Six steps; write allocator.py."""

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from allocator import Allocator, round_size, segment_size

SETTINGS = settings(max_examples=100, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
KiB, MiB = 1024, 1024 * 1024

small = st.integers(1, 1 * MiB)
ops = st.lists(st.one_of(st.tuples(st.just("malloc"), small),
                         st.tuples(st.just("free"), st.integers(0, 30))), max_size=40)
mixed = st.lists(st.one_of(st.tuples(st.just("malloc"), small),
                           st.tuples(st.just("malloc"), st.integers(1 * MiB + 1, 40 * MiB)),
                           st.tuples(st.just("free"), st.integers(0, 30))), max_size=30)


def replay(allocator, program):
    """Run a program of mallocs and frees (a free names a live allocation by position);
    returns the live allocations, address -> size asked for."""
    live = {}
    for op, arg in program:
        if op == "malloc":
            live[allocator.malloc(arg)] = arg
        elif live:
            address = sorted(live)[arg % len(live)]
            allocator.free(address)
            del live[address]
    return live


def assert_no_overlap(live, sizes):
    spans = sorted((address, address + sizes(request)) for address, request in live.items())
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert end <= start, f"a block ends at {end:#x}, after the next one starts at {start:#x}"


def hexes(got, want):
    """Two addresses as a person reads them: in hex."""
    shown = [f"{a:#x}" if isinstance(a, int) else repr(a) for a in (got, want)]
    return f"got {shown[0]}, want {shown[1]}"


def test_requests_round_up_to_512_byte_blocks():
    """The allocator never hands out less than 512 bytes, and always a multiple of 512: fewer,
    bigger blocks are cheaper to track, and everything it returns stays well aligned."""
    assert round_size(1) == 512
    assert round_size(512) == 512
    assert round_size(513) == 1024
    assert round_size(3 * MiB) == 3 * MiB
    for size in (1, 100, 511, 512, 1000, 4097, 1 * MiB + 1, 10 * MiB - 7):
        block = round_size(size)
        assert block % 512 == 0 and size <= block < size + 512


def test_a_segment_is_2_mib_20_mib_or_the_request_rounded_to_2_mib():
    """When the cache has nothing that fits, the allocator asks the driver for a whole segment
    and carves blocks out of it: 2 MiB for a request of at most 1 MiB, 20 MiB for one under
    10 MiB, and from 10 MiB on, the request rounded up to a multiple of 2 MiB. The size compared
    is the request already rounded to 512: a few bytes short of 10 MiB is a 10 MiB block."""
    assert segment_size(1) == 2 * MiB
    assert segment_size(1 * MiB) == 2 * MiB
    assert segment_size(1 * MiB + 1) == 20 * MiB
    assert segment_size(3 * MiB) == 20 * MiB
    assert segment_size(9 * MiB) == 20 * MiB
    assert segment_size(10 * MiB - 512) == 20 * MiB
    assert segment_size(10 * MiB) == 10 * MiB
    got = segment_size(10 * MiB - 7)
    assert got == 10 * MiB, (f"segment_size(10 MiB - 7) is {got / MiB:g} MiB, want 10: the request "
                             f"rounds to 512 first, to a block of 10 MiB")
    assert segment_size(12 * MiB) == 12 * MiB
    assert segment_size(13 * MiB) == 14 * MiB
    assert segment_size(100 * MiB + 1) == 102 * MiB


def test_a_first_allocation_reserves_a_whole_segment():
    """memory_allocated() counts the blocks in use, memory_reserved() the segments taken from
    the driver. Measured on an H200: a 1-byte tensor adds 512 B allocated and 2 MiB reserved;
    a 3 MiB tensor adds 3 MiB allocated and 20 MiB reserved. The rest of a segment stays cached
    as a block of its own, but in the large pool only a rest of more than 1 MiB: a smaller tail
    goes out with the block, and memory_allocated() counts it."""
    allocator = Allocator()
    address = allocator.malloc(1)
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (512, 2 * MiB)
    assert address % 512 == 0, f"{address:#x} is not a multiple of 512"
    allocator = Allocator()
    allocator.malloc(3 * MiB)
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (3 * MiB, 20 * MiB)
    allocator = Allocator()
    allocator.malloc(12 * MiB)
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (12 * MiB, 12 * MiB)
    allocator = Allocator()
    allocator.malloc(63 * MiB)
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (64 * MiB, 64 * MiB)
    allocator.malloc(62 * MiB + 512 * KiB)
    assert allocator.memory_allocated() == 64 * MiB + 62 * MiB + 512 * KiB


def test_free_keeps_the_segment_until_empty_cache():
    """Freeing (del of the last reference to a tensor) puts the block back in the allocator's
    cache: allocated goes down, reserved does not. empty_cache() hands every wholly free
    segment back to the driver, and reserved goes down; a segment still in use stays. What was
    handed back is gone: nothing of it stays cached, and the next request needs a new segment."""
    allocator = Allocator()
    allocator.free(allocator.malloc(12 * MiB))
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (0, 12 * MiB)
    allocator.empty_cache()
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (0, 0)
    assert allocator.pools == {"small": [], "large": []}
    allocator = Allocator()
    whole = allocator.malloc(12 * MiB)
    allocator.malloc(14 * MiB)
    allocator.free(whole)
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (14 * MiB, 26 * MiB)
    allocator.empty_cache()
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (14 * MiB, 14 * MiB)
    allocator.malloc(12 * MiB)
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (26 * MiB, 26 * MiB)


def test_a_freed_block_is_reused_from_its_own_pool_and_the_best_fit_wins():
    """A request first looks in the cache of its pool: the smallest free block that fits,
    split if it is bigger than needed, the rest staying cached. So small tensors share a 2 MiB
    segment, 512 bytes apart, and a freed block's address comes back for the next request of
    its size (seen on an H200: the same data_ptr). A big free block is kept for a big request.
    The two pools never lend to each other: a 1-byte tensor never takes a large block."""
    allocator = Allocator()
    first = allocator.malloc(1)
    second = allocator.malloc(1)
    assert second == first + 512, hexes(second, first + 512)
    assert allocator.memory_reserved() == 2 * MiB
    allocator.free(first)
    again = allocator.malloc(1)
    assert again == first, hexes(again, first)
    assert allocator.memory_reserved() == 2 * MiB
    allocator = Allocator()
    a = allocator.malloc(4 * KiB)
    allocator.malloc(512)
    b = allocator.malloc(1 * KiB)
    allocator.malloc(512)
    allocator.free(a)
    allocator.free(b)
    again = allocator.malloc(1 * KiB)
    assert again == b, hexes(again, b)
    allocator.empty_cache()
    assert allocator.memory_reserved() == 2 * MiB
    allocator = Allocator()
    big = allocator.malloc(12 * MiB)
    allocator.free(big)
    allocator.malloc(1)
    assert allocator.memory_reserved() == 14 * MiB
    again = allocator.malloc(12 * MiB)
    assert again == big, hexes(again, big)
    assert allocator.memory_reserved() == 14 * MiB


@SETTINGS
@given(ops, mixed)
def test_free_neighbours_merge_into_one_block(program, mixed_program):
    """A freed block merges with the free blocks beside it in its segment, so two freed halves
    serve a request for the whole, and a segment whose blocks are all free is one free block
    again, which empty_cache() can release. Measured on an H200: a 3 MiB tensor freed leaves
    0 allocated and 20 MiB reserved, and empty_cache() then releases it. By the same rules, two
    3 MiB tensors, freed and merged, leave room for a 15 MiB one in the same 20 MiB segment."""
    allocator = Allocator()
    a, b, _ = (allocator.malloc(512) for _ in range(3))
    allocator.free(a)
    allocator.free(b)
    whole = allocator.malloc(1024)
    assert whole == a, hexes(whole, a)
    allocator = Allocator()
    allocator.free(allocator.malloc(3 * MiB))
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (0, 20 * MiB)
    allocator.free(allocator.malloc(1))
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (0, 22 * MiB)
    allocator.empty_cache()
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (0, 0)
    allocator = Allocator()
    x, y = allocator.malloc(3 * MiB), allocator.malloc(3 * MiB)
    assert allocator.memory_reserved() == 20 * MiB
    allocator.free(x)
    allocator.free(y)
    whole = allocator.malloc(15 * MiB)
    assert whole == x, hexes(whole, x)
    assert allocator.memory_reserved() == 20 * MiB
    allocator.malloc(9 * MiB)
    assert allocator.memory_reserved() == 40 * MiB
    allocator = Allocator()
    live = replay(allocator, program)
    assert allocator.memory_allocated() == sum(round_size(size) for size in live.values())
    assert allocator.memory_reserved() % (2 * MiB) == 0
    assert allocator.memory_reserved() >= allocator.memory_allocated()
    assert_no_overlap(live, round_size)
    for address in list(live):
        allocator.free(address)
    allocator.empty_cache()
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (0, 0)
    allocator = Allocator()
    live = replay(allocator, mixed_program)
    assert allocator.memory_allocated() >= sum(round_size(size) for size in live.values())
    assert allocator.memory_reserved() >= allocator.memory_allocated()
    assert_no_overlap(live, round_size)
    for address in list(live):
        allocator.free(address)
    allocator.empty_cache()
    assert (allocator.memory_allocated(), allocator.memory_reserved()) == (0, 0)
