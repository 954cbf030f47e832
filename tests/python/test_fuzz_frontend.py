"""Mutated real TTGIR never crashes xpu-opt: each input ends in output or a located error.

A fixed budget of mutations (token edits, dropped lines, wrong types, unknown ops
and attributes, truncation) of corpus dumps, through the front end and every pass.
Accepted outputs must be IR that triton-xpu reads. The budget is small for CI; the
mutations are seeded so a failure reproduces.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from xpu_passes import oracle
from xpu_passes.dialects import make_context
from xpu_passes.frontend import TTGIRError, parse_module, print_module, verify_module
from xpu_passes.transforms import PASSES, PassError, load_all

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]

BUDGET = int(__import__("os").environ.get("XPU_FUZZ_BUDGET", "150"))
TOKENS = ["tt.load", "f32", "i64", "#blocked", "%0", "[", "]", "{", "}", ",", ":", "->", "loc(", "#loc3", "0x", '"']


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


def run_all_passes(text: str) -> str:
    load_all()
    ctx = make_context()
    parsed = parse_module(ctx, text, "fuzz")
    for name in sorted(PASSES):
        try:
            PASSES[name]()().apply(ctx, parsed.module)
        except PassError as e:
            raise parsed.error_at(e.op, e.message) from None
    verify_module(parsed)
    return print_module(parsed.module, parsed.spelling, debuginfo=True)


def test_mutated_inputs_end_in_output_or_located_error() -> None:
    from xpu_passes.corpus import corpus_dump_files

    files = [p for p in corpus_dump_files() if "ttgir" in p.name][::7]
    rng = random.Random(20261122)
    outcomes: Counter[str] = Counter()
    for n in range(BUDGET):
        path: Path = rng.choice(files)
        text = mutate(path.read_text(), rng)
        try:
            out = run_all_passes(text)
        except TTGIRError as e:
            assert e.line >= 1 and e.col >= 1 and e.message, f"unlocated error for mutation {n}"
            outcomes["located error"] += 1
            continue
        try:
            oracle.parse_verify(out)
            outcomes["output accepted by triton-xpu"] += 1
        except oracle.OracleError as e:
            # Our verifier passed what triton rejects: record it, then fail below.
            outcomes["output rejected by triton-xpu"] += 1
            pytest.fail(f"mutation {n} of {path.name}: triton-xpu rejects our output: {str(e)[:300]}")
    print(dict(outcomes))
    assert outcomes["located error"] > 0 and sum(outcomes.values()) == BUDGET
