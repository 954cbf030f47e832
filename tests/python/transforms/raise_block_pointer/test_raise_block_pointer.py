"""RaiseBlockPointer (-triton-raise-block-pointer): the rewrite (boundary checks and padding, wrap-around
with or without a run-time version, what it leaves alone and why) and its flag.

test_ptr_decompose.py tests the analysis on its own, test_raise_block_pointer_bit_identity.py the rewrite's
results on the interpreter, test_raise_block_pointer_triton.py the real compiler."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.dialects import scf

from xpu_passes.dialects import make_context, tt
from xpu_passes.interp import validate
from xpu_passes.transforms.raise_block_pointer import RaiseBlockPointer

from transforms.raise_block_pointer.raise_support import (
    check_bit_identical, gemm_inputs, gemm_variant, lit_chunk, ops_of, parse_text, raise_all,
)


def test_epilogue_raised_with_boundary_check_and_padding() -> None:
    _, after, remarks = raise_all(lit_chunk("add_matrix"))
    assert remarks == []
    (load,) = ops_of(after, tt.LoadOp)
    (store,) = ops_of(after, tt.StoreOp)
    assert load.is_block_pointer and load.boundary_check == (0, 1) and load.padding.value.data == 1
    assert store.is_block_pointer and store.boundary_check == (0, 1)
    assert not ops_of(after, tt.AddPtrOp)  # the tensor-of-pointer chains are gone


def test_gemm_wrap_around_raised_without_version() -> None:
    """The wrapped rows of A (columns of B) reach only accumulator rows (columns) the store masks off: no
    run-time version, the wrapped dims bounds-checked against M and N."""
    _, after, remarks = raise_all(lit_chunk("gemm_tensor_ptr"))
    assert not [r for r in remarks if r.startswith("left alone")]
    assert sum("needs no version" in r for r in remarks) == 4
    assert len(ops_of(after, scf.IfOp)) == 1 and len(ops_of(after, scf.ForOp)) == 2  # the kernel's own
    loads = ops_of(after, tt.LoadOp)
    assert len(loads) == 4 and all(ld.is_block_pointer and ld.padding.value.data == 1 for ld in loads)
    assert sorted(ld.boundary_check for ld in loads) == [(0,), (0, 1), (0, 1), (1,)]


@pytest.mark.parametrize("variant,versioned", [
    ({"store_rows_bound": "%arg5"}, ["needs 16*(divsi ...) >= 0, %arg3 - 16*(divsi ...) - 16 >= 0"]),
    ({"store_mask": False}, ["needs %arg4 - 16*(remsi ...) - 16 >= 0",
                             "needs 16*(divsi ...) >= 0, %arg3 - 16*(divsi ...) - 16 >= 0"])])
def test_gemm_wrap_around_versioned_where_the_store_does_not_mask_it(variant: dict, versioned: list[str]) -> None:
    """A store masking rows by K (not M), or not at all: the wrapped rows would be stored, so that wrap is
    versioned (the other one, still masked, is not): each load alone, inside the K loops, which are not
    copied (their tt.dot neither); bit-identical at ragged sizes."""
    text = gemm_variant(**variant)
    before, after, remarks = raise_all(text)
    assert len(ops_of(after, scf.ForOp)) == 2 and len(ops_of(after, tt.DotOp)) == 2  # the kernel's own
    ifs = [i for i in ops_of(after, scf.IfOp) if isinstance(i.parent_op(), scf.ForOp)]
    assert len(ifs) == 2 * len(versioned)  # one per versioned load, in each K loop
    for v in ifs:  # the conditions are computed before the loop (they do not depend on it)
        assert v.cond.owner.parent_op() is not v.parent_op()
    left = sorted({r.split(" at run time")[0].removeprefix("left alone: ") for r in remarks
                   if r.startswith("left alone")})
    assert left == versioned
    assert all("raised in the versioned copy" in r for r in remarks if r.startswith("left alone"))
    for M, N, K in [(40, 24, 48), (33, 17, 5)]:
        inputs = gemm_inputs(M, N, K, np.float16, M + N)
        inputs.args[2] = np.full((max(M, K) + 32) * N, np.nan, np.float32)  # unmasked stores reach past M
        check_bit_identical(before, after, inputs)


def test_wrap_proof_is_needed_where_the_store_does_not_mask(monkeypatch: Any) -> None:
    """Sensitivity: skipping the version where the store masks rows by K makes the interpreter differ."""
    from xpu_passes.transforms.raise_block_pointer import plan as raise_plan

    monkeypatch.setattr(raise_plan, "wrap_masked", lambda *a: (None, []))
    before, after, _ = raise_all(gemm_variant("%arg5"))
    assert not ops_of(after, tt.LoadOp)[0].parent_op().name == "scf.if"
    inputs = gemm_inputs(40, 24, 48, np.float16, 9)
    inputs.args[2] = np.full(48 * 24, np.nan, np.float32)
    assert not validate(before, after, inputs).ok


def test_left_alone_cases_say_why() -> None:
    _, after, remarks = raise_all(lit_chunk("may_fault"))
    assert not ops_of(after, tt.MakeTensorPtrOp)
    assert remarks == ["left alone: mask is not a bounds check of the block, and the block load may read "
                       "outside the kernel's bounds along dim 0"]
    _, after, remarks = raise_all(lit_chunk("one_d_and_gather"))
    assert len(ops_of(after, tt.MakeTensorPtrOp)) == 2  # the 1D ones, as Intel's pass; the gather stays
    assert sorted(set(remarks)) == ["left alone: gather: offsets loaded from memory (indirect)",
                                    "raised; dim 0 has no bound in the IR: shape = 0 as Intel's (not dot data: never "
                                    "2D block I/O)"]


def test_version_off_leaves_wrapping_loops_alone() -> None:
    m = parse_text(gemm_variant(store_mask=False))  # the wrapped rows would be stored: needs a version
    RaiseBlockPointer(version=False, dot_only=False).apply(make_context(), m)
    loads = ops_of(m, tt.LoadOp)
    assert not any(ld.is_block_pointer for ld in loads)
    assert ops_of(m, tt.StoreOp)[0].is_block_pointer  # the epilogue does not wrap


def test_old_pass_name_still_resolves() -> None:
    """The old flag is an alias in the registry: it makes the same pass (and the pass is registered once)."""
    from xpu_passes import registry
    from xpu_passes.registry import PassSpec
    from xpu_passes.transforms import load_all

    assert type(registry.make_pass(PassSpec("tritonintelgpu-raise-block-pointer", {}))) is RaiseBlockPointer
    assert [n for n, f in load_all().items() if f() is RaiseBlockPointer] == ["triton-raise-block-pointer"]
