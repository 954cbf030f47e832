"""Our RaiseBlockPointer at TTIR, then triton-xpu 3.3's whole TTGIR stage and lowering, vs native.

For every corpus kernel/config that reads or writes through tensors of pointers, the
TTIR the native TTGIR stage starts from goes through our raising pass first (no
other change), then through triton-xpu's TTGIR passes and its LLVM lowering for PVC
(no GPU needed). Prints SLM bytes (`!` = over PVC's 128 KB), conversions, 2D block
reads and DPAS calls, native / raised, and how many accesses were raised or left
alone (with the remarks' reasons, `-v`). Exits 1 if raising loses a 2D read or DPAS
call or needs more SLM anywhere.

    python benchmarks/raise_block_pointer.py [-v]
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from pathlib import Path

from xpu_passes import oracle
from xpu_passes.corpus import entries, resume_native
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.transforms import REMARKS, load_all
from xpu_passes.transforms.raise_block_pointer import RaiseBlockPointer

TENSOR_OF_PTR = re.compile(r"tt\.(load|store) .*: tensor<[^>]*!tt\.ptr")


def raised_figures(entry: dict) -> tuple[oracle.StaticFigures, int, list[str], float]:
    """(figures after raising, block pointers added, remarks, pass ms) for one corpus entry."""
    step = next(s["file"] for s in entry["steps"] if s["step"] == "ttgir.input")
    text = (Path(entry["dir"]) / step).read_text()
    ctx = make_context()
    parsed = parse_module(ctx, text, step)
    REMARKS.enabled = True
    t = time.perf_counter()
    RaiseBlockPointer().apply(ctx, parsed.module)
    ms = (time.perf_counter() - t) * 1e3
    remarks = [r.message for r in REMARKS.drain()]
    REMARKS.enabled = False
    out = print_module(parsed.module, parsed.spelling, debuginfo=True)
    added = out.count("tt.make_tensor_ptr") - text.count("tt.make_tensor_ptr")
    return resume_native(entry, step, out), added, remarks, ms


def main(verbose: bool = False) -> int:
    worse = 0
    print(f"{'kernel-config':36} {'SLM native':>11} {'SLM raised':>11} {'cvt n/r':>8} {'2D reads n/r':>13} "
          f"{'DPAS n/r':>9} {'raised':>7} {'left':>5} {'ms':>5}")
    for e in entries():
        step = next(s["file"] for s in e["steps"] if s["step"] == "ttgir.input")
        if not TENSOR_OF_PTR.search((Path(e["dir"]) / step).read_text()):
            continue
        n = e["figures"]
        o, added, remarks, ms = raised_figures(e)
        bad = o.shared_bytes > n["shared_bytes"] or o.block_reads < n["block_reads"] or o.dpas < n["dpas"]
        worse += bad

        def slm(b: int) -> str:
            return f"{b:,}{'!' if b > 128 * 1024 else ''}"

        print(f"{e['kernel'] + '-' + e['config']:36} {slm(n['shared_bytes']):>11} {slm(o.shared_bytes):>11} "
              f"{n['converts']:>3}/{o.converts:<4} {n['block_reads']:>6}/{o.block_reads:<6} {n['dpas']:>4}/{o.dpas:<4} "
              f"{added:>7} {sum(r.startswith('left alone') for r in remarks):>5} {ms:5.0f}{'  WORSE' if bad else ''}")
        if verbose:
            for why, k in Counter(remarks).items():
                print(f"    {k} x {why}")
    print("(! = over PVC's 128 KB of SLM: fails at launch; raised = block pointers made; left = accesses left "
          "alone, incl. the original copy of a versioned loop nest)")
    return 1 if worse else 0


if __name__ == "__main__":
    load_all()
    sys.exit(main("-v" in sys.argv[1:]))
