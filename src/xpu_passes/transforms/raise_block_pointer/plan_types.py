"""What a raising plan holds (`Plan`, `AccessPlan`, `DimPlan`), why an access is left alone
(`LeftAlone`), and the helpers that read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from xpu_passes.dialects import tt
from xpu_passes.transforms.raise_block_pointer.ptr_decompose import Lin


Access = tt.LoadOp | tt.StoreOp


class LeftAlone(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class DimPlan:
    pos: Lin  # position of the block's first element (before the loop, for loop-carried ones)
    stride: Lin
    adv: int = 0  # per-iteration advance (loop-carried pointers)
    extent: bool = False  # no bound in the IR: the shape is the extent the accesses reach
    shape: Lin | None = None
    # `r` of a loop-invariant mask `i < r` on a moving dim (mask_hull): the shape is then the extent clamped to
    # the columns that mask lets the loop read (build.hull_shape), and the mask stays as a select
    hull: Lin | None = None


@dataclass
class AccessPlan:
    op: Access
    boundary: tuple[int, ...] = ()
    padding: int | None = None
    select: bool = False
    after: bool = False  # through the advanced pointer (a loop-carried one used after its update)
    hulls: dict[int, Lin] = field(default_factory=dict)  # dim -> r of a loop-invariant mask `i < r` (DimPlan.hull)
    select_by: SSAValue | None = None  # the select's condition when not the whole mask (the hull's conjunct alone)


@dataclass
class Plan:
    base: SSAValue
    rest: Lin  # element offset not attributed to a dim: folded into the base pointer
    dims: list[DimPlan]
    order: tuple[int, ...]
    block: TensorType
    accesses: list[AccessPlan]
    preds: list[Lin] = field(default_factory=list)  # run-time conditions `L >= 0`
    loop: scf.ForOp | None = None
    arg_index: int = -1
    increment: Operation | None = None  # the `tt.addptr` the advance replaces
    after: Lin | None = None  # the uniform increment, when the loop's pointer result is used after it
    intel: bool = False  # Intel's form: shape 0 where unbounded, any position in the offsets (no 2D block I/O)
    var_adv: tuple[int, Lin] | None = None  # (dim, amount): an advance computed in the loop (Intel's form only)
    # (loop, dim, c): a direct access in `loop` whose position along dim is `x0 + c * iv`, carried by the loop as a
    # block pointer advanced by `c * step` (induction.carry_induction; induction.carry_plans)
    induction: tuple[scf.ForOp, int, int] | None = None
    proven: list[str] = field(default_factory=list)  # wrap-arounds raised without a version, and why
    unproven: list[str] = field(default_factory=list)  # why the others need one


def key(x: Lin) -> tuple:
    return x.terms


def dedup(xs: list[Lin]) -> list[Lin]:
    seen: dict[tuple, Lin] = {}
    for x in xs:
        seen.setdefault(key(x), x)
    return list(seen.values())


def tile_shape(op: Access) -> tuple[int, ...]:
    t = op.ptr.type
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())
