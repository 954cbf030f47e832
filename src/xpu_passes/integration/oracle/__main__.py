"""`python -m xpu_passes.integration.oracle verify|lower [FILE|-] [--split-input-file]`.

`verify` parses and verifies with triton-xpu and prints its print of the module (locations
included); exits 1 with triton's diagnostic if it rejects the input. Used by lit
tests to check that what xpu-opt prints is IR the real compiler accepts. `lower` also
lowers each module to LLVM IR for PVC (the module's warps and threads per warp) and prints
its figures: lit tests check that triton-xpu's lowering takes what xpu-opt prints (some of
its conversion patterns abort on IR its verifiers accept).
"""

from __future__ import annotations

import argparse
import re
import sys

from xpu_passes.integration import oracle


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name, what in (("verify", "parse+verify with triton-xpu and print its output"),
                       ("lower", "parse, verify and lower to LLVM IR for PVC; print the figures")):
        v = sub.add_parser(name, help=what)
        v.add_argument("input", nargs="?", default="-")
        v.add_argument("--split-input-file", action="store_true")
    args = ap.parse_args()
    text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    chunks = re.split(r"^// -----.*$\n?", text, flags=re.MULTILINE) if args.split_input_file else [text]
    status = 0
    outputs = []
    for i, chunk in enumerate(chunks):
        try:
            outputs.append(_lowered(chunk) if args.cmd == "lower" else oracle.parse_verify(chunk))
        except oracle.OracleError as e:
            print(f"triton-xpu rejected chunk {i}: {e}", file=sys.stderr)
            status = 1
        except oracle.OracleUnavailable as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    sys.stdout.write("// -----\n".join(outputs))
    return status


def _lowered(text: str) -> str:
    mod = oracle.parse(text)
    warps = re.search(r'"ttg.num-warps" = (\d+)', text)
    threads = re.search(r'"ttg.threads-per-warp" = (\d+)', text)
    backend = oracle.pvc_backend()
    opts = backend.parse_options({"num_warps": int(warps[1]) if warps else 4,
                                  "threads_per_warp": int(threads[1]) if threads else 16})
    f = oracle.lower(mod, opts, backend)
    return (f"lowered: dpas {f.dpas}, 2D block reads {f.block_reads}, 2D block writes {f.block_writes}, "
            f"SLM {f.shared_bytes}\n")


if __name__ == "__main__":
    sys.exit(main())
