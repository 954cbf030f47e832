"""How many chunks of Intel's lit files xpu-opt parses and prints back.

Reads a checkout of intel/intel-xpu-backend-for-triton (a work tree, or a bare git
directory read at HEAD: nothing is copied into this project) and, for every
`// -----` chunk of the MBP, RLC and dialect lit files, checks that the chunk
parses, prints, and that the print parses back to the same print. The invalid-IR
file is measured the other way: how many of its chunks we reject.

    python benchmarks/intel_lit_roundtrip.py CHECKOUT [-v]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module, print_module

# Which files count: the dialect, MaterializeBlockPointer, RemoveLayoutConversions.
GROUPS: dict[str, re.Pattern[str]] = {
    "dialect": re.compile(r"^test/TritonIntelGPU/tritonintelgpu\.mlir$"),
    "MBP": re.compile(r"^test/TritonIntelGPU/materialize-block-pointer[^/]*\.mlir$"),
    "RLC": re.compile(
        r"^test/TritonIntelGPU/(combine\.mlir|backward_combine_dpas_dot_layout\.mlir|RemoveLayoutConversions/.*\.mlir)$"
    ),
}
# Invalid IR: Intel's dialect tests, and Triton's TritonGPU ones (many need ops or
# layouts of other backends, or verifiers of passes we do not have).
INVALID = ("test/TritonIntelGPU/tritonintelgpu-invalid.mlir", "test/TritonGPU/invalid.mlir")
_SPLIT = re.compile(r"^// -----.*$\n?", re.MULTILINE)


class Checkout:
    """Files of a work tree or of a bare git directory at HEAD."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bare = not (root / "test").is_dir()

    def files(self) -> list[str]:
        if not self.bare:
            return sorted(str(p.relative_to(self.root)) for p in (self.root / "test").rglob("*.mlir"))
        out = subprocess.run(
            ["git", "--git-dir", str(self.root), "ls-tree", "-r", "--name-only", "HEAD", "test"],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        return sorted(out.split())

    def read(self, path: str) -> str:
        if not self.bare:
            return (self.root / path).read_text()
        return subprocess.run(
            ["git", "--git-dir", str(self.root), "show", f"HEAD:{path}"], check=True, capture_output=True, text=True
        ).stdout


def round_trips(chunk: str, unregistered: bool) -> str | None:
    """None if the chunk parses and its print is a fixed point, else why not."""
    try:
        first = parse_module(make_context(unregistered), chunk, "chunk")
        printed = print_module(first.module, first.spelling)
        again = parse_module(make_context(unregistered), printed, "printed")
        if print_module(again.module, again.spelling) != printed:
            return "print is not a fixed point"
    except TTGIRError as e:
        return str(e).splitlines()[0]
    except Exception as e:  # a crash is a finding, not the end of the measurement
        return f"crash: {type(e).__name__}: {e}"
    return None


def rejection(chunk: str) -> str | None:
    """Our located error for an invalid chunk, or None if we accept it (or crash)."""
    try:
        parse_module(make_context(True), chunk, "chunk")
    except TTGIRError as e:  # the whole message (MLIR's may span lines), and the errors after it
        return "\n".join((f"{e.file}:{e.line}:{e.col}: error: {e.message}", *e.more))
    except Exception:
        return None
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", type=Path, help="work tree or bare git dir of intel-xpu-backend-for-triton")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each failing chunk's reason")
    args = ap.parse_args(argv)
    co = Checkout(args.checkout)
    files = co.files()
    total_ok = total = 0
    for group, pattern in GROUPS.items():
        ok = n = 0
        for path in (f for f in files if pattern.match(f)):
            text = co.read(path)
            unregistered = "allow-unregistered-dialect" in "".join(re.findall(r"^// RUN:.*$", text, re.M))
            for i, chunk in enumerate(_SPLIT.split(text)):
                n += 1
                why = round_trips(chunk, unregistered)
                ok += why is None
                if why and args.verbose:
                    print(f"  {path} #{i}: {why}")
        print(f"{group:8s} {ok:4d} / {n:4d}")
        total_ok, total = total_ok + ok, total + n
    print(f"{'all':8s} {total_ok:4d} / {total:4d} chunks parse and print back")
    for path in (p for p in INVALID if p in files):
        # Only chunks that expect a diagnostic (the first one holds just the RUN line).
        chunks = [c for c in _SPLIT.split(co.read(path)) if "expected-error" in c]
        got = [rejection(c) for c in chunks]
        wanted = [m[1] if (m := re.search(r"expected-error[^{]*\{\{(.*?)\}\}", c)) else "" for c in chunks]
        same = sum(1 for g, w in zip(got, wanted) if g is not None and w in g)
        print(f"{path}: {sum(g is not None for g in got)} / {len(chunks)} invalid chunks rejected with a "
              f"located error, {same} with triton's message")
        if args.verbose:
            for i, (g, w) in enumerate(zip(got, wanted)):
                if g is None or w not in g:
                    print(f"  invalid #{i}: expected {w!r}, got {g!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
