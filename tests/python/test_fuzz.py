"""Mutated real TTGIR never crashes xpu-opt: each input ends in output or a located error.

A fixed budget of mutations (token edits, dropped lines, wrong types, unknown ops
and attributes, truncation) of corpus dumps, through the front end and every pass.
Accepted outputs must be IR that triton-xpu reads. The budget is small for CI; the
mutations are seeded so a failure reproduces.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from xpu_passes.integration import oracle
from xpu_passes.frontend import TTGIRError
from xpu_passes.fuzz import mutate, run_all_passes

pytestmark = [pytest.mark.triton, pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")]

BUDGET = int(__import__("os").environ.get("XPU_FUZZ_BUDGET", "1000"))  # about a minute in CI


def test_mutated_inputs_end_in_output_or_located_error() -> None:
    from xpu_passes.fuzz import corpus_ttgir_files

    files = corpus_ttgir_files()
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
