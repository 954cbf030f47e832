"""Our SLM estimate for every `ttg.convert_layout` of the corpus vs triton-xpu's.

For each convert in each corpus kernel's final TTGIR: source and destination layout
kinds, shape and element type, our `convert_scratch_bytes`, what triton-xpu
allocates for that convert alone (a module holding just it, lowered by
make_llir), and the kernel's `ttg.shared` next to our `module_scratch_bytes`
(compared when conversions are the kernel's only SLM users). Exits 1 on any
mismatch.

    python benchmarks/convert_scratch.py
"""

from __future__ import annotations

import io
import sys
from typing import Any

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Attribute
from xdsl.printer import Printer

from xpu_passes.integration import oracle
from xpu_passes.corpus import entries
from xpu_passes.dialects import make_context, ttg, ttig
from xpu_passes.frontend import parse_module
from xpu_passes.layouts import convert_scratch_bytes, module_scratch_bytes

OTHER_SLM_USERS = ("ttg.local_alloc", "tt.reduce", "tt.scan", "tt.atomic_rmw", "tt.atomic_cas", "tt.histogram")


def kind(layout: Attribute) -> str:
    """A short name: blocked, dpas, A(dpas), slice0(blocked), linear, ..."""
    if isinstance(layout, ttg.DotOperandEncodingAttr):
        return f"{'AB'[layout.op_idx]}({kind(layout.parent)})"
    if isinstance(layout, ttg.SliceEncodingAttr):
        return f"slice{layout.dim}({kind(layout.parent)})"
    return getattr(layout, "name", type(layout).__name__).split(".")[-1]


def spell(a: Attribute) -> str:
    out = io.StringIO()
    Printer(stream=out).print_attribute(a)
    return out.getvalue().replace("#ttig.", "#triton_intel_gpu.")


def module_attr(module: ModuleOp, key: str, default: int) -> int:
    v = module.attributes.get(key)
    return v.value.data if isinstance(v, IntegerAttr) else default


def alone(src: TensorType, dst: TensorType, warps: int, threads: int) -> str:
    """A module that holds just this conversion, as triton-xpu 3.3 reads it."""
    t = "x".join(map(str, src.get_shape())) + "x" + str(src.element_type)
    zero = "0.0" if "f" in str(src.element_type) else "0"
    return (
        f"#src = {spell(src.encoding)}\n#dst = {spell(dst.encoding)}\n"
        f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "xpu", '
        f'"ttg.threads-per-warp" = {threads} : i32, triton_intel_gpu.min_sg_size = 16 : i32, '
        "triton_intel_gpu.support_dpas, triton_intel_gpu.support_sg_2d_block} {\n"
        "  tt.func public @k() {\n"
        f"    %c = arith.constant dense<{zero}> : tensor<{t}, #src>\n"
        f"    %d = ttg.convert_layout %c : tensor<{t}, #src> -> tensor<{t}, #dst>\n"
        "    tt.return\n  }\n}\n"
    )


def main() -> int:
    backend = oracle.pvc_backend()
    mismatches = 0
    print(f"{'kernel-config':38} {'convert':28} {'shape':>14} {'ours':>9} {'triton':>9}  "
          f"{'module ours/ttg.shared':>24}  verdict")
    for e in entries():
        path = e["dir"] / "final.ttgir"
        text = path.read_text()
        module = parse_module(make_context(), text, str(path)).module
        warps = module_attr(module, "ttg.num-warps", 4)
        threads = module_attr(module, "ttg.threads-per-warp", 16)
        converts = [op for op in module.walk() if isinstance(op, ttg.ConvertLayoutOp)]
        ours_mod, shared = module_scratch_bytes(module), int(e["figures"]["shared_bytes"])
        only_converts = not any(u in text for u in OTHER_SLM_USERS)
        mod_ok = ours_mod == shared if only_converts else ours_mod <= shared
        mod_col = f"{ours_mod}/{shared}{'' if only_converts else ' (+other)'}"
        name = f"{e['kernel']}-{e['config']}"
        if not converts:
            mismatches += not mod_ok
            print(f"{name:38} {'-':28} {'':>14} {'':>9} {'':>9}  {mod_col:>24}  {'equal' if mod_ok else 'DIFF'}")
            continue
        for op in converts:
            src, dst = op.src.type, op.result.type
            assert isinstance(src, TensorType) and isinstance(dst, TensorType)
            ours = convert_scratch_bytes(src, dst)
            opts: Any = backend.parse_options(dict(num_warps=warps))
            theirs = oracle.lower_text(alone(src, dst, warps, threads), opts, backend).shared_bytes
            ok = ours == theirs and mod_ok
            mismatches += not ok
            shape = "x".join(map(str, src.get_shape())) + f" {src.element_type}"
            print(f"{name:38} {kind(src.encoding) + ' -> ' + kind(dst.encoding):28} {shape:>14} {ours:>9} "
                  f"{theirs:>9}  {mod_col:>24}  {'equal' if ok else 'DIFF'}", flush=True)
    print(f"\n{mismatches} mismatch(es)")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
