"""A final TTGIR print a guard parsed to judge it is handed to the round trip that reads it next (the passes
after the stage comparison) instead of being parsed again (integration/parsed_prints.py): within a compile's
scope only, taken once, and the compile's TTGIR is what parsing again gives."""

from __future__ import annotations

import pytest

from xpu_passes.integration import oracle, parsed_prints

from support import compile_timed  # noqa: E402  (tests/python/support.py)

needs_triton = pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")

TEXT = """module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>) {
    tt.return
  }
}
"""


def test_a_parse_is_offered_within_a_scope_and_taken_once() -> None:
    with parsed_prints.scope():
        parsed = parsed_prints.parse(TEXT)
        assert parsed_prints.take(TEXT + " ") is None  # (another print: not this module)
        taken = parsed_prints.take(TEXT)
        assert taken is not None and taken[1] is parsed
        assert parsed_prints.take(TEXT) is None  # (the taker's to change: no longer offered)
        parsed_prints.parse(TEXT)
    with parsed_prints.scope():  # a new compile: nothing of the last one's
        assert parsed_prints.take(TEXT) is None


def test_no_scope_keeps_nothing() -> None:
    parsed_prints.parse(TEXT)
    assert parsed_prints.take(TEXT) is None


@needs_triton
def test_the_passes_after_the_comparison_take_the_judged_print(monkeypatch: pytest.MonkeyPatch) -> None:
    """gemm_add_block_ptr: the judge estimates both final TTGIRs, ours is kept and ReduceVariableLiveness'
    round trip reads it: the judge's module, not a second parse, and the same TTGIR as with a parse."""
    kernel = ("gemm_add_block_ptr", "256x256x32-w32-s3")
    taken, times = compile_timed("xpu", kernel, monkeypatch)
    assert times.get("guard_parses_taken") == 1
    monkeypatch.setattr(parsed_prints, "take", lambda text: None)
    parsed, times_parsed = compile_timed("xpu", kernel, monkeypatch)
    assert times_parsed.get("guard_parses_taken") is None and times["ops"] < times_parsed["ops"]
    assert taken == parsed
