"""triton-xpu's view of a layout, for the layout algebra's tests: a module converting between two
layouts, the SLM triton-xpu allocates for it and its LLVM IR, each run in a child process."""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from xdsl.ir import Attribute

from xpu_passes.integration import oracle

from layouts.layout_attrs import spell

needs_triton = pytest.mark.skipif(not oracle.available(), reason="triton-xpu not installed")


def forked(fn: Callable[[], Any]) -> tuple[str, Any]:
    """Run `fn` in a child: triton-xpu aborts the process on some layouts it cannot lower."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        os.close(r)
        try:
            res: tuple[str, Any] = ("ok", fn())
        except Exception as e:  # noqa: BLE001 - reported to the parent
            res = ("error", str(e)[:300])
        os.write(w, pickle.dumps(res))
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 1 << 20):
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return pickle.loads(data) if data else ("crash", None)


HEADER = (
    'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {w} : i32, ttg.target = "xpu", '
    '"ttg.threads-per-warp" = 16 : i32, triton_intel_gpu.min_sg_size = 16 : i32, triton_intel_gpu.support_dpas, '
    "triton_intel_gpu.support_sg_2d_block}} {{\n"
)


def convert_module(src: Attribute, dst: Attribute, shape: Sequence[int], warps: int, elem: str) -> str:
    t = "x".join(map(str, shape)) + "x" + elem
    zero = "0.0" if elem.startswith(("f", "bf")) else "0"
    return (
        f"#src = {spell(src)}\n#dst = {spell(dst)}\n" + HEADER.format(w=warps) + "  tt.func public @k() {\n"
        f"    %c = arith.constant dense<{zero}> : tensor<{t}, #src>\n"
        f"    %d = ttg.convert_layout %c : tensor<{t}, #src> -> tensor<{t}, #dst>\n"
        "    tt.return\n  }\n}\n"
    )


def triton_scratch(text: str) -> int:
    """What make_llir's first passes give: decompose conversions, then allocate SLM."""
    from triton._C.libtriton import intel, ir, passes

    mod = oracle.parse(text)
    pm = ir.pass_manager(mod.context)
    intel.passes.ttgpuir.add_decompose_unsupported_conversions(pm)
    passes.ttgpuir.add_allocate_shared_memory(pm)
    pm.run(mod)
    return int(mod.get_int_attr("ttg.shared") or 0)


def triton_llir(text: str, warps: int) -> tuple[int, str]:
    backend = oracle.pvc_backend()
    opts = backend.parse_options(dict(num_warps=warps))
    md: dict[str, Any] = {}
    llir = backend.make_llir(oracle.parse(text), md, opts)
    return int(md.get("shared") or 0), llir
