"""Where Intel main's newer TTGIR passes would act: their match conditions counted on TTGIR files.

    python benchmarks/intel_main_patterns.py DIR [DIR ...] [--grf 128|256] [--list PASS]

Reads every `*.ttgir` under the directories (e.g. `compile_time.py --cpu --set all --dump-ttgir DIR`,
final TTGIR of each kernel) and counts, per file, the ops each pass of Intel XPU Triton's main branch
(2026) would rewrite, with the pass's own conditions (third_party/intel/lib/TritonIntelGPUTransforms/):

- reduce-variable-liveness: a DPAS `tt.dot` in an `scf.for` whose A/B comes (through convert_layout)
  from a 2D block-io load outside the loop; `+thresholds`: the load's tensor >= 32 KB with >= 128
  elements on its minor dim and the loop body's live-in tensors > 32 KB (Intel's constants).
  (Main matches `tt.descriptor_load`; 3.3 prints block-pointer `tt.load`s: both are counted.)
- widen-load-store-encoding: module has `ttig.support_256b_load_store` (Xe3P only); `128b` counts the
  blocked loads/stores with 128 bits per thread on the fast axis it would widen there.
- optimize-reduction-locality: single-operand rank-2 `tt.reduce` on axis 1 of a `#ttig.dpas` tensor
  with executionSize == threadsPerWarp and repeatCount*repCluster[0] % threadsPerWarp == 0.
- annotate-cache-control: tensor `tt.load`s with no cache modifier or eviction policy whose result
  is not a dot operand of a DPAS parent (slices unwrapped), in a function without atomics
  (an upper bound: Intel also skips loads of arguments the function writes).
- hoist-layout-conversions: `ttg.convert_layout` to `#ttg.dot_op` directly in an `scf.for` body with
  its source defined outside the loop; `+budget`: live-in per-thread bytes + its own < 80% of the GRF
  budget (--grf: 4096 B for 128 registers, 8192 for 256).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from xpu_passes.dialects import make_context, ttg, ttig
from xpu_passes.frontend.parser import parse_module
from xpu_passes.layouts.encodings import LayoutError, elems_per_thread

RVL, WIDEN, RED, CACHE, HOIST = ("reduce-variable-liveness", "widen-load-store-encoding",
                                 "optimize-reduction-locality", "annotate-cache-control",
                                 "hoist-layout-conversions")  # fmt: skip
KEYS = [f"{RVL}", f"{RVL}+thresholds", f"{WIDEN}", f"{WIDEN}:128b", f"{RED}", f"{CACHE}", f"{HOIST}",
        f"{HOIST}+budget"]  # fmt: skip


def _bits(t: Attribute) -> int:
    et = t.element_type if isinstance(t, TensorType) else t
    w = getattr(et, "width", None) or getattr(et, "bitwidth", None)
    if isinstance(w, int):
        return w
    return getattr(getattr(w, "data", None), "__int__", lambda: 0)()


def _tensor_bytes(t: Attribute) -> int:
    if not isinstance(t, TensorType):
        return 0
    n = 1
    for d in t.get_shape():
        n *= d
    return n * _bits(t) // 8


def _per_thread_bytes(t: Attribute) -> int:
    if not isinstance(t, TensorType) or t.encoding is None:
        return 0
    try:
        return elems_per_thread(t.encoding, t.get_shape()) * _bits(t) // 8
    except (LayoutError, ValueError, KeyError, AttributeError):
        return 0


def _inside(op: Operation, loop: Operation) -> bool:
    p: Operation | None = op
    while p is not None:
        if p is loop:
            return True
        p = p.parent_op()
    return False


def _defined_outside(v: SSAValue, loop: Operation) -> bool:
    owner = v.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    return op is None or not _inside(op, loop)


def _live_in(loop: scf.ForOp) -> list[SSAValue]:
    """Values defined outside `loop` used inside its body (MLIR's live-in of the body block)."""
    seen: dict[int, SSAValue] = {}
    for op in loop.body.walk():
        for v in op.operands:
            if _defined_outside(v, loop):
                seen.setdefault(id(v), v)
    return list(seen.values())


def _through_converts(v: SSAValue) -> Operation | None:
    op = v.owner
    while isinstance(op, Operation) and op.name == "ttg.convert_layout":
        op = op.operands[0].owner
    return op if isinstance(op, Operation) else None


def _order(t: TensorType) -> list[int]:
    if isinstance(t.encoding, ttg.BlockedEncodingAttr):
        return list(t.encoding.order)
    return list(range(len(t.get_shape()) - 1, -1, -1))  # DPAS and dot operands: row-major


def rvl(loop: scf.ForOp) -> tuple[int, int]:
    dots = [op for op in loop.body.block.ops if op.name == "tt.dot"
            and isinstance(op.results[0].type, TensorType)
            and isinstance(op.results[0].type.encoding, ttig.DpasEncodingAttr)]  # fmt: skip
    found = passing = 0
    live = sum(_tensor_bytes(v.type) for v in _live_in(loop)) if dots else 0
    for dot in dots:
        for operand in dot.operands[:2]:
            load = _through_converts(operand)
            if load is None or load.name not in ("tt.load", "tt.descriptor_load") or _inside(load, loop):
                continue
            t = load.results[0].type
            if "ttig.block_io" not in load.attributes or not isinstance(t, TensorType) or len(t.get_shape()) != 2:
                continue
            found += 1
            minor = t.get_shape()[_order(t)[1]]
            passing += _tensor_bytes(t) >= 32768 and minor >= 128 and live > 32768
    return found, passing


def _blocked_128(op: Operation) -> bool:
    t = op.results[0].type if op.name == "tt.load" else op.operands[1].type
    if not isinstance(t, TensorType) or not isinstance(t.encoding, ttg.BlockedEncodingAttr):
        return False
    enc = t.encoding
    return enc.size_per_thread[enc.order[0]] * _bits(t) == 128


def reduction(op: Operation) -> bool:
    if len(op.operands) != 1 or not isinstance(t := op.operands[0].type, TensorType) or len(t.get_shape()) != 2:
        return False
    enc = t.encoding
    if not isinstance(enc, ttig.DpasEncodingAttr) or int(op.properties["axis"].value.data) != 1:
        return False
    tpw = enc.threads_per_warp
    return enc.execution_size == tpw and (enc.repeat_count * enc.rep_cluster[0]) % tpw == 0


def _dot_of_mma(enc: Attribute | None) -> bool:
    while isinstance(enc, ttg.SliceEncodingAttr):
        enc = enc.parent
    return isinstance(enc, ttg.DotOperandEncodingAttr) and isinstance(
        enc.parent, ttig.DpasEncodingAttr | ttig.Subgroup2DBlockEncodingAttr)


def cache_candidate(load: Operation) -> bool:
    t = load.results[0].type
    if not isinstance(t, TensorType) or "cache" in load.properties or "evict" in load.properties:
        return False
    return not _dot_of_mma(t.encoding)


def hoist(cvt: Operation, budget: int, hoisted: Counter[int]) -> tuple[bool, bool]:
    t = cvt.results[0].type
    loop = cvt.parent_op()
    if not isinstance(t, TensorType) or not isinstance(t.encoding, ttg.DotOperandEncodingAttr):
        return False, False
    if not isinstance(loop, scf.ForOp) or not _defined_outside(cvt.operands[0], loop):
        return False, False
    live = sum(_per_thread_bytes(v.type) for v in _live_in(loop))
    mine = _per_thread_bytes(t)
    if live + hoisted[id(loop)] + mine >= budget * 4 // 5:
        return True, False
    hoisted[id(loop)] += mine
    return True, True


def count(module: ModuleOp, grf_bytes: int) -> Counter[str]:
    c: Counter[str] = Counter()
    hoisted: Counter[int] = Counter()
    wide = "ttig.support_256b_load_store" in module.attributes
    atomics_in: set[int] = set()
    for op in module.walk():
        if op.name in ("tt.atomic_rmw", "tt.atomic_cas"):
            f = op
            while f is not None and f.name != "tt.func":
                f = f.parent_op()
            atomics_in.add(id(f))
    for op in module.walk():
        if isinstance(op, scf.ForOp):
            found, passing = rvl(op)
            c[RVL] += found
            c[f"{RVL}+thresholds"] += passing
        elif op.name in ("tt.load", "tt.store") and _blocked_128(op):
            c[f"{WIDEN}:128b"] += 1
            c[WIDEN] += wide
        elif op.name == "tt.reduce":
            c[RED] += reduction(op)
        elif op.name == "ttg.convert_layout":
            h, b = hoist(op, grf_bytes, hoisted)
            c[HOIST] += h
            c[f"{HOIST}+budget"] += b
        if op.name == "tt.load" and cache_candidate(op):
            f = op.parent_op()
            while f is not None and f.name != "tt.func":
                f = f.parent_op()
            c[CACHE] += id(f) not in atomics_in
    return c


def ttgir_files(dirs: list[str]) -> Iterator[Path]:
    for d in dirs:
        yield from sorted(Path(d).rglob("*.ttgir"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--grf", type=int, choices=(128, 256), default=256, help="GRF registers (hoist budget)")
    ap.add_argument("--list", metavar="KEY", help="list the files where KEY (a column) is not 0")
    args = ap.parse_args(argv)
    totals: Counter[str] = Counter()
    files: Counter[str] = Counter()
    failed = 0
    listed = []
    for path in ttgir_files(args.dirs):
        try:
            module = parse_module(make_context(), path.read_text(), str(path), verify=False).module
        except Exception as e:  # noqa: BLE001 - a file we cannot read is counted, not fatal
            failed += 1
            print(f"{path}: not read: {str(e).splitlines()[0][:160]}", file=sys.stderr)
            continue
        c = count(module, args.grf * 32)
        totals += c
        for k in KEYS:
            files[k] += c[k] > 0
        if args.list and c[args.list]:
            listed.append(f"{c[args.list]:4} {path.name}")
    n = sum(1 for _ in ttgir_files(args.dirs))
    print(f"{n} TTGIR files ({failed} not read), GRF {args.grf} registers")
    print(f"{'pass (condition)':44} {'ops':>6} {'files':>6}")
    for k in KEYS:
        print(f"{k:44} {totals[k]:6} {files[k]:6}")
    if listed:
        print(f"\n{args.list}:")
        print("\n".join(listed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
