"""block-io-only's divisibility of a raised stride: what MaterializeBlockPointer will know of the value built for it."""

from __future__ import annotations

from xpu_passes.dialects import make_context, tt
from xpu_passes.frontend import parse_module
from xpu_passes.transforms.raise_block_pointer.block_io import divisibility
from xpu_passes.transforms.raise_block_pointer.poly import Lin, reset_order

SRC = """module {
  tt.func public @f(%arg0: i32 {tt.divisibility = 16 : i32}, %arg1: i32 {tt.divisibility = 4 : i32}, %arg2: i32) {
    tt.return
  }
}"""


def _args() -> list:
    m = parse_module(make_context(), SRC, "test").module
    fn = next(o for o in m.walk() if isinstance(o, tt.FuncOp))
    return list(fn.body.block.args)


def test_products_and_constants() -> None:
    reset_order()
    a16, a4, a1 = (Lin.leaf(v) for v in _args())
    assert divisibility(a16) == 16
    assert divisibility(a4) == 4
    assert divisibility(a1) == 1
    assert divisibility(a4.scale(4)) == 16  # 4 * (a multiple of 4)
    assert divisibility(a16 * a4) == 64
    assert divisibility(Lin.const(64)) == 64
    assert divisibility(Lin.const(24)) == 8


def test_a_sum_is_not_read() -> None:
    """MaterializeBlockPointer's divisibility reads no addition: a pitch `a + b` of two multiples of 16 is 1."""
    reset_order()
    a16, a4, _ = (Lin.leaf(v) for v in _args())
    assert divisibility(a16 + a4.scale(4)) == 1
    assert divisibility(a16 + Lin.const(16)) == 1
