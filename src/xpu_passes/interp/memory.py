"""Pointers as (buffer id, element offset) and Triton's load/store semantics on them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np


class OutOfBounds(Exception):
    """An access outside a buffer that no mask or boundary check excluded."""


@dataclass(frozen=True)
class Ptr:
    """A scalar pointer or a tensor of pointers: buffer ids and element offsets, same shape."""

    buf: np.ndarray  # int32
    off: np.ndarray  # int64, in elements of the pointee type

    @staticmethod
    def scalar(buf: int) -> Ptr:
        return Ptr(np.asarray(buf, np.int32), np.asarray(0, np.int64))

    @property
    def shape(self) -> tuple[int, ...]:
        return self.off.shape

    def map(self, fn: Callable[[np.ndarray], np.ndarray]) -> Ptr:
        """Apply a shape operation (broadcast, reshape, transpose...) to both parts."""
        return Ptr(np.asarray(fn(self.buf)), np.asarray(fn(self.off)))


@dataclass(frozen=True)
class BlockPtr:
    """`tt.make_tensor_ptr`: a tile of `block` elements at `offsets` in a `shape` tensor."""

    buf: int
    base: int  # element offset of the base pointer
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offsets: tuple[int, ...]
    block: tuple[int, ...]
    order: tuple[int, ...]

    def advance(self, delta: Sequence[int]) -> BlockPtr:
        # Offsets are i32 in Triton: wrap like the GPU.
        offs = tuple(int(np.int32(np.int64(o) + np.int64(d))) for o, d in zip(self.offsets, delta))
        return replace(self, offsets=offs)

    def indices(self, boundary_check: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """(element offsets, in-bounds mask over the checked dimensions), both of the block's shape."""
        grids = np.meshgrid(*[np.arange(b, dtype=np.int64) for b in self.block], indexing="ij")
        off = np.full(self.block, self.base, dtype=np.int64)
        ok = np.ones(self.block, dtype=bool)
        for d, g in enumerate(grids):
            idx = g + self.offsets[d]
            off = off + idx * self.strides[d]
            if d in boundary_check:
                ok &= (idx >= 0) & (idx < self.shape[d])
        return off, ok


@dataclass
class MemDesc:
    """A `!ttg.memdesc` (shared local memory): a mutable array, possibly a view of another."""

    data: np.ndarray


def _check_bounds(buffers: Sequence[np.ndarray], ptr: Ptr, mask: np.ndarray, what: str) -> None:
    for b in np.unique(ptr.buf[mask]) if mask.any() else ():
        if not 0 <= b < len(buffers):
            raise OutOfBounds(f"{what} through a pointer to no buffer (id {b})")
        sel = mask & (ptr.buf == b)
        offs = ptr.off[sel]
        bad = (offs < 0) | (offs >= buffers[b].size)
        if bad.any():
            raise OutOfBounds(
                f"out-of-bounds {what}: buffer {b} (size {buffers[b].size}) at element {int(offs[bad][0])}"
            )


def gather(buffers: Sequence[np.ndarray], ptr: Ptr, mask: np.ndarray, fill: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Masked load: `fill` where the mask is false; raises on unmasked out-of-bounds."""
    mask = np.broadcast_to(mask, ptr.shape)
    _check_bounds(buffers, ptr, mask, "load")
    out = np.array(np.broadcast_to(fill, ptr.shape), dtype=dtype)
    for b in np.unique(ptr.buf[mask]) if mask.any() else ():
        sel = mask & (ptr.buf == b)
        out[sel] = buffers[b][ptr.off[sel]]
    return out


def scatter(buffers: Sequence[np.ndarray], ptr: Ptr, value: np.ndarray, mask: np.ndarray) -> None:
    """Masked store; elements are written in row-major order (the last duplicate wins)."""
    mask = np.broadcast_to(mask, ptr.shape)
    _check_bounds(buffers, ptr, mask, "store")
    value = np.broadcast_to(value, ptr.shape)
    for b in np.unique(ptr.buf[mask]) if mask.any() else ():
        sel = mask & (ptr.buf == b)
        buffers[b][ptr.off[sel]] = value[sel].astype(buffers[b].dtype)


def block_ptr_as_tensor(bp: BlockPtr, boundary_check: Sequence[int]) -> tuple[Ptr, np.ndarray]:
    off, ok = bp.indices(boundary_check)
    return Ptr(np.full(bp.block, bp.buf, dtype=np.int32), off), ok
