"""dialects/traits.py: an inferred result layout and the op's own compare by where they place the
elements (Triton's isCompatibleReturnTypes), through the layout algebra the front end's verifier
hands to the dialects (traits.compare_placement_with)."""

from __future__ import annotations

import io

import pytest
from xdsl.ir import Attribute
from xdsl.printer import Printer

from xpu_passes.dialects import make_context, traits
from xpu_passes.dialects.ttg.infer_layout import trans_encoding
from xpu_passes.frontend import TTGIRError, parse_module
from xpu_passes.frontend.fast.memo import clear_shared
from xpu_passes.integration import oracle
from xpu_passes.layouts.encodings import from_linear, to_linear

OPERAND = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 4], warpsPerCTA = [2, 2], order = [1, 0]}>"


def _text(result_layout: str) -> str:
    """A tt.trans of a 32x16 tensor in OPERAND whose result has `result_layout`."""
    return f"""#blocked = {OPERAND}
#res = {result_layout}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32}} {{
  tt.func @f(%x: tensor<32x16xf16, #blocked>) {{
    %y = tt.trans %x {{order = array<i32: 1, 0>}} : tensor<32x16xf16, #blocked> -> tensor<16x32xf16, #res>
    tt.return
  }}
}}
"""


def _linear_text(layout: Attribute, shape: tuple[int, ...]) -> str:
    """`layout` spelled as the #ttg.linear that places a tensor of `shape` alike."""
    out = io.StringIO()
    Printer(stream=out).print_attribute(from_linear(to_linear(layout, shape)))
    return out.getvalue()


def _operand_layout() -> Attribute:
    parsed = parse_module(make_context(), _identity_text(), "operand.mlir")
    func = parsed.module.body.block.first_op
    return func.body.block.args[0].type.encoding  # type: ignore[attr-defined]


def _identity_text() -> str:
    return f"""#blocked = {OPERAND}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32}} {{
  tt.func @f(%x: tensor<32x16xf16, #blocked>) {{
    tt.return
  }}
}}
"""


def _same_placement_as_inferred() -> str:
    return _text(_linear_text(trans_encoding(_operand_layout(), [1, 0]), (16, 32)))  # type: ignore[arg-type]


def _other_placement() -> str:
    # The operand's own layout on the transposed shape: not where tt.trans puts the elements.
    return _text(_linear_text(_operand_layout(), (16, 32)))


def test_a_linear_result_that_places_elements_as_inferred_verifies() -> None:
    clear_shared()
    parse_module(make_context(), _same_placement_as_inferred(), "same.mlir")


def test_a_linear_result_that_places_elements_elsewhere_is_rejected() -> None:
    clear_shared()
    with pytest.raises(TTGIRError, match=r"'tt.trans' op inferred type\(s\) .* are incompatible with return type"):
        parse_module(make_context(), _other_placement(), "other.mlir")


def test_without_the_algebra_a_differing_layout_is_not_provably_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _same_placement_as_inferred()
    clear_shared()
    monkeypatch.setattr(traits, "_PLACEMENT", [])
    monkeypatch.setattr(traits, "compare_placement_with", lambda fn: None)  # the verifier may install it now
    with pytest.raises(TTGIRError, match="incompatible with return type"):
        parse_module(make_context(), text, "no-algebra.mlir")
    clear_shared()


@pytest.mark.triton
@pytest.mark.skipif(not oracle.available(), reason="needs triton-xpu")
def test_triton_agrees() -> None:
    assert oracle.diagnostics(_same_placement_as_inferred()) == []
    assert any("incompatible with return type" in d[3] for d in oracle.diagnostics(_other_placement()))
