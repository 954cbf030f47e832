"""Verifier rules shared by many ops, in Triton's words (lib/Dialect/Triton/IR/Traits.cpp and
TritonGPU's tensor-layout check). Each rule is written once and attached to the ops that
carry the corresponding Triton trait; op-specific rules stay in the ops' `verify_`.

`Rules(...)` holds an ordered tuple of rules (xDSL keeps traits in a set, so the order of
several traits is not defined: one trait with a sequence keeps Triton's order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Attribute, BlockArgument, OpResult, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.traits import OpTrait
from xdsl.utils.exceptions import VerifyException

Rule = Callable[[Operation], None]

# Triton's maxTensorNumElements (1 << 20 since 3.0).
MAX_TENSOR_NUM_ELEMENTS = 1 << 20


class EmitError(VerifyException):
    """A verifier message triton emits with MLIR's `emitError` (not `emitOpError`): reported as
    it is, without the `'tt.x' op ` prefix (`op_prefix`, read by the front end's verifier)."""

    op_prefix = False


class InferError(VerifyException):
    """A result type that differs from what the op infers. MLIR emits the reason, then a
    second error at the same op: `failed to infer returned types`."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.more = ["failed to infer returned types"]


def _quoted(types: Iterable[Attribute]) -> str:
    return ", ".join(f"'{t}'" for t in types)


def check_inferred(op: Operation, inferred: Sequence[Attribute | None]) -> None:
    """Compare the result types with the inferred ones; None: that part cannot be inferred here
    (a layout we do not model) and only shape and element type are compared."""
    got = list(op.result_types)
    same = len(got) == len(inferred) and all(w is None or _same_type(g, w) for g, w in zip(got, inferred))
    if not same:
        shown = [w if w is not None else g for g, w in zip(got, inferred)]
        raise InferError(f"inferred type(s) {_quoted(shown)} are incompatible with return type(s) of operation "
                         f"{_quoted(got)}")


def _same_type(a: Attribute, b: Attribute) -> bool:
    if a == b:
        return True
    if not (isinstance(a, TensorType) and isinstance(b, TensorType)):
        return False
    if a.get_shape() != b.get_shape() or a.element_type != b.element_type:
        return False
    from xpu_passes.dialects.ttg.infer_layout import same_layout  # (ttg's ops use these rules)

    ea, eb = encoding(a), encoding(b)
    if same_layout(ea, eb):
        return True
    if ea is None or eb is None or not _PLACEMENT:
        return False
    # Triton compares inferred layouts by where they place the elements (isCompatibleReturnTypes).
    try:
        return _PLACEMENT[0](ea, eb, a.get_shape())
    except Exception:  # noqa: BLE001 - a layout the algebra does not model: not provably the same
        return False


Placement = Callable[[Attribute, Attribute, Sequence[int]], bool]

# Whether two layouts place a tensor's elements alike is a question for the layout algebra, which
# sits above the dialects (it reads their attributes): the front end's verifier, above both,
# provides it (frontend/verifier.py). Without it, differing layouts are not provably the same.
_PLACEMENT: list[Placement] = []


def compare_placement_with(same_placement: Placement) -> None:
    _PLACEMENT[:] = [same_placement]


# (operand layout, its shape, result layout, its shape) -> the result layout triton-xpu's verifier
# expects if it rejects the given one, else None: tt.reshape's check, from the layout algebra
# (layouts/shape_infer.reshape_expected), handed over by the front end's verifier as above.
ReshapeCheck = Callable[[Attribute, Sequence[int], Attribute, Sequence[int]], "Attribute | None"]
_RESHAPE: list[ReshapeCheck] = []


def check_reshape_with(check: ReshapeCheck) -> None:
    _RESHAPE[:] = [check]


def reshape_expected(src: Attribute, src_shape: Sequence[int], dst: Attribute, dst_shape: Sequence[int]) -> Attribute | None:
    """The layout triton-xpu's ReshapeOp::verify expects instead of `dst`, where the algebra proves it rejects `dst`."""
    return _RESHAPE[0](src, src_shape, dst, dst_shape) if _RESHAPE else None


def infer_failed(reason: str) -> InferError:
    return InferError(reason)


def shape(t: Attribute) -> tuple[int, ...] | None:
    return tuple(t.get_shape()) if isinstance(t, TensorType) else None


def encoding(t: Attribute) -> Attribute | None:
    if isinstance(t, TensorType):
        enc = t.encoding
        return None if enc is None or getattr(enc, "name", "") == "none" or type(enc).__name__ == "NoneAttr" else enc
    return None


# ------------------------------------------------------------------------- rules


def same_operands_shape(op: Operation) -> None:
    shapes = [shape(t) for t in op.operand_types]
    first = shapes[0] if shapes else None
    if any(s is not None and first is not None and s != first for s in shapes[1:]):
        raise VerifyException("requires the same shape for all operands")


def same_operands_and_result_shape(op: Operation) -> None:
    shapes = [shape(t) for t in op.operand_types]
    if not shapes:
        return
    first = shapes[0]
    if any(s is not None and first is not None and s != first for s in (*shapes[1:], *map(shape, op.result_types))):
        raise VerifyException("requires the same shape for all operands and results")


def same_operands_encoding(op: Operation) -> None:
    types = list(op.operand_types)
    if not types:
        return
    a = encoding(types[0])
    for t in types[1:]:
        b = encoding(t)
        if a is not None and b is not None and a != b:
            raise VerifyException("requires the same encoding for all operands")


def same_operands_and_result_encoding(op: Operation) -> None:
    types = list(op.operand_types)
    if not types:
        return
    a = encoding(types[0])
    for t in op.result_types:
        b = encoding(t)
        if a is not None and b is not None and a != b:
            raise VerifyException("requires the same encoding for all operands and results")
    same_operands_encoding(op)


def elementwise(op: Operation) -> None:
    """MLIR's Elementwise trait: the tensor operands and results have one shape."""
    shapes = {shape(t) for t in (*op.result_types, *op.operand_types) if isinstance(t, TensorType)}
    if len(shapes) > 1:
        raise VerifyException("all non-scalar operands/results must have the same shape and base type")


def tensor_size(op: Operation) -> None:
    """TensorSizeTrait: every tensor operand and result has a power-of-2 number of elements."""
    for t in (*op.operand_types, *op.result_types):
        if not isinstance(t, TensorType):
            continue
        n = 1
        for s in t.get_shape():
            n *= s
        if n > MAX_TENSOR_NUM_ELEMENTS:
            raise VerifyException(f"Maximum allowed number of elements is {MAX_TENSOR_NUM_ELEMENTS}, but {op.name} "
                                  f"has more than that")
        if n & (n - 1):
            raise VerifyException(f"Number of elements must be power-of-two, but {op.name} doesn't follow the rule "
                                  f"({n}) elements")


def _module_of(op: Operation) -> Operation | None:
    p = op.parent_op()
    while p is not None and p.name != "builtin.module":
        p = p.parent_op()
    return p


# What the layout rules read from enclosing ops (the parser's verify-once cache keys on them).
CONTEXT_OPS = ("builtin.module", "tt.func")
CONTEXT_ATTRS = ("ttg.num-warps", "ttg.threads-per-warp", "ttg.num-ctas")


def _int_attr(op: Operation | None, name: str) -> int | None:
    a = op.attributes.get(name) if op is not None else None
    return a.value.data if isinstance(a, IntegerAttr) else None


def num_warps(op: Operation) -> int | None:
    """maybeLookupNumWarps: `ttg.num-warps` of the closest enclosing function or module."""
    p: Operation | None = op
    while p is not None:
        if p.name in CONTEXT_OPS and (n := _int_attr(p, "ttg.num-warps")) is not None:
            return n
        p = p.parent_op()
    return None


def threads_per_warp(op: Operation) -> int | None:
    """`ttg.threads-per-warp` of the module enclosing `op`."""
    return _int_attr(_module_of(op), "ttg.threads-per-warp")


def _product(xs: Iterable[int]) -> int:
    n = 1
    for x in xs:
        n *= x
    return n


def layout_error(op: Operation, t: Attribute) -> str:
    """Why `t`'s layout is invalid on this op ('' if it is not), TritonGPU's verifyTensorLayout."""
    enc = encoding(t)
    if enc is None:
        return ""
    name = getattr(enc, "name", "")
    if name == "ttig.dpas":
        return _dpas_error(op, enc)
    if name in ("ttg.swizzled_shared", "ttg.shared", "ttg.nvmma_shared", "ttg.amd_rotating_shared"):
        return "Shared layout is not allowed on tensor type."
    if name != "ttg.blocked":
        return ""
    blocked = cast(Any, enc)
    tpw, wpc = tuple(blocked.threads_per_warp), tuple(blocked.warps_per_cta)
    rank = len(cast(TensorType, t).get_shape())
    if len(tpw) != rank:
        return f"{enc}.\nLayout has rank {len(tpw)}, but the tensor it's attached to has rank {rank}."
    module = _module_of(op)
    threads = _int_attr(module, "ttg.threads-per-warp") or 32
    if _product(tpw) != threads:
        return (f"{enc}.\nLayout has a total of {_product(tpw)} threads per warp, but the module specifies "
                f"{threads} threads per warp.")
    warps = num_warps(op)
    if warps is None:
        return "Could not determine the number of warps per CTA. Operation is not in a context with `ttg.num-warps`."
    if _product(wpc) != warps:
        return f"{enc}.\nLayout has a total of {_product(wpc)} warps per CTA, but the context requires {warps} warps per CTA."
    ctas = blocked.get("CTAsPerCGA")
    if ctas:
        want = _int_attr(module, "ttg.num-ctas") or 1
        if _product(ctas) != want:
            return (f"{enc}.\nLayout has a total of {_product(ctas)} CTAs per CGA, but the module specifies "
                    f"{want} CTAs per CGA.")
    return ""


def _dpas_error(op: Operation, enc: Attribute) -> str:
    """Intel's verifyTensorLayout: a DPAS channel packs 32 bits of each tt.dot operand."""
    if op.name != "tt.dot":
        return ""
    ops = cast(int, cast(Any, enc).ops_per_chan)
    for v in op.operands[:2]:
        elem = v.type.element_type if isinstance(v.type, TensorType) else v.type
        elem = getattr(elem, "pointee", elem)  # !tt.ptr<T>
        width = getattr(elem, "width", None)
        bits = width.data if width is not None and hasattr(width, "data") else getattr(elem, "bitwidth", 0)
        if ops * bits != 32:
            return f"{enc}.\nLayout has opsPerChannel = {ops} but tensor element type is '{elem}'. Expected {32 // ops} bit type."
    return ""


def _describe(v: SSAValue) -> str:
    """How MLIR prints a value in this diagnostic (a block argument, or the op defining it)."""
    if isinstance(v, BlockArgument):
        return f"<block argument> of type '{v.type}' at index: {v.index}"
    return f"result of '{cast(OpResult, v).op.name}' of type '{v.type}'"


def tensor_layouts(op: Operation) -> None:
    """VerifyTensorLayoutsTrait: layouts valid for the tensor and the module they are used in."""
    for i, v in enumerate(op.operands):
        if why := layout_error(op, v.type):
            raise VerifyException(f"Operand {i} ({_describe(v)}) has an invalid layout: {why}")
    results = list(op.results)
    for i, r in enumerate(results):
        if why := layout_error(op, r.type):
            which = "Result" if len(results) == 1 else f"Result {i}"
            raise VerifyException(f"{which} has an invalid layout: {why}")


# ------------------------------------------------------------------------ traits


@dataclass(frozen=True)
class Rules(OpTrait):
    """Shared rules, checked in this order before the op's own `verify_`."""

    rules: tuple[Rule, ...] = ()

    def verify(self, op: Operation) -> None:
        for rule in self.rules:
            rule(op)


# Every op of `tt` (TT_Op) and `ttg` (TTG_Op) carries these, after its own traits.
TT_OP = Rules((tensor_size, tensor_layouts))
TTG_OP = Rules((tensor_layouts,))
NOT_TT_OP = frozenset(("tt.func", "tt.return", "tt.call"))  # defined with MLIR's Op, not TT_Op


def attach(ops: Iterable[type[IRDLOperation]], trait: OpTrait) -> None:
    """Add `trait` to each op class (the op definitions stay as they are written)."""
    for cls in ops:
        cls.get_irdl_definition().traits.add_trait(trait)
