"""Intel's RemoveLayoutConversions lit chunks: ours vs triton-xpu's own pass, chunk by chunk.

    python benchmarks/intel_rlc_chunks.py /work/.mirror/intel+intel-xpu-backend-for-triton/repo --ref v3.3.0b1
    python benchmarks/intel_rlc_chunks.py /work/.mirror/intel+intel-xpu-backend-for-triton/repo --ref HEAD

Reads (`git show`, nothing copied into this project) every file under test/TritonIntelGPU whose
RUN line runs -tritonintelgpu-remove-layout-conversions. Each `// -----` chunk runs through
xpu-opt twice on the same input: `-native-tritonintelgpu-remove-layout-conversions` (the
triton-xpu wheel's pass) and ours with `never-worse-than-native=false` (ours is measured, not the
guard). Passes the RUN line runs before RemoveLayoutConversions run natively first, on both.
A chunk triton-xpu 3.3 does not read or run (a newer op, a pass 3.3 does not have) is listed as
excluded with the reason. RUN-line options of the pass are not passed: 3.3's pass has none, and
ours runs with its defaults.

Per chunk: conversions (`ttg.convert_layout` ops) before / native / ours, SLM bytes of the
largest scratch and the loop-weighted cost (RemoveLayoutConversions' own figures) of both
outputs, and whether triton-xpu parses and verifies ours' output. Exits 1 if ours leaves more
conversions than native on any chunk, fails where native does not, or writes IR triton-xpu
rejects.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import csv
import io
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from intel_lit import chunks, git  # noqa: E402  (the same files, split the same way)

RLC = "tritonintelgpu-remove-layout-conversions"
OURS = f"-{RLC}=never-worse-than-native=false"
_RUN = re.compile(r"^\s*//\s*RUN:(.*)$", re.MULTILINE)
_PASS = re.compile(r"(?:^|\s)--?([a-z][\w-]*)(?:=('[^']*'|\"[^\"]*\"|\S+))?")
_DRIVER_FLAGS = {"split-input-file", "allow-unregistered-dialect", "verify-diagnostics", "mlir-print-debuginfo"}


@dataclass
class Row:
    file: str
    chunk: int
    line: int
    before: int = -1
    native: int = -1
    ours: int = -1
    native_slm: int = 0
    ours_slm: int = 0
    native_cost: int = 0
    ours_cost: int = 0
    accepted: bool = False
    why: str = ""  # excluded (triton-xpu does not run it) or ours failed
    excluded: bool = False


def prefix_passes(text: str) -> list[str] | None:
    """The passes the first RUN line running RLC runs before it (flags for xpu-opt's native
    passes), or None when no RUN line runs RLC."""
    for m in _RUN.finditer(text):
        run = m.group(1).split("|")[0]
        if RLC not in run or "triton-opt" not in run:
            continue
        passes = [p for p, _ in _PASS.findall(run.split("triton-opt", 1)[1]) if p not in _DRIVER_FLAGS]
        return [f"-native-{p}" for p in passes[: passes.index(RLC)]]
    return None


def xpu_opt(text: str, flags: list[str], tmp: str) -> tuple[str | None, str]:
    """(output, first error) of xpu-opt on one chunk, in process (native passes run in a forked child)."""
    from xpu_passes.driver import cli

    src, dst = os.path.join(tmp, "chunk.mlir"), os.path.join(tmp, "out.mlir")
    Path(src).write_text(text)
    if os.path.exists(dst):
        os.unlink(dst)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            code = cli.run([src, *flags, "--spelling", "triton-3.3", "-o", dst])
        except Exception as e:  # noqa: BLE001 - a usage error or a crash of ours: the row says which
            code, _ = 1, err.write(f"error: {type(e).__name__}: {e}\n")
    if code != 0 or not os.path.exists(dst):
        lines = [ln for ln in err.getvalue().splitlines() if "error" in ln] or err.getvalue().splitlines() or ["?"]
        return None, lines[0].split("error:", 1)[-1].strip()[:150]
    return Path(dst).read_text(), ""


def measure(text: str) -> tuple[int, int, int, str]:
    """(conversions, SLM bytes, loop-weighted cost, another backend's layout it holds or '') of a module's text."""
    from xpu_passes.dialects import make_context, ttg
    from xpu_passes.frontend import parse_module
    from xpu_passes.transforms.base import foreign_layout_use
    from xpu_passes.transforms.remove_layout_conversions.solution import figures

    module = parse_module(make_context(allow_unregistered=True), text, "<chunk>", verify=False).module
    foreign = foreign_layout_use(module, modelled=True)  # (ours reads NVIDIA's Ampere MMA: layouts.encodings)
    f = figures(module)  # (its `converts` leaves out conversions it does not cost: all are counted here)
    return sum(type(op) is ttg.ConvertLayoutOp for op in module.walk()), f.slm, f.cost, foreign[1] if foreign else ""


def accepted(text: str) -> str:
    """'' if triton-xpu parses and verifies `text`, else its first diagnostic."""
    from xpu_passes.integration import oracle

    try:
        oracle.parse(text)
    except oracle.OracleError as e:
        return str(e).strip().splitlines()[0][:150]
    return ""


def run_chunk(f: str, ci: int, chunk: str, offset: int, prefix: list[str], tmp: str) -> Row:
    row = Row(f, ci, offset + 1)
    text = "\n" * offset + chunk
    flags = ["--allow-unregistered-dialect"]
    if prefix:
        before, why = xpu_opt(text, flags + prefix, tmp)
        if before is None:
            row.excluded, row.why = True, f"triton-xpu 3.3: {why}"
            return row
    else:
        before = text
    native, why = xpu_opt(before, flags + [f"-native-{RLC}"], tmp)
    if native is None:
        row.excluded, row.why = True, f"triton-xpu 3.3: {why}"
        return row
    row.before, _, _, foreign = measure(before)
    row.native, row.native_slm, row.native_cost, _ = measure(native)
    ours, why = xpu_opt(before, flags + [OURS], tmp)
    if ours is None:
        row.why = f"ours failed: {why}"
        return row
    row.ours, row.ours_slm, row.ours_cost, _ = measure(ours)
    rejected = accepted(ours)
    row.accepted, row.why = not rejected, (f"triton-xpu rejects ours: {rejected}" if rejected else "")
    if foreign and not rejected:  # (our passes leave such modules alone: transforms/base.py)
        row.why = f"holds {foreign}, another backend's layout: ours leaves the module alone"
    return row


def verdict(r: Row) -> str:
    if r.excluded:
        return "excluded"
    if r.ours < 0 or not r.accepted:
        return "FAIL"
    return "MORE" if r.ours > r.native else "fewer" if r.ours < r.native else "equal"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repo", help="git dir of intel/intel-xpu-backend-for-triton")
    ap.add_argument("--ref", default="v3.3.0b1", help="tag or commit (default v3.3.0b1; HEAD = Intel main)")
    ap.add_argument("--filter", default="", help="only files whose path contains this")
    ap.add_argument("--chunk", type=int, default=-1, help="only this chunk (0-based) of each file")
    ap.add_argument("--csv", default="", help="write one row per chunk here")
    ap.add_argument("--markdown", action="store_true", help="also print the per-file table as markdown")
    args = ap.parse_args()
    files = [f for f in git(args.repo, "ls-tree", "-r", "--name-only", args.ref, "test/TritonIntelGPU").split()
             if f.endswith(".mlir") and args.filter in f]
    rows: list[Row] = []
    print(f"{'file#chunk (line)':58} {'before':>6} {'native':>6} {'ours':>5} {'SLM n/o':>11} {'cost n/o':>15}  verdict")
    with tempfile.TemporaryDirectory(prefix="intel-rlc-") as tmp:
        for f in files:
            text = git(args.repo, "show", f"{args.ref}:{f}")
            prefix = prefix_passes(text)
            if prefix is None:
                continue
            split = "split-input-file" in text.split("\n", 3)[0] or any(
                "split-input-file" in m.group(1) for m in _RUN.finditer(text))
            for ci, (chunk, offset) in enumerate(chunks(text) if split else [(text, 0)]):
                if args.chunk >= 0 and ci != args.chunk:
                    continue
                r = run_chunk(f, ci, chunk, offset, prefix, tmp)
                rows.append(r)
                name = f"{f.split('TritonIntelGPU/', 1)[1]}#{ci} ({r.line})"
                figs = (f"{r.before:6} {r.native:6} {r.ours:5} {r.native_slm:>5}/{r.ours_slm:<5} "
                        f"{r.native_cost:>7}/{r.ours_cost:<7}" if not r.excluded else f"{'':54}")
                print(f"{name:58} {figs}  {verdict(r)} {r.why}", flush=True)
    return report(rows, args.csv, args.markdown)


def report(rows: list[Row], path: str, markdown: bool = False) -> int:
    by_file: dict[str, list[Row]] = collections.defaultdict(list)
    for r in rows:
        by_file[r.file].append(r)
    print(f"\n{'file':62} {'chunks':>6} {'excl':>4} {'fewer':>5} {'equal':>5} {'more':>4} {'fail':>4} "
          f"{'conv n/o':>9}")
    total: collections.Counter[str] = collections.Counter()
    for f, rs in by_file.items():
        c = collections.Counter(verdict(r) for r in rs)
        total += c
        n = sum(r.native for r in rs if verdict(r) != "excluded")
        o = sum(r.ours for r in rs if verdict(r) not in ("excluded", "FAIL"))
        print(f"{f.split('test/', 1)[1]:62} {len(rs):6} {c['excluded']:4} {c['fewer']:5} {c['equal']:5} "
              f"{c['MORE']:4} {c['FAIL']:4} {n:>4}/{o:<4}")
    print(f"{'total':62} {len(rows):6} {total['excluded']:4} {total['fewer']:5} {total['equal']:5} "
          f"{total['MORE']:4} {total['FAIL']:4}")
    for r in rows:
        if r.excluded:
            print(f"  excluded {r.file.split('TritonIntelGPU/', 1)[1]}#{r.chunk}: {r.why}")
    if markdown:
        print("\n| file | chunks | excluded | fewer | equal | more | conversions native / ours |\n|---|---:|---:|---:|---:|---:|---:|")
        for f, rs in by_file.items():
            c = collections.Counter(verdict(r) for r in rs)
            n = sum(r.native for r in rs if verdict(r) != "excluded")
            o = sum(r.ours for r in rs if verdict(r) not in ("excluded", "FAIL"))
            print(f"| `{f.split('test/', 1)[1]}` | {len(rs)} | {c['excluded']} | {c['fewer']} | {c['equal']} | "
                  f"{c['MORE']} | {n} / {o} |")
    if path:
        with open(path, "w", newline="") as out:
            w = csv.writer(out)
            w.writerow(["file", "chunk", "line", "before", "native", "ours", "native_slm", "ours_slm",
                        "native_cost", "ours_cost", "accepted", "verdict", "why"])
            for r in rows:
                w.writerow([r.file, r.chunk, r.line, r.before, r.native, r.ours, r.native_slm, r.ours_slm,
                            r.native_cost, r.ours_cost, r.accepted, verdict(r), r.why])
    return 1 if total["MORE"] or total["FAIL"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
