"""Triton's and Intel's invalid-IR lit files, chunk by chunk: does xpu-opt reject what triton does?

    python benchmarks/triton_invalid.py /work/.mirror/intel+intel-xpu-backend-for-triton/repo \
        [--ref v3.3.0b1] [--oracle] [-v]

Reads the files from a git directory of intel/intel-xpu-backend-for-triton (`git show`, nothing
is copied into this project). Their RUN line is `triton-opt -split-input-file -verify-diagnostics`:
each `// -----` chunk is parsed and verified as `xpu-opt -split-input-file -verify-diagnostics`
does it, and passes when every `expected-*` annotation is met and nothing else is reported.
Prints per file "chunks passing / total" and, with `-v`, each failing chunk and why. With
`--oracle`, each chunk is also run through triton-xpu 3.3 itself (the ground truth); chunks
triton-xpu cannot read (ops it does not have) are marked so.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

from xpu_passes.driver.cli import split_chunks
from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module
from xpu_passes.driver.verify_diagnostics import Diagnostic, check

FILES = (
    "test/Triton/invalid.mlir",
    "test/TritonGPU/invalid.mlir",
    "test/TritonGPU/invalid-attributes.mlir",
    "test/TritonIntelGPU/tritonintelgpu-invalid.mlir",
)


def git_show(repo: str, ref: str, path: str) -> str | None:
    p = subprocess.run(["git", "--git-dir", repo, "show", f"{ref}:{path}"], capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


def ours(chunk: str, offset: int, name: str) -> list[Diagnostic]:
    """What xpu-opt reports for one chunk (an internal error is a finding too)."""
    try:
        parse_module(make_context(True), chunk, name, offset)
    except TTGIRError as e:
        return ([Diagnostic(e.file, e.line, e.col, "error", m) for m in (e.message, *e.more)]
                + [Diagnostic(e.file, ln, col, "note", m) for ln, col, m in e.located_notes])
    except Exception as e:  # noqa: BLE001 - a crash is measured, not fatal
        return [Diagnostic(name, 0, 0, "error", f"internal error: {type(e).__name__}: {e}")]
    return []


def oracle(chunk: str, offset: int, name: str) -> list[Diagnostic]:
    """What triton-xpu 3.3 reports for the chunk, at the input's lines."""
    from xpu_passes.integration import oracle as o

    return [Diagnostic(name, ln, col, kind, msg) for ln, col, kind, msg in o.diagnostics("\n" * offset + chunk)]


def unknown_to_triton(diags: list[Diagnostic]) -> bool:
    return any(re.search(r"unregistered operation|does not reference a valid|unknown (attribute|type)|"
                         r"dialect .* not found|custom op .* is unknown", d.message) for d in diags)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repo", help="git dir of intel/intel-xpu-backend-for-triton")
    ap.add_argument("--ref", default="v3.3.0b1", help="tag or commit (default v3.3.0b1; HEAD: Intel main)")
    ap.add_argument("--oracle", action="store_true", help="also run each chunk through triton-xpu 3.3")
    ap.add_argument("--filter", default="", help="only files whose path contains this")
    ap.add_argument("-v", "--verbose", action="store_true", help="list each failing chunk and why")
    args = ap.parse_args(argv)
    total_ok = total = 0
    for path in (f for f in FILES if args.filter in f):
        text = git_show(args.repo, args.ref, path)
        if text is None:
            continue
        ok = n = 0
        failing: list[str] = []
        for i, (chunk, offset) in enumerate(split_chunks(text)):
            name = path.rsplit("/", 1)[1]
            n += 1
            problems = check(chunk, offset, name, ours(chunk, offset, name))
            ok += not problems
            if problems:
                tag = ""
                if args.oracle:
                    ref = oracle(chunk, offset, name)
                    tag = (" [triton-xpu 3.3 cannot read it]" if unknown_to_triton(ref)
                           else " [triton-xpu 3.3 passes it]" if not check(chunk, offset, name, ref)
                           else " [triton-xpu 3.3 fails it too]")
                failing.append(f"  #{i} (line {offset + 1}){tag}: " + "; ".join(p.message[:150] for p in problems))
        print(f"{path:50} {ok:3d} / {n:3d} chunks pass", flush=True)
        if args.verbose:
            print("\n".join(failing))
        total_ok, total = total_ok + ok, total + n
    print(f"{'all':50} {total_ok:3d} / {total:3d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
