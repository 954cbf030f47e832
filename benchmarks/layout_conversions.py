"""Our RemoveLayoutConversions vs triton-xpu's, side by side, on every corpus kernel.

For each kernel/config, the TTGIR right before the native pipeline's last
RemoveLayoutConversions goes through ours instead, then through the rest of the
native pipeline and its lowering for PVC (no GPU needed). Prints SLM bytes (and
whether they fit PVC's 128 KB), conversions, 2D block reads and DPAS calls for
both. Exits 1 if ours is worse than native anywhere.

    python benchmarks/layout_conversions.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from xpu_passes.corpus import entries, resume_native
from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module, print_module
from xpu_passes.transforms.remove_layout_conversions import RemoveLayoutConversions

STEP = "ttgir.tritonintelgpu-remove-layout-conversions"


def main() -> int:
    worse = 0
    print(f"{'kernel-config':42} {'SLM native':>11} {'SLM ours':>9} {'cvt n/o':>8} {'2D reads n/o':>13} {'DPAS n/o':>9} {'ms':>6}")
    for e in entries():
        last = [s["file"] for s in e["steps"] if s["step"] == STEP][-1]
        t = time.perf_counter()
        ctx = make_context()
        parsed = parse_module(ctx, (Path(e["dir"]) / last).read_text())
        RemoveLayoutConversions().apply(ctx, parsed.module)
        text = print_module(parsed.module, parsed.spelling, debuginfo=True)
        ms = (time.perf_counter() - t) * 1e3
        n, o = e["figures"], resume_native(e, last, text)
        bad = (o.shared_bytes > n["shared_bytes"] or o.converts > n["converts"]
               or o.block_reads < n["block_reads"] or o.dpas < n["dpas"])
        worse += bad

        def slm(b: int) -> str:
            return f"{b}{'' if b <= 128 * 1024 else '!'}"

        print(f"{e['kernel'] + '-' + e['config']:42} {slm(n['shared_bytes']):>11} {slm(o.shared_bytes):>9} "
              f"{n['converts']:>3}/{o.converts:<4} {n['block_reads']:>6}/{o.block_reads:<6} {n['dpas']:>4}/{o.dpas:<4} "
              f"{ms:6.0f}{'  WORSE' if bad else ''}")
    print("(! = over PVC's 128 KB of SLM: fails at launch)")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
