"""IR texts and helpers several test files share (imported as `samples`: tests/python is on
pytest's pythonpath), written for the tests that use them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.passes import ModulePass

# An addition converted to another layout, computed from a constant through a backward slice
# (integration/test_roundtrip_repeats, transforms/test_base, RLC's test_solve_on_input).
TTGIR = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func public @f(%p: !tt.ptr<f32>) {
    %c = arith.constant 1 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %b = tt.broadcast %e : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %s = tt.splat %c : i32 -> tensor<64x64xi32, #blocked>
    %a = arith.addi %b, %s : tensor<64x64xi32, #blocked>
    %y = ttg.convert_layout %a : tensor<64x64xi32, #blocked> -> tensor<64x64xi32, #blocked1>
    tt.return
  }
}
"""


def op_named(module: ModuleOp, name: str) -> Any:
    return next(op for op in module.walk() if op.name == name)


def add_conversion(module: ModuleOp) -> None:
    """A second conversion of the addition (what accelerate-matmul does to a dot's operands)."""
    cvt = op_named(module, "ttg.convert_layout")
    cvt.parent.insert_op_after(cvt.clone(), cvt)


def change_slice(module: ModuleOp) -> None:
    """The constant the converted value is computed from (an op in the conversion's backward slice)."""
    op_named(module, "arith.constant").properties["value"] = IntegerAttr(2, i32)


@dataclass(frozen=True)
class Counted(ModulePass):
    """Stands for a repeated pass: counts its runs; changes the module on the runs in `changing`."""

    name = "test-repeated"
    calls: list[int]
    changing: tuple[int, ...] = ()
    option: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.calls.append(1)
        if len(self.calls) in self.changing:
            change_slice(op) if len(self.calls) % 2 else add_conversion(op)


# A loop carrying a value in one layout beside an argument in another (layouts/test_memoize,
# RLC's test_solution_checks).
LOOP = """
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 16 : i32} {
  tt.func @f(%x: tensor<16x32xf32, #a>, %y: tensor<16x32xf32, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<16x32xf32, #a>)  : i32 {
      %s = arith.addf %acc, %acc : tensor<16x32xf32, #a>
      scf.yield %s : tensor<16x32xf32, #a>
    }
    tt.return
  }
}
"""


# scf.for and scf.while with located ops (frontend/test_parser, integration/test_oracle).
LOOPS = """module {
  tt.func @loops(%n: i32 loc("k.py":1:0)) {
    %c0 = arith.constant 0 : i32 loc("k.py":2:8)
    %c1 = arith.constant 1 : i32 loc("k.py":3:8)
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32)  : i32 {
      %s = arith.addi %a, %i : i32 loc("k.py":5:12)
      scf.yield %s : i32 loc("k.py":5:4)
    } loc("k.py":4:4)
    %w = scf.while (%x = %r) : (i32) -> i32 {
      %k = arith.cmpi slt, %x, %n : i32 loc("k.py":7:10)
      scf.condition(%k) %x : i32 loc("k.py":7:4)
    } do {
    ^bb0(%y: i32 loc("k.py":8:4)):
      %z = arith.addi %y, %c1 : i32 loc("k.py":9:8)
      scf.yield %z : i32 loc("k.py":9:4)
    } loc("k.py":6:4)
    tt.return loc("k.py":10:4)
  } loc("k.py":1:0)
} loc("k.py":0:0)
"""


# MLIR's print without debug info and with local scope, derived from its print with both
# (frontend/test_printer, frontend/test_parser).
_LOC_ALIAS = re.compile(r"^#loc\d* = loc\(.*\n", re.M)
_ALIAS_DEF = re.compile(r"^(#[\w$\-]+) = (.*)\n", re.M)
_ALIAS_USE = re.compile(r"#[A-Za-z_][\w$\-]*")


def strip_locations(text: str) -> str:
    """MLIR's print without debug info, from its print with it."""
    text = _LOC_ALIAS.sub("", text)
    out, i = [], 0
    while (j := text.find(" loc(", i)) >= 0:
        out.append(text[i:j])
        k, depth = j + 5, 1
        while depth:  # to the matching parenthesis, skipping string literals
            c = text[k]
            if c == '"':
                k += 1
                while text[k] != '"':
                    k += 2 if text[k] == "\\" else 1
            depth += {"(": 1, ")": -1}.get(c, 0)
            k += 1
        i = k
    out.append(text[i:])
    return "".join(out)


def inline_aliases(text: str) -> str:
    """MLIR's print with local scope, from its print with aliases."""
    defs = dict(_ALIAS_DEF.findall(text))

    def expand(m: re.Match[str]) -> str:
        d = defs.get(m.group(0))
        if d is None:
            return m.group(0)
        return _ALIAS_USE.sub(expand, d[4:-1] if d.startswith("loc(") else d)

    return _ALIAS_USE.sub(expand, _ALIAS_DEF.sub("", text))
