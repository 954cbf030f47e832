"""Triton's axis info for integer and pointer values, plus strides.

Per dimension of a value (scalars count as one dimension of size 1):
- contiguity: length of runs whose values increase by 1 along the dim;
- divisibility: a power of two dividing the first value of every such run
  (for pointers, in bytes);
- constancy: length of runs of equal values along the dim;
- stride: the difference between neighbours along the dim when it is uniform: an
  int, or the scalar SSA value it equals at run time (a kernel's `stride_am`); for
  pointers, in elements - our addition, what 2D block I/O needs.

Seeded from `tt.divisibility`/`tt.contiguity`/`tt.constancy` on kernel arguments,
propagated through splat/broadcast/expand_dims/make_range/addptr/arith/select and
through scf.for/if/while, loop-carried values to a fixpoint.
"""

from __future__ import annotations

import math
from dataclasses import replace

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, UnregisteredOp, IntegerAttr, IntegerType, ModuleOp, TensorType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xpu_passes.analysis import axis_arith as _arith
from xpu_passes.analysis.axis_arith import AxisInfo, pow2
from xpu_passes.analysis.axis_dispatch import FOR as _FOR, IF as _IF, WHILE as _WHILE, code as _code, funcs as _funcs
from xpu_passes.analysis.values import splat_int
from xpu_passes.dialects import tt


def _splat_int(op: arith.ConstantOp) -> int | None:
    """`splat_int`, without unpacking a dense splat element by element: equal bytes per element
    prove a splat (anything else goes to `splat_int`, so the answer is always its answer)."""
    v = op.value
    if isinstance(v, DenseIntOrFPElementsAttr):
        et = v.get_element_type()
        raw, n = v.data.data, len(v)
        if isinstance(et, IntegerType) and n and len(raw) % n == 0:
            width = len(raw) // n
            if raw == raw[:width] * n:
                return int(et.unpack(raw[:width], 1)[0])
    return splat_int(op)


def _shape(v: SSAValue) -> tuple[int, ...]:
    return tuple(v.type.get_shape()) if isinstance(v.type, TensorType) else (1,)


def _elem_bytes(ptr_type: object) -> int:
    t = ptr_type.element_type if isinstance(ptr_type, TensorType) else ptr_type  # type: ignore[attr-defined]
    pointee = getattr(t, "pointee", None)
    return max(1, int(getattr(pointee, "bitwidth", 8)) // 8)


class AxisInfoAnalysis:
    """Computes AxisInfo for every integer/pointer value of a module."""

    MAX_ITERATIONS = 8

    def __init__(self, module: ModuleOp) -> None:
        self.info: dict[SSAValue, AxisInfo] = {}
        self._shapes: dict[int, tuple[Attribute, tuple[int, ...]]] = {}  # id(type) -> (type, _shape's answer)
        for fn in _funcs(module):
            if fn.body.blocks:
                self._seed_args(fn)
                # every block: an early return (`if c: ...; return`) leaves the body in cf.cond_br's successors
                for block in fn.body.blocks:
                    self._block(block)

    @staticmethod
    def empty() -> AxisInfoAnalysis:
        """An analysis that knows no value yet (axis_transfer fills one in)."""
        out = AxisInfoAnalysis.__new__(AxisInfoAnalysis)
        out.info, out._shapes = {}, {}
        return out

    def __getitem__(self, v: SSAValue) -> AxisInfo:
        return self.info.get(v) or AxisInfo.unknown(len(_shape(v)))

    def of(self, v: SSAValue, depth: int = 64) -> AxisInfo:
        """`self[v]`, computed on demand for a value made after the analysis ran (a copy of ops it
        saw, in another layout: the facts do not depend on layouts); block arguments it did not
        see are unknown."""
        hit = self.info.get(v)
        if hit is not None:
            return hit
        op = v.owner
        if not isinstance(op, Operation) or depth == 0 or _code(op) < 10:  # (no transfer function)
            return AxisInfo.unknown(len(_shape(v)))
        for o in op.operands:
            self.of(o, depth - 1)
        info = self._visit(op, v)
        if not isinstance(v.type, TensorType):
            info = AxisInfo(info.contiguity, info.divisibility, info.constancy, (0,), info.value, v)
        self.info[v] = info
        return info

    # ------------------------------------------------------------- driving

    def _seed_args(self, fn: tt.FuncOp) -> None:
        attrs = fn.arg_attrs.data if fn.arg_attrs is not None else ()
        for i, arg in enumerate(fn.body.blocks.first.args):  # type: ignore[union-attr]
            rank = len(_shape(arg))
            d = attrs[i].data if i < len(attrs) else {}  # type: ignore[attr-defined]

            def get(name: str, default: int) -> int:
                a = d.get(name)
                return a.value.data if isinstance(a, IntegerAttr) else default

            self.info[arg] = AxisInfo(
                (get("tt.contiguity", 1),) * rank,
                (get("tt.divisibility", 1),) * rank,
                (get("tt.constancy", 1),) * rank,
                (None,) * rank,
                scalar=None if isinstance(arg.type, TensorType) else arg,
            )

    def _block(self, block: Block) -> None:
        shape = self._shape
        for op in block.ops:
            kind = _KNOWN.get(type(op))
            if kind is None:
                kind = _code(op)
                if not isinstance(op, UnregisteredOp):  # made per context: not kept
                    _KNOWN[type(op)] = kind
            if kind == _FOR:
                self._for(op)  # type: ignore[arg-type]
            elif kind == _IF:
                self._if(op)  # type: ignore[arg-type]
            elif kind == _WHILE:
                self._while(op)  # type: ignore[arg-type]
            else:
                known = kind >= 10
                for r in op.results:
                    rank = shape(r)
                    if rank is not None:  # (a tensor)
                        self.info[r] = self._visit(op, r) if known else _unknown(len(rank))
                    else:
                        info = self._visit(op, r) if known else _UNKNOWN_SCALAR
                        self.info[r] = AxisInfo(info.contiguity, info.divisibility, info.constancy, (0,),
                                                info.value, r)
                for region in op.regions:
                    for b in region.blocks:
                        self._block(b)

    def _for(self, op: scf.ForOp) -> None:
        body = op.body.block
        lb, step = self[op.lb], self[op.step]
        self.info[body.args[0]] = AxisInfo((1,), (math.gcd(lb.divisibility[0], step.divisibility[0]),), (1,), (None,))
        carried = [self[v] for v in op.iter_args]
        for _ in range(self.MAX_ITERATIONS):
            for arg, info in zip(body.args[1:], carried):
                self.info[arg] = info
            self._block(body)
            yielded = [self[v] for v in body.last_op.operands]  # type: ignore[union-attr]
            joined = [a.join(b) for a, b in zip(carried, yielded)]
            if joined == carried:
                break
            carried = joined
        else:  # no fixpoint in time: assume nothing about loop-carried values
            carried = [AxisInfo.unknown(c.rank) for c in carried]
            for arg, info in zip(body.args[1:], carried):
                self.info[arg] = info
            self._block(body)
        for r, info in zip(op.results, carried):
            self.info[r] = info

    def _if(self, op: scf.IfOp) -> None:
        results: list[AxisInfo] | None = None
        for region in op.regions:
            for b in region.blocks:
                self._block(b)
                ys = [self[v] for v in b.last_op.operands] if b.last_op is not None else []
                results = ys if results is None else [a.join(c) for a, c in zip(results, ys)]
        for r, info in zip(op.results, results or []):
            self.info[r] = info

    def _while(self, op: scf.WhileOp) -> None:
        """Like scf.for: the before-region's args join the inits and the after-region's yields."""
        before, after = op.before_region.block, op.after_region.block
        carried = [self[v] for v in op.arguments]
        passed: list[AxisInfo] = []
        for attempt in range(self.MAX_ITERATIONS + 1):
            if attempt == self.MAX_ITERATIONS:  # no fixpoint in time: assume nothing
                carried = [AxisInfo.unknown(c.rank) for c in carried]
            for arg, info in zip(before.args, carried):
                self.info[arg] = info
            self._block(before)
            passed = [self[v] for v in before.last_op.operands[1:]]  # type: ignore[union-attr]
            for arg, info in zip(after.args, passed):
                self.info[arg] = info
            self._block(after)
            yielded = [self[v] for v in after.last_op.operands]  # type: ignore[union-attr]
            joined = [a.join(b) for a, b in zip(carried, yielded)]
            if joined == carried or attempt == self.MAX_ITERATIONS:
                break
            carried = joined
        for r, info in zip(op.results, passed):
            self.info[r] = info

    # ---------------------------------------------------------- transfer

    def _shape(self, v: SSAValue) -> tuple[int, ...] | None:
        """The shape of `v`'s tensor type (None: not a tensor), by type identity in this analysis."""
        t = v.type
        hit = self._shapes.get(id(t))
        if hit is None:
            hit = self._shapes[id(t)] = (t, tuple(t.get_shape()) if isinstance(t, TensorType) else None)  # type: ignore
        return hit[1]

    def _visit(self, op: Operation, r: SSAValue) -> AxisInfo:
        shape = self._shape(r)
        shape = (1,) if shape is None else shape
        rank = len(shape)
        code = _KNOWN.get(type(op))
        code = _code(op) if code is None else code
        if code == 10:  # arith.constant
            c = _splat_int(op)
            return AxisInfo.unknown(rank) if c is None else AxisInfo.constant(c, shape)
        if code == 11:  # tt.make_range
            start = op.start.value.data
            return AxisInfo((shape[0],), (pow2(start),), (1,), (1,))
        if code == 12:  # tt.splat
            s = self[op.src]
            return AxisInfo((1,) * rank, (s.divisibility[0],) * rank, shape, (0,) * rank, s.value, s.scalar)
        if code == 13:  # tt.expand_dims
            s = self[op.src]
            ax = op.axis.value.data
            div = min(s.divisibility) if s.divisibility else 1

            def ins(t: tuple, x: object) -> tuple:
                return t[:ax] + (x,) + t[ax:]

            return AxisInfo(
                ins(s.contiguity, 1), ins(s.divisibility, div), ins(s.constancy, 1), ins(s.stride, 0), s.value, s.scalar
            )
        if code == 14:  # tt.broadcast
            s = self[op.src]
            src_shape = _shape(op.src)
            grow = [a != b for a, b in zip(src_shape, shape)]
            return AxisInfo(
                tuple(1 if g else c for g, c in zip(grow, s.contiguity)),
                s.divisibility,
                tuple(n if g else c for g, n, c in zip(grow, shape, s.constancy)),
                tuple(0 if g else st for g, st in zip(grow, s.stride)),
                s.value,
                s.scalar,
            )
        if code == 15:  # extsi, extui, trunci, index_cast, convert_layout
            return self[op.operands[0]]  # (a conversion moves values between threads, not their facts: triton's rule)
        if code == 16:  # tt.addptr
            return _arith.add(self[op.ptr], self[op.offset], scale=_elem_bytes(op.ptr.type))
        if code == 17:  # arith.addi
            return _arith.add(self[op.lhs], self[op.rhs])
        if code == 18:  # arith.subi
            return _arith.sub(self[op.lhs], self[op.rhs])
        if code == 19:  # arith.muli
            return _arith.mul(self[op.lhs], self[op.rhs])
        if code == 20:  # arith.remsi/remui
            return _arith.rem(self[op.lhs], self[op.rhs])
        if code == 21:  # arith.divsi/divui
            a, b = self[op.lhs], self[op.rhs]
            const = tuple(map(math.gcd, a.constancy, b.constancy))
            value = a.value // b.value if a.value is not None and b.value not in (None, 0) else None
            return replace(AxisInfo.unknown(rank), constancy=const, value=value)
        if code == 22:  # cmpi, andi, ori, xori, select
            # Scalars (rank differs) are constant everywhere and do not limit constancy.
            parts = [self[o].constancy for o in op.operands if len(_shape(o)) == rank]
            const = tuple(math.gcd(*c) for c in zip(*parts)) if parts else shape
            if op.name == "arith.cmpi" and rank:
                const = self._compare_runs(op, const, shape)
            return replace(AxisInfo.unknown(rank), constancy=const)
        return AxisInfo.unknown(rank)

    def _compare_runs(self, op: Operation, const: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...]:
        """A range compared with a value constant along a dim (`offs < N`, `N > offs`) keeps its value
        over runs as long as both are divisible by (triton's CmpOp rule: N divisible by 16 makes a
        bounds mask constant over 16 elements, so a masked access still vectorizes)."""
        a, b = self[op.operands[0]], self[op.operands[1]]
        pred = op.properties["predicate"].value.data  # (CMPI: slt 2, sle 3, sgt 4, sge 5, ult 6, ule 7, ugt 8, uge 9)
        out = list(const)
        for d, n in enumerate(shape):
            if pred in (4, 8, 3, 7) and a.constancy[d] == n:  # const > range, const <= range
                runs = math.gcd(b.contiguity[d], math.gcd(a.divisibility[d], b.divisibility[d]))
            elif pred in (2, 6, 5, 9) and b.constancy[d] == n:  # range < const, range >= const
                runs = math.gcd(a.contiguity[d], math.gcd(a.divisibility[d], b.divisibility[d]))
            else:
                continue
            out[d] = max(out[d], runs)
        return tuple(out)


_KNOWN: dict[type, int] = {}  # op class -> _code (an op's name is fixed by its class)
_UNKNOWN_SCALAR = AxisInfo.unknown(1)
_UNKNOWNS = tuple(AxisInfo.unknown(rank) for rank in range(5))  # (frozen: shared)


def _unknown(rank: int) -> AxisInfo:
    return _UNKNOWNS[rank] if rank < len(_UNKNOWNS) else AxisInfo.unknown(rank)
