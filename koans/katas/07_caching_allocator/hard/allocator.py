"""A simulator of PyTorch's CUDA caching allocator."""

from __future__ import annotations

from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB
MIN_BLOCK = 512
SMALL_SIZE = 1 * MiB
SMALL_SEGMENT = 2 * MiB
LARGE_SEGMENT = 20 * MiB
MIN_LARGE_ALLOC = 10 * MiB
ROUND_LARGE = 2 * MiB


def round_size(size: int) -> int:
    """The block size for a request."""
    raise NotImplementedError("round_size")


def segment_size(size: int) -> int:
    """The segment size for a request."""
    raise NotImplementedError("segment_size")


@dataclass(eq=False)
class Block:
    address: int
    size: int
    pool: str
    allocated: bool = False
    prev: Block | None = None
    next: Block | None = None


class Allocator:
    def __init__(self) -> None:
        self.pools: dict[str, list[Block]] = {"small": [], "large": []}
        self.live: dict[int, Block] = {}
        self.allocated = 0
        self.reserved = 0
        self._next_address = 0x7F0000000000

    def _cuda_malloc(self, size: int) -> int:
        """The driver."""
        address = self._next_address
        self._next_address += size
        return address

    def memory_allocated(self) -> int:
        raise NotImplementedError("Allocator.memory_allocated")

    def memory_reserved(self) -> int:
        raise NotImplementedError("Allocator.memory_reserved")

    def malloc(self, size: int) -> int:
        """The address of a block for size bytes."""
        raise NotImplementedError("Allocator.malloc")

    def _get_free_block(self, pool: str, size: int) -> Block | None:
        """A cached block for the request, or None."""
        raise NotImplementedError("Allocator._get_free_block")

    def free(self, address: int) -> None:
        """Give the block back."""
        raise NotImplementedError("Allocator.free")

    def _merge(self, first: Block, second: Block) -> Block:
        """Two free neighbours as one block."""
        raise NotImplementedError("Allocator._merge")

    def empty_cache(self) -> None:
        """Release the wholly free segments."""
        raise NotImplementedError("Allocator.empty_cache")
