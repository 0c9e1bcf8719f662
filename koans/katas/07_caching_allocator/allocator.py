"""A simulator of PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp).

cudaMalloc and cudaFree are slow and synchronise the device, so PyTorch asks the driver for big
segments and carves them into blocks itself. A freed tensor's block goes back to PyTorch's
cache, not to the driver: memory_allocated() counts the blocks in use, memory_reserved() the
segments held, and empty_cache() hands wholly free segments back.

The constants, a Block record and a fake driver (_cuda_malloc) are given. Write the rest, one
step at a time: test_steps.py says what each function must do, in order.
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
    raise NotImplementedError("round_size")


def segment_size(size: int) -> int:
    """How much cudaMalloc is asked for when no cached block fits a request of ``size``."""
    raise NotImplementedError("segment_size")


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
        raise NotImplementedError("Allocator.memory_allocated")

    def memory_reserved(self) -> int:
        raise NotImplementedError("Allocator.memory_reserved")

    def malloc(self, size: int) -> int:
        """A block for ``size`` bytes: its address."""
        raise NotImplementedError("Allocator.malloc")

    def _get_free_block(self, pool: str, size: int) -> Block | None:
        """The smallest cached block of the pool that fits ``size`` (the lowest address among
        equals), taken out of the cache; None if none fits."""
        raise NotImplementedError("Allocator._get_free_block")

    def free(self, address: int) -> None:
        """The block goes back to the cache."""
        raise NotImplementedError("Allocator.free")

    def _merge(self, first: Block, second: Block) -> Block:
        """Two neighbouring free blocks as one: the first grows over the second."""
        raise NotImplementedError("Allocator._merge")

    def empty_cache(self) -> None:
        """Hand every wholly free segment back to the driver (cudaFree)."""
        raise NotImplementedError("Allocator.empty_cache")
