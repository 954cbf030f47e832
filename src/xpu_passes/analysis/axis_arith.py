"""Axis facts of one value (`AxisInfo`) and their arithmetic: what addition, subtraction,
multiplication and remainder keep of contiguity, divisibility, constancy and strides
(`axis_info.AxisInfoAnalysis` propagates them through a module)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.ir import SSAValue

MAX_DIV = 1 << 30  # "divisible by everything" (the value 0)


def pow2(n: int) -> int:
    return MAX_DIV if n == 0 else min(n & -n, MAX_DIV)


@dataclass(frozen=True)
class AxisInfo:
    contiguity: tuple[int, ...]
    divisibility: tuple[int, ...]
    constancy: tuple[int, ...]
    stride: tuple[int | SSAValue | None, ...]
    value: int | None = None  # the constant, when every element is the same known value
    scalar: SSAValue | None = None  # the scalar every element equals (splats, scalars)

    @property
    def rank(self) -> int:
        return len(self.contiguity)

    @staticmethod
    def unknown(rank: int) -> AxisInfo:
        return AxisInfo((1,) * rank, (1,) * rank, (1,) * rank, (None,) * rank)

    @staticmethod
    def constant(value: int, shape: tuple[int, ...]) -> AxisInfo:
        return AxisInfo((1,) * len(shape), (pow2(value),) * len(shape), shape, (0,) * len(shape), value)

    def join(self, other: AxisInfo) -> AxisInfo:
        """What holds for a value that may be either (loop-carried, scf.if results)."""
        return AxisInfo(
            tuple(map(math.gcd, self.contiguity, other.contiguity)),
            tuple(map(math.gcd, self.divisibility, other.divisibility)),
            tuple(map(math.gcd, self.constancy, other.constancy)),
            tuple(a if a is b or (isinstance(a, int) and a == b) else None for a, b in zip(self.stride, other.stride)),
            self.value if self.value == other.value else None,
            self.scalar if self.scalar is other.scalar else None,
        )


def add(a: AxisInfo, b: AxisInfo, scale: int = 1) -> AxisInfo:
    # For pointers, offsets count elements and divisibility counts bytes.
    contig = tuple(max(math.gcd(ac, bk), math.gcd(ak, bc))
                   for ac, ak, bc, bk in zip(a.contiguity, a.constancy, b.contiguity, b.constancy))
    div = tuple(math.gcd(ad, min(bd * scale, MAX_DIV)) for ad, bd in zip(a.divisibility, b.divisibility))
    const = tuple(map(math.gcd, a.constancy, b.constancy))
    stride = tuple(_sum(x, y) for x, y in zip(a.stride, b.stride))
    value = a.value + b.value * scale if a.value is not None and b.value is not None else None
    return AxisInfo(contig, div, const, stride, value)


def sub(a: AxisInfo, b: AxisInfo) -> AxisInfo:
    contig = tuple(math.gcd(ac, bk) for ac, bk in zip(a.contiguity, b.constancy))
    div = tuple(map(math.gcd, a.divisibility, b.divisibility))
    const = tuple(map(math.gcd, a.constancy, b.constancy))
    stride = tuple(x - y if isinstance(x, int) and isinstance(y, int) else x if y == 0 else None
                   for x, y in zip(a.stride, b.stride))
    value = a.value - b.value if a.value is not None and b.value is not None else None
    return AxisInfo(contig, div, const, stride, value)


def mul(a: AxisInfo, b: AxisInfo) -> AxisInfo:
    def contig(x: AxisInfo, y: AxisInfo) -> tuple[int, ...]:
        return x.contiguity if y.value == 1 else (1,) * x.rank

    c = contig(a, b) if b.value == 1 else contig(b, a) if a.value == 1 else (1,) * a.rank
    div = tuple(min(x * y, MAX_DIV) for x, y in zip(a.divisibility, b.divisibility))
    const = tuple(map(math.gcd, a.constancy, b.constancy))
    if b.scalar is not None or b.value is not None:
        stride = tuple(_scale(s, b) for s in a.stride)
    elif a.scalar is not None or a.value is not None:
        stride = tuple(_scale(s, a) for s in b.stride)
    else:
        stride = tuple(0 if x == 0 and y == 0 else None for x, y in zip(a.stride, b.stride))
    value = a.value * b.value if a.value is not None and b.value is not None else None
    return AxisInfo(c, div, const, stride, value)


def rem(a: AxisInfo, b: AxisInfo) -> AxisInfo:
    # Wrap-around: runs stay contiguous only up to what the divisor's divisibility allows.
    contig = tuple(math.gcd(ac, bd) for ac, bd in zip(a.contiguity, b.divisibility))
    div = tuple(map(math.gcd, a.divisibility, b.divisibility))
    const = tuple(map(math.gcd, a.constancy, b.constancy))
    value = a.value % b.value if a.value is not None and b.value not in (None, 0) else None
    return AxisInfo(contig, div, const, (None,) * a.rank, value)


def _sum(x: int | SSAValue | None, y: int | SSAValue | None) -> int | SSAValue | None:
    if isinstance(x, int) and isinstance(y, int):
        return x + y
    if x == 0:
        return y
    if y == 0:
        return x
    return None


def _scale(s: int | SSAValue | None, by: AxisInfo) -> int | SSAValue | None:
    """A stride times a uniform factor (known value or a runtime scalar)."""
    if s == 0:
        return 0
    if isinstance(s, int) and by.value is not None:
        return s * by.value
    if s == 1 and by.scalar is not None:
        return by.scalar
    return None
