"""RemoveLayoutConversions' memory-message model beside IGC's figures, per corpus row.

    python benchmarks/isa_model.py [--set all|core|workloads] [--only KERNEL ...] [--pipelines native,xpu]

For each kernel/config and pipeline, the final TTGIR's tensor-of-pointer loads and stores are
priced by the layout algebra (xpu_passes.layouts.memory: elements per lane, vector width along
the layout's fastest dim, limited by the addresses' contiguity/alignment and the mask's
constancy; block-pointer accesses in layouts that are not 2D block ones too): the messages each
sub-group issues (`model g/s`: gathers / scatters, integration/isa_estimate's count, the guards'), and the
excess over the best layout for the same addresses (`excess`: what costs.memory_cost prices,
in lane-messages), and the register pressure estimate (costs.pressure_peak: the most bytes a
lane holds at one access, `peak`, and `est spill`: what it holds beyond the large GRF's 1 KB,
x16 lanes, per hardware thread as IGC counts spill bytes). Beside them, IGC's own static counts of gathers / scatters, spill bytes and
instructions (xpu_passes.integration.isa). Both counts are static (a loop body counts once);
IGC may split or merge messages, so the model is judged by how it moves between pipelines.
Needs triton-xpu and IGC's ocloc (tools/install-igc).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from xpu_passes.corpus import SETS  # noqa: E402
from xpu_passes.dialects import make_context, tt  # noqa: E402
from xpu_passes.frontend.parser import parse_module  # noqa: E402
from xpu_passes.integration import isa  # noqa: E402
from xpu_passes.integration.isa_estimate import estimate  # noqa: E402
from xpu_passes.transforms.remove_layout_conversions import costs  # noqa: E402


def model(ttgir: str) -> tuple[int, int, int, int, int]:
    """(gathers, scatters, excess lane-messages, peak bytes per lane, estimated spill bytes per
    thread) the model gives the final TTGIR's accesses."""
    module = parse_module(make_context(allow_unregistered=True), ttgir, "ttgir", verify=False).module
    e = estimate(module)  # (the guards' own count: one source)
    facts = costs.facts_of(module)
    excess = peak = spill = 0
    for op in module.walk():
        if not isinstance(op, tt.LoadOp | tt.StoreOp):
            continue
        excess += costs.memory_excess(op, facts)
        if (p := costs.pressure_peak(op, facts)) is not None:
            peak = max(peak, p[0])
            spill = max(spill, costs.pressure_excess(op, facts) * p[1])
    return e.gathers, e.scatters, excess, peak, spill


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", choices=sorted(SETS), default="all")
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--pipelines", default="native,xpu", help="comma-separated: native and/or plugin specs")
    args = ap.parse_args(argv)
    import corpus_compare as cc

    from xpu_passes.integration import plugin
    from xpu_passes.transforms import load_all

    load_all()
    cc.OCLOC = isa.ocloc_path()
    if cc.OCLOC is None:
        print(isa.MISSING)
        return 1
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="xpu-passes-isa-model-"))
    plugin.use_offline_pvc_target()
    print(f"{'kernel-config':44} {'pipeline':9} {'model g/s':>11} {'excess':>7} {'peak':>6} {'est spill':>9} {'IGC g/s':>11} {'spill B':>8} {'instrs':>7}")
    for spec in SETS[args.set]:
        if args.only and spec.name not in args.only:
            continue
        for config in spec.configs:
            for p in args.pipelines.split(","):
                r = cc.compile_once(spec, config, None if p == "native" else p)
                name = f"{spec.name}-{config.name}"
                if r.error or r.isa is None:
                    print(f"{name:44} {p:9} {'-':>11} {'-':>7} {'-':>6} {'-':>9} {'-':>11}  {(r.error or r.isa_error)[:60]}")
                    continue
                g, s, x, peak, spill = model(r.ttgir)
                i = r.isa
                print(f"{name:44} {p:9} {f'{g}/{s}':>11} {x:>7} {peak:>6} {spill:>9} {f'{i.gathers}/{i.scatters}':>11} "
                      f"{i.spill_bytes:>8} {i.instructions:>7}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
