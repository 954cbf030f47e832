"""raise_block_pointer/sink.py: a raised dot-operand load moves past ops declared free of effects only.
The lit test (raise-block-pointer-sink.mlir) has the moves and a store in between; here the other operand
comes from inline asm that may write memory (`pure = false`): the load must not move past it."""

from __future__ import annotations

from pathlib import Path

from transforms.raise_block_pointer.raise_support import lit_chunk, raise_text

SINK_LIT = Path(__file__).parents[3] / "lit" / "passes" / "raise-block-pointer-sink.mlir"
MOVED = "moved to right before its tt.dot"


def test_a_load_does_not_move_past_inline_asm_that_may_write_memory() -> None:
    text = lit_chunk("scaled_b", SINK_LIT)
    mul = "%b2 = arith.mulf %34, %34 : tensor<16x16xbf16>"
    assert mul in text
    text = text.replace(mul, f'%b2 = tt.elementwise_inline_asm "mov $0, $1;" {{constraints = "=r,r", '
                             f"packed_element = 1 : i32, pure = false}} %34 : tensor<16x16xbf16> -> tensor<16x16xbf16>")
    _, _, remarks = raise_text(text, dot_only=True, block_io_only=True)
    assert any("raised" in r for r in remarks)
    assert not any(MOVED in r for r in remarks)
