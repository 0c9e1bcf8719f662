"""A simulator of PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp).

cudaMalloc and cudaFree are slow and synchronise the device, so PyTorch asks the driver for big
segments and carves them into blocks itself. A freed tensor's block goes back to PyTorch's
cache, not to the driver: memory_allocated() counts the blocks in use, memory_reserved() the
segments held, and empty_cache() hands wholly free segments back.

Its rules, with the default configuration:
- every request is rounded up to a multiple of 512 bytes;
- requests up to 1 MiB come from the small pool, whose segments are 2 MiB; larger ones from the
  large pool, whose segments are 20 MiB for requests under 10 MiB and otherwise the request
  rounded up to a multiple of 2 MiB;
- a request takes the smallest cached free block of its pool that fits (the lowest address
  among equals), splitting off the rest when the rest is worth keeping: at least 512 bytes in
  the small pool, more than 1 MiB in the large one;
- a freed block merges with free neighbours in its segment.
"""

from __future__ import annotations

from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB
MIN_BLOCK = 512
SMALL_SIZE = 1 * MiB  # requests up to this size (rounded) use the small pool
SMALL_SEGMENT = 2 * MiB
LARGE_SEGMENT = 20 * MiB  # for large requests under MIN_LARGE_ALLOC
MIN_LARGE_ALLOC = 10 * MiB
ROUND_LARGE = 2 * MiB  # bigger requests get a segment of their size rounded to this


def round_size(size: int) -> int:
    """The block size a request of ``size`` bytes gets."""
    if size < MIN_BLOCK:
        return MIN_BLOCK
    return -(-size // MIN_BLOCK) * MIN_BLOCK


def segment_size(size: int) -> int:
    """How much cudaMalloc is asked for when no cached block fits a request of ``size``."""
    size = round_size(size)
    if size <= SMALL_SIZE:
        return SMALL_SEGMENT
    if size < MIN_LARGE_ALLOC:
        return LARGE_SEGMENT
    return -(-size // ROUND_LARGE) * ROUND_LARGE


@dataclass(eq=False)
class Block:
    address: int
    size: int
    pool: str  # "small" or "large"
    allocated: bool = False
    prev: Block | None = None  # its neighbours in the same segment
    next: Block | None = None


class Allocator:
    def __init__(self) -> None:
        self.pools: dict[str, list[Block]] = {"small": [], "large": []}  # cached free blocks
        self.live: dict[int, Block] = {}  # address -> block in use
        self.allocated = 0
        self.reserved = 0
        self._next_address = 0x7F0000000000

    def _cuda_malloc(self, size: int) -> int:
        """The driver: a fresh range of device memory."""
        address = self._next_address
        self._next_address += size
        return address

    def memory_allocated(self) -> int:
        return self.allocated

    def memory_reserved(self) -> int:
        return self.reserved

    def malloc(self, size: int) -> int:
        """A block for ``size`` bytes: its address."""
        size = round_size(size)
        name = "small" if size <= SMALL_SIZE else "large"
        block = self._get_free_block(name, size) if self.pools[name] else None
        if block is None:
            whole = segment_size(size)
            block = Block(self._cuda_malloc(whole), whole, name)
            self.reserved += whole
        rest = block.size - size
        if rest >= MIN_BLOCK if name == "small" else rest > SMALL_SIZE:
            tail = Block(block.address + size, rest, name, prev=block, next=block.next)
            if block.next is not None:
                block.next.prev = tail
            block.next = tail
            block.size = size
            self.pools[name].append(tail)
        block.allocated = True
        self.live[block.address] = block
        self.allocated += block.size
        return block.address

    def _get_free_block(self, pool: str, size: int) -> Block | None:
        """The smallest cached block of the pool that fits ``size`` (the lowest address among
        equals), taken out of the cache; None if none fits."""
        fits = [block for block in self.pools[pool] if block.size >= size]
        if not fits:
            return None
        block = min(fits, key=lambda b: (b.size, b.address))
        self.pools[pool].remove(block)
        return block

    def free(self, address: int) -> None:
        """The block goes back to the cache, merged with its free neighbours."""
        block = self.live.pop(address)
        block.allocated = False
        self.allocated -= block.size
        pool = self.pools[block.pool]
        for neighbour in (block.prev, block.next):
            if neighbour is not None and not neighbour.allocated:
                pool.remove(neighbour)
                block = self._merge(*sorted((block, neighbour), key=lambda b: b.address))
        pool.append(block)

    def _merge(self, first: Block, second: Block) -> Block:
        """Two neighbouring free blocks as one: the first grows over the second."""
        first.size += second.size
        first.next = second.next
        if second.next is not None:
            second.next.prev = first
        return first

    def empty_cache(self) -> None:
        """Hand every wholly free segment back to the driver (cudaFree)."""
        for pool in self.pools.values():
            for block in list(pool):
                if block.prev is None and block.next is None:
                    pool.remove(block)
                    self.reserved -= block.size
