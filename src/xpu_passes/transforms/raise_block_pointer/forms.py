"""What a decomposition yields (the pointer's form: base and per-dimension terms; a mask's
bounds) and why one fails (`Unsupported`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Operation, SSAValue

from xpu_passes.transforms.raise_block_pointer.poly import Lin, ONE, ZERO


class Unsupported(Exception):
    """Why a value cannot be decomposed; `op` is where the trail ended."""

    def __init__(self, reason: str, op: Operation | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.op = op


@dataclass(frozen=True)
class DimTerm:
    """stride * wrap(pos + i) along one dimension."""

    stride: Lin
    pos: Lin
    wrap: Lin | None = None  # the divisor W of `(pos + i) % W`
    wrap_op: Operation | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Form:
    """An integer tensor (or scalar, rank 0 dims all None) as base + sum of DimTerms."""

    base: Lin
    dims: tuple[DimTerm | None, ...]

    def normalized(self) -> Form:
        # A value varying along one dim with unit stride is an index: its base is its position.
        live = [d for d, t in enumerate(self.dims) if t is not None]
        if len(live) == 1 and self.base.terms:
            t = self.dims[live[0]]
            assert t is not None
            if t.wrap is None and t.stride == ONE:
                dims = list(self.dims)
                dims[live[0]] = DimTerm(ONE, t.pos + self.base)
                return Form(ZERO, tuple(dims))
        return self

    @property
    def uniform(self) -> bool:
        return all(t is None for t in self.dims)


@dataclass(frozen=True)
class PtrForm:
    base: SSAValue  # scalar !tt.ptr<T>
    offset: Form


@dataclass(frozen=True)
class Bound:
    """A mask conjunct `pos + i_dim < bound` (wrapped by `wrap` if set)."""

    dim: int
    pos: Lin
    bound: Lin
    wrap: Lin | None
    op: Operation


@dataclass
class MaskParts:
    bounds: list[Bound] = field(default_factory=list)
    others: list[SSAValue] = field(default_factory=list)
