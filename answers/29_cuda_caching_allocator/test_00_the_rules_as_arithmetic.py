"""The caching allocator's sizing rules, written out in Python: they need no GPU.

The functions below restate, with torch's default settings, what the CUDA caching allocator in
`c10/cuda/CUDACachingAllocator.cpp` does with a request of `size` bytes (its constants live in
that file and, in newer versions, in `c10/core/AllocatorConfig.h`). Each one is named after the
function of the allocator it restates. Predict what they return: the files after this one
watch a GPU follow the same rules.
"""

KiB = 1 << 10
MiB = 1 << 20

MIN_BLOCK = 512  # kMinBlockSize: every block is a whole number of these bytes
SMALL_SIZE = 1 * MiB  # kSmallSize: the largest block the small pool hands out
SMALL_BUFFER = 2 * MiB  # kSmallBuffer: the size of every small-pool segment
MIN_LARGE_ALLOC = 10 * MiB  # kMinLargeAlloc: from this size on, a segment per request
LARGE_BUFFER = 20 * MiB  # kLargeBuffer (the large_segment_size setting): for the sizes between
ROUND_LARGE = 2 * MiB  # kRoundLarge: a segment of its own is a whole number of these


def round_size(size):
    """round_size(): the size of the block that serves a request of `size` bytes."""
    if size < MIN_BLOCK:
        return MIN_BLOCK
    return MIN_BLOCK * ((size + MIN_BLOCK - 1) // MIN_BLOCK)


def pool_for(size):
    """get_pool(): the pool that serves the request, chosen by its rounded size."""
    return "small" if round_size(size) <= SMALL_SIZE else "large"


def segment_for(size):
    """get_allocation_size(): what the allocator reserves from CUDA (one cudaMalloc) when no
    cached free block can serve the request."""
    size = round_size(size)
    if size <= SMALL_SIZE:
        return SMALL_BUFFER
    if size < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return ROUND_LARGE * ((size + ROUND_LARGE - 1) // ROUND_LARGE)


def block_for(size):
    """alloc_found_block() and should_split(): the block the request gets from a fresh segment.
    The rest of the segment becomes a free block of its own only if it is worth keeping."""
    size = round_size(size)
    rest = segment_for(size) - size
    worth_keeping = rest >= MIN_BLOCK if pool_for(size) == "small" else rest > SMALL_SIZE
    return size if worth_keeping else size + rest


def test_every_request_is_rounded_up_to_whole_minimum_blocks():
    """A block is never smaller than the minimum block, and never a fraction of one: its size
    is the request rounded up to the next multiple. The test rounds four requests."""
    assert [round_size(n) for n in (1, 512, 513, 1536)] == [512, 512, 1024, 1536]


def test_the_pool_is_chosen_by_the_rounded_size():
    """The small pool serves blocks of at most 1 MiB. The test is applied to the rounded size,
    so a request a little over a boundary lands where its rounded size does."""
    assert [pool_for(n) for n in (MiB - 1, MiB, MiB + 1)] == ["small", "small", "large"]


def test_a_new_segment_is_sized_by_the_size_class_of_the_request():
    """Three size classes, three ways to size a new segment: a fixed small segment, a fixed
    bigger one for blocks under 10 MiB, and from 10 MiB up a segment of the block's own size
    rounded up to a whole number of 2 MiB steps. Every rule looks at the rounded size. The
    sizes are shown in MiB."""
    sizes = (1, 3 * MiB, 10 * MiB - 1, 10 * MiB + 1, 21 * MiB)
    assert [segment_for(n) // MiB for n in sizes] == [2, 20, 10, 12, 22]


def test_a_small_segment_is_shared_by_many_small_blocks():
    """One cudaMalloc for every one-byte tensor would be slow and wasteful, so small blocks are
    cut side by side from one small segment. How many one-byte tensors share a segment?"""
    assert segment_for(1) // round_size(1) == 4096


def test_the_rest_of_a_segment_is_split_off_only_when_worth_keeping():
    """In the large pool, the rest of a segment becomes a free block only if it is bigger than
    1 MiB; a smaller rest stays attached to the block and counts as allocated. The sizes are
    shown in MiB."""
    sizes = (3 * MiB, 18 * MiB + 512 * KiB, 19 * MiB + 512 * KiB)
    assert [block_for(n) / MiB for n in sizes] == [3.0, 18.5, 20.0]
