"""The estimate's reported figure `stored_2d` (isa_estimate): register bytes per lane of a tile written by
2D block stores. The construct (flag_gems flash_varlen_fwd's epilogue, written here): a DPAS accumulator
truncated to f16 and stored through a block pointer, either straight from the DPAS layout (2D block
writes: the tile stays in registers until written) or after a conversion to a blocked layout (through
SLM, then scatters). It is shown in the guards' remarks and judges nothing: in kernels over the register
file IGC spills a little more for it in one row and far less in others (docs/never-worse.md)."""

from __future__ import annotations

import pytest

from xpu_passes.integration.isa_estimate import Estimate, estimate_text

HEADER = ('module attributes {triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_dpas, '
          'triton_intel_gpu.support_sg_2d_block, triton_intel_gpu.target_arch = "spir64", "ttg.num-ctas" = 1 : i32, '
          '"ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32} {')
LAYOUTS = """#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #triton_intel_gpu.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [2, 2], A = [16, 16], B = [16, 32], C = [16, 32]}>"""


def epilogue(store_layout: str, block_pointer: bool = True) -> str:
    """A 64x128 f32 accumulator in the DPAS layout truncated to f16 and stored in `store_layout` (a
    conversion first when it is not #mma), through a block pointer or a tensor of pointers."""
    t = f"tensor<64x128xf16, {store_layout}>"
    cvt = "" if store_layout == "#mma" else f"    %v = ttg.convert_layout %h : tensor<64x128xf16, #mma> -> {t}\n"
    val = "%h" if store_layout == "#mma" else "%v"
    if block_pointer:
        store = f"""    %p = tt.make_tensor_ptr %o, [%m, %c128], [%ld, %c1], [%c0, %c0] {{order = array<i32: 1, 0>}} : <{t}>
    tt.store %p, {val} {{boundaryCheck = array<i32: 0, 1>}} : !tt.ptr<{t}>
"""
    else:
        pt = f"tensor<64x128x!tt.ptr<f16>, {store_layout}>"
        store = f"""    %s = tt.splat %o : !tt.ptr<f16> -> {pt}
    tt.store %s, {val} : {pt}
"""
    return f"""{LAYOUTS}
{HEADER}
  tt.func public @epilogue(%o: !tt.ptr<f16> {{tt.divisibility = 16 : i32}}, %m: i64, %ld: i64) {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c128 = arith.constant 128 : i64
    %acc = arith.constant dense<1.000000e+00> : tensor<64x128xf32, #mma>
    %h = arith.truncf %acc : tensor<64x128xf32, #mma> to tensor<64x128xf16, #mma>
{cvt}{store}    tt.return
  }}
}}
"""


def test_a_dpas_tile_stored_by_2d_block_writes_is_counted() -> None:
    # 64x128 f16 over 4 warps of 16 lanes: 128 elements a lane, 2 bytes each, no scatter
    e = estimate_text(epilogue("#mma"))
    assert e is not None and (e.stored_2d, e.scatters) == (256, 0)
    assert "~256 B/lane written by 2D block stores" in str(e)


@pytest.mark.parametrize("layout, block_pointer", [("#blocked", True), ("#mma", False), ("#blocked", False)])
def test_stores_not_written_by_2d_block_messages_count_nothing(layout: str, block_pointer: bool) -> None:
    # after the conversion to a blocked layout (native's epilogue), or through a tensor of pointers:
    # scatters, not a tile held for 2D block writes
    e = estimate_text(epilogue(layout, block_pointer))
    assert e is not None and e.stored_2d == 0 and e.scatters > 0
    assert "2D block stores" not in str(e)


def test_it_judges_nothing() -> None:
    # ours holding the tile for 2D block writes where native converts it is not a loss, nor the reverse
    ours, native = Estimate(66, 1, stored_2d=256), Estimate(66, 17)
    assert ours.losses(native) == [] and native.losses(ours) == ["scatters 17 > 1 (estimated)"]
