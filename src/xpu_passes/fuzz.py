"""Mutation fuzzing of the front end and every pass on real TTGIR.

`mutate` makes one seeded edit of a dump (token edits, dropped or duplicated
lines, wrong element types, unknown ops/attributes, truncation); `classify` runs
the front end and every registered pass on the result and names the outcome.
Acceptable outcomes are a located `error:` or output triton-xpu reads; anything
else (a traceback, an unlocated error, output triton-xpu rejects) is a bug.
Used by tests/python/test_fuzz_frontend.py (small budget) and
benchmarks/fuzz_frontend.py (long runs, with hang detection).
"""

from __future__ import annotations

import random
import re
import traceback
from pathlib import Path

from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module, print_module, verify_module
from xpu_passes.transforms import PASSES, PassError, load_all

TOKENS = ["tt.load", "f32", "i64", "#blocked", "%0", "[", "]", "{", "}", ",", ":", "->", "loc(", "#loc3", "0x", '"']

LOCATED = "located error"
ACCEPTED = "output accepted by triton-xpu"
REJECTED = "output rejected by triton-xpu"
UNLOCATED = "unlocated error"
TRACEBACK = "traceback"
HANG = "hang"
BAD = (REJECTED, UNLOCATED, TRACEBACK, HANG)


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    kind = rng.randrange(6)
    i = rng.randrange(len(lines))
    if kind == 0:  # drop a line
        del lines[i]
    elif kind == 1:  # truncate
        return text[: rng.randrange(len(text))]
    elif kind == 2:  # replace a token
        words = re.split(r"(\s+)", lines[i])
        j = rng.randrange(len(words))
        words[j] = rng.choice(TOKENS)
        lines[i] = "".join(words)
    elif kind == 3:  # wrong element type
        lines[i] = lines[i].replace("f32", "i8", 1).replace("bf16", "f64", 1)
    elif kind == 4:  # unknown op / attribute
        lines[i] = lines[i].replace("tt.", "tt.bogus_", 1).replace("boundaryCheck", "bogusCheck", 1)
    else:  # duplicate a line (redefinitions)
        lines.insert(i, lines[i])
    return "".join(lines)


# The order our pipeline runs them in (a 2D block layout must be legalized for triton-xpu 3.3 to read it).
_ORDER = ("raise-block-pointer", "materialize-block-pointer", "rewrite-tensor-pointer", "optimize-block-io-encoding",
          "remove-layout-conversions", "legalize-block-io-encoding")


def _rank(name: str) -> tuple[int, str]:
    return next((i for i, n in enumerate(_ORDER) if name.endswith(n)), len(_ORDER)), name


def run_all_passes(text: str) -> str:
    """Parse, run every registered pass (in pipeline order), verify and print; TTGIRError on bad input."""
    load_all()
    ctx = make_context()
    parsed = parse_module(ctx, text, "fuzz")
    for name in sorted(PASSES, key=_rank):
        try:
            PASSES[name]()().apply(ctx, parsed.module)
        except PassError as e:
            raise parsed.error_at(e.op, e.message) from None
    verify_module(parsed)
    return print_module(parsed.module, parsed.spelling, debuginfo=True)


def corpus_ttgir_files(step: int = 7) -> list[Path]:
    """Every `step`-th distinct TTGIR dump of the corpus (builds the corpus if missing)."""
    from xpu_passes.corpus import corpus_dump_files

    return [p for p in corpus_dump_files() if "ttgir" in p.name][::step]


def case(files: list[Path], seed: int, n: int) -> tuple[Path, str]:
    """The n-th input of a run: reproducible from (seed, n) alone."""
    rng = random.Random(seed * 1_000_003 + n)
    path = rng.choice(files)
    return path, mutate(path.read_text(), rng)


def classify(text: str, check_output: bool = True) -> tuple[str, str]:
    """(outcome, detail) of running every pass on `text`; never raises for bad input."""
    from xpu_passes.integration import oracle

    try:
        out = run_all_passes(text)
    except TTGIRError as e:
        if e.line >= 1 and e.col >= 1 and e.message:
            return LOCATED, str(e).splitlines()[0]
        return UNLOCATED, str(e)
    except Exception:  # noqa: BLE001 - exactly what the fuzzer hunts
        return TRACEBACK, traceback.format_exc(limit=6)
    if not check_output:
        return ACCEPTED, ""
    try:
        oracle.parse_verify(out)
    except oracle.OracleError as e:
        return REJECTED, str(e)[:500]
    return ACCEPTED, ""
