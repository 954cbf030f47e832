"""Ops with a body verified once per signature (frontend/verifier.py's _BODY_BLIND) report
exactly what a full verification reports."""

from __future__ import annotations

import pytest

from xpu_passes.dialects import make_context
from xpu_passes.dialects.tt import ReduceOp
from xpu_passes.frontend import TTGIRError, parse_module, verifier

_MODULE = """#blocked = #ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}}>
module attributes {{"ttg.num-warps" = {warps} : i32, "ttg.threads-per-warp" = 16 : i32}} {{
  tt.func @k(%x: tensor<4x16xf32, #blocked>) -> {out} {{
    %r = "tt.reduce"(%x) <{{axis = 1 : i32}}> ({{
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }}) : (tensor<4x16xf32, #blocked>) -> {out}
    tt.return %r : {out}
  }}
}}
"""
_SLICE = "tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>"
_GOOD = _MODULE.format(warps=4, out=_SLICE)
_BAD = [
    _MODULE.format(warps=8, out=_SLICE),  # same signature, another context: the layout's warps
    _MODULE.format(warps=4, out="tensor<4xf32, #blocked>"),  # not the inferred result
]


def _error(text: str, body_blind: bool = True) -> str | None:
    """The parser's verification error (`body_blind=False`: every tt.reduce verified, none keyed)."""
    try:
        parsed = parse_module(make_context(), text, "t.mlir", verify=body_blind)
        if not body_blind:
            verifier.verify_module(parsed, body_blind=False)
    except TTGIRError as e:
        return str(e)
    return None


def _reduce_verifications(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = ReduceOp.verify

    def counting(self: ReduceOp, verify_nested_ops: bool = True) -> None:
        calls.append(1)
        original(self, verify_nested_ops)

    monkeypatch.setattr(ReduceOp, "verify", counting)
    return calls


def test_a_reduce_is_verified_once_per_signature(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _reduce_verifications(monkeypatch)
    verifier.VERIFIED.clear()
    assert _error(_GOOD) is None and _error(_GOOD) is None
    assert len(calls) == 1
    assert _error(_GOOD, body_blind=False) is None
    assert len(calls) == 2, "without the key: verified each time"


@pytest.mark.parametrize("bad", _BAD)
def test_a_bad_reduce_after_a_good_one_reports_what_full_verification_reports(bad: str) -> None:
    verifier.VERIFIED.clear()
    assert _error(_GOOD) is None  # its signature remembered
    keyed = _error(bad)
    assert keyed is not None and "'tt.reduce' op" in keyed
    assert _error(bad) == keyed  # (not remembered as verified)
    verifier.VERIFIED.clear()
    assert _error(bad, body_blind=False) == keyed
