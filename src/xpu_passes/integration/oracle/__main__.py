"""`python -m xpu_passes.integration.oracle verify [FILE|-] [--split-input-file]`.

Parses and verifies with triton-xpu and prints its print of the module (locations
included); exits 1 with triton's diagnostic if it rejects the input. Used by lit
tests to check that what xpu-opt prints is IR the real compiler accepts.
"""

from __future__ import annotations

import argparse
import re
import sys

from xpu_passes.integration import oracle


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("verify", help="parse+verify with triton-xpu and print its output")
    v.add_argument("input", nargs="?", default="-")
    v.add_argument("--split-input-file", action="store_true")
    args = ap.parse_args()
    text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    chunks = re.split(r"^// -----.*$\n?", text, flags=re.MULTILINE) if args.split_input_file else [text]
    status = 0
    outputs = []
    for i, chunk in enumerate(chunks):
        try:
            outputs.append(oracle.parse_verify(chunk))
        except oracle.OracleError as e:
            print(f"triton-xpu rejected chunk {i}: {e}", file=sys.stderr)
            status = 1
        except oracle.OracleUnavailable as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    sys.stdout.write("// -----\n".join(outputs))
    return status


if __name__ == "__main__":
    sys.exit(main())
