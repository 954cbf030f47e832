"""The compile's grf_mode reaches raising's wide-positions (pipeline._with_compile_warps).

The construct: a GEMM whose row positions are computed in i64 (`pid.to(tl.int64) * BM`) and whose K
positions are made from the loop's induction variable, 64x64 tiles, K 32, 4 warps: its loop keeps 8 KB per
warp live (accumulator 4 KB, A and B 4 KB), the whole default register file. Launched without grf_mode the
function is raised as without wide-positions (remark: at the edge of the file); with grf_mode="large" it is
raised with it (A and B carried by the loop). With K 16 (6 KB, under the edge) both modes raise it.
"""

from __future__ import annotations

from typing import Any

import pytest
import triton
import triton.language as tl

from xpu_passes.integration import oracle, pipeline
from xpu_passes.transforms.base import collecting_remarks

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")


@triton.jit
def gemm_i64_rows(a_ptr, b_ptr, c_ptr, K, stride_am, stride_bk, stride_cm,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0).to(tl.int64) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc)


def _run(bk: int, **compile_options: Any) -> tuple[str, list[str]]:
    from triton.compiler.compiler import ASTSource

    backend = oracle.pvc_backend()
    opts = backend.parse_options(dict(num_warps=4, num_stages=2, **compile_options))
    sig = {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32", "K": "i32", "stride_am": "i32", "stride_bk": "i32",
           "stride_cm": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    src = ASTSource(gemm_i64_rows, sig, {"BM": 64, "BN": 64, "BK": bk},
                    {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 3, 4, 5, 6)})
    mod = src.make_ir(opts, backend.get_codegen_implementation(opts), backend.get_module_map(), oracle.context())
    mod = backend.make_ttir(mod, {}, opts)
    with collecting_remarks() as sink:
        out = str(pipeline.run_plan(mod, {}, opts, backend.properties, pipeline.plan("xpu")))
    return out, [r.message for r in sink.remarks]


@needs_triton
@pytest.mark.parametrize(("bk", "grf", "wide"), [(32, {}, False), (32, {"grf_mode": "large"}, True),
                                                 (16, {}, True), (16, {"grf_mode": "large"}, True)])
def test_the_compiles_register_file_decides(bk: int, grf: dict[str, str], wide: bool) -> None:
    ttgir, remarks = _run(bk, **grf)
    edge = [m for m in remarks if m.startswith("wide-positions not applied")]
    if wide:
        assert not edge, edge
        assert ttgir.count("tt.make_tensor_ptr") >= 2  # A (its i64 rows folded into the base) and B, carried
    else:
        assert len(edge) == 1 and "8192 bytes per warp, at the edge" in edge[0], edge
        assert ttgir.count("tt.make_tensor_ptr") < 2  # A's i64 rows left alone
