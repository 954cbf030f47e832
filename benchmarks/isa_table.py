"""IGC's ISA figures of a few GEMMs with epilogues, native and ours side by side (issue 28's table).

    python benchmarks/isa_table.py [--markdown F] [--ocloc PATH]

bf16, 256x256x32 tiles, 32 warps, 3 stages, large GRF, compiled for PVC on the CPU through
`triton.compile` with triton-xpu's pipeline, ours (`xpu`) and ours with raising, then by IGC
(`ocloc`, tools/install-igc). The tensor-of-pointer GEMM is compiled twice: with its strides
specialized as Triton's JIT does when they are multiples of 16, and with strides known only at
run time (no divisibility). Each row of ours is judged against native with
`xpu_passes.integration.isa.judge`. Exits 1 without ocloc.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Any

from xpu_passes.corpus import KernelSpec
from xpu_passes.integration import isa, oracle

AB = {"a_ptr": "bf16", "b_ptr": "bf16", "c_ptr": "fp32"}
# (label, kernel, pointer dtypes, strides divisible by 16)
CASES = [
    ("GEMM + add D through a masked tensor of pointers", "gemm_add_tensor_ptr", {**AB, "d_ptr": "fp32"}, True),
    ("GEMM, tensor-of-pointer A/B, strides specialized", "gemm_tensor_ptr", AB, True),
    ("same, strides known only at run time", "gemm_tensor_ptr", AB, False),
    ("GEMM + GELU epilogue, block pointers", "gemm_gelu", AB, True),
]
PIPELINES = {"native": None, "xpu:raise_block_pointer=false": "xpu:raise_block_pointer=false", "xpu": "xpu"}
TILE = {"BM": 256, "BN": 256, "BK": 32}
OPTIONS = dict(num_warps=32, num_stages=3, grf_mode="large")
COLUMNS = ("instructions", "spill_bytes", "block2d_loads", "block2d_prefetches", "block2d_stores", "gathers",
           "scatters", "slm_messages", "dpas")  # fmt: skip


def compile_case(kernel: str, dtypes: dict[str, str], strides16: bool, pipeline: str | None) -> Any:
    import triton
    from triton.compiler.compiler import ASTSource

    from xpu_passes import triton_plugin

    spec = KernelSpec(kernel, dtypes)
    attrs = spec.attrs()
    if not strides16:  # only the pointers keep their divisibility
        attrs = {k: v for k, v in attrs.items() if spec.fn.arg_names[k[0]] in dtypes}
    triton_plugin.disable()
    if pipeline is not None:
        name, opts = triton_plugin.parse_spec(pipeline)
        triton_plugin.enable(name, strict=True, **opts)
    try:
        src = ASTSource(spec.fn, spec.signature(), dict(TILE), attrs)
        return triton.compile(src, target=oracle.pvc_target(), options=dict(OPTIONS))
    finally:
        triton_plugin.disable()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--markdown", help="also write the table to this file")
    ap.add_argument("--ocloc", help="IGC's ocloc (default: on PATH, else tools/install-igc's)")
    args = ap.parse_args(argv)
    ocloc = isa.ocloc_path(args.ocloc)
    if ocloc is None:
        print(isa.MISSING)
        return 1
    from xpu_passes import triton_plugin
    from xpu_passes.transforms import load_all

    load_all()
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="xpu-passes-isa-table-")
    triton_plugin.use_offline_pvc_target()
    lines = ["| kernel | pipeline | SLM B | instrs | spill B | 2D loads | prefetches | 2D stores | gathers | scatters "
             "| SLM msgs | DPAS | vs native |", "|---|---|" + "---:|" * 10 + "---|"]  # fmt: skip
    print("\n".join(lines), flush=True)
    for label, kernel, dtypes, strides16 in CASES:
        native: tuple[isa.IsaFigures, int] | None = None
        for pipe, spec in PIPELINES.items():
            try:
                k = compile_case(kernel, dtypes, strides16, spec)
                figs, slm = isa.compile_spirv(*oracle.spirv(k), ocloc=ocloc), int(k.metadata.shared)
            except Exception as e:  # noqa: BLE001 - a failure is a row of the table
                line = f"| {label} | {pipe} | {type(e).__name__}: {str(e).splitlines()[0][:200]} |"
            else:
                if pipe == "native":
                    native, verdict = (figs, slm), ""
                elif native is None:
                    verdict = "native fails"
                else:
                    v, lost = isa.judge(native[0], figs, native[1], slm, int(k.metadata.num_warps))
                    verdict = v if v == "ok" else f"{v}: {'; '.join(lost)}"
                cells = [f"{slm:,}{' !' if slm > isa.SLM_LIMIT else ''}", *(f"{getattr(figs, c):,}" for c in COLUMNS)]
                line = f"| {label} | {pipe} | {' | '.join(cells)} | {verdict} |"
            lines.append(line)
            print(line, flush=True)
            label = "same"
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
