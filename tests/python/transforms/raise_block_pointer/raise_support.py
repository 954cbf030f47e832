"""Inputs and checks shared by RaiseBlockPointer's tests: the lit test's input modules, the pass run
with its remarks, and bit identity on the interpreter, as Triton runs a kernel and as 2D block I/O
would (every block access bounds-checked against its shape)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, i32
from xdsl.ir import BlockArgument

from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module
from xpu_passes.interp import Inputs, validate
from xpu_passes.transforms import collecting_remarks, load_all
from xpu_passes.transforms.raise_block_pointer import RaiseBlockPointer

load_all()

LIT = Path(__file__).parents[3] / "lit" / "passes" / "raise-block-pointer.mlir"


def lit_chunk(func: str, lit: Path = LIT) -> str:
    """The input module of lit file `lit` that defines `func` (the inputs are shared with the lit test)."""
    for part in lit.read_text().split("// -----"):
        if f"@{func}(" in part:
            return "\n".join(ln for ln in part.splitlines() if not ln.lstrip().startswith("//"))
    raise KeyError(func)


def parse_text(text: str) -> ModuleOp:
    return parse_module(make_context(), text, "test").module


def raise_text(text: str, **options: Any) -> tuple[ModuleOp, ModuleOp, list[str]]:
    """`text` parsed, and parsed then raised with `options`, with the remarks of the run."""
    before, after = parse_text(text), parse_text(text)
    with collecting_remarks() as sink:
        RaiseBlockPointer(**options).apply(make_context(), after)
    return before, after, [r.message for r in sink.remarks]


def raise_all(text: str) -> tuple[ModuleOp, ModuleOp, list[str]]:
    return raise_text(text, dot_only=False)


def ops_of(m: ModuleOp, kind: type) -> list:
    return [o for o in m.walk() if isinstance(o, kind)]


def gemm_variant(store_rows_bound: str = "%arg3", store_mask: bool = True) -> str:
    text = lit_chunk("gemm_tensor_ptr")
    text = text.replace("%50 = tt.splat %arg3 : i32 -> tensor<16x1xi32>",
                        f"%50 = tt.splat {store_rows_bound} : i32 -> tensor<16x1xi32>")
    if not store_mask:
        text = text.replace("tt.store %49, %40, %56 : tensor<16x16x!tt.ptr<f32>>",
                            "tt.store %49, %40 : tensor<16x16x!tt.ptr<f32>>")
    return text


def _intel_form(op: tt.LoadOp | tt.StoreOp) -> bool:
    """Whether the access's block pointer has a constant shape 0 (Intel's unknown): raising writes it only
    for accesses that move no tt.dot data, which 3.3 never lowers to 2D block I/O (no surface)."""
    v = op.ptr
    while isinstance(v, BlockArgument) and isinstance(v.owner.parent_op(), scf.ForOp):
        v = v.owner.parent_op().iter_args[v.index - 1]
    while isinstance(v.owner, tt.AdvanceOp):
        v = v.owner.ptr
    mk = v.owner
    return isinstance(mk, tt.MakeTensorPtrOp) and any(_const(s) == 0 for s in mk.shape)


def _const(v: Any) -> int | None:
    attr = v.owner.properties.get("value") if getattr(v.owner, "name", "") == "arith.constant" else None
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def surface_model(m: ModuleOp) -> ModuleOp:
    """`m` with every block access bounds-checked on all dims: how 2D block I/O treats the shape (reads
    outside the surface give 0, writes are dropped). Equal results mean no access reaches past a shape."""
    m = m.clone()
    for op in m.walk():
        if isinstance(op, tt.LoadOp | tt.StoreOp) and op.is_block_pointer and not _intel_form(op):
            rank = len(op.ptr.type.pointee.get_shape())
            op.properties["boundaryCheck"] = DenseArrayBase.from_list(i32, list(range(rank)))
            if isinstance(op, tt.LoadOp) and op.padding is None:
                op.properties["padding"] = IntegerAttr(1, i32)
    return m


def check_bit_identical(before: ModuleOp, after: ModuleOp, inputs: Inputs) -> None:
    for variant in (after, surface_model(after)):
        r = validate(before, variant, inputs)
        assert r.ok, str(r)


def gemm_inputs(M: int, N: int, K: int, dtype: type, seed: int) -> Inputs:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(M * K).astype(dtype)
    b = rng.standard_normal(K * N).astype(dtype)
    c = np.full(M * N, np.nan, np.float32)  # untouched elements must stay NaN in both runs
    return Inputs([a, b, c, M, N, K, K, N, N], (-(-M // 16) * -(-N // 16),))
