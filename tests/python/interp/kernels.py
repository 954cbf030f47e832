"""Kernels for the interpreter's tests: a TTIR text parsed, a masked copy-and-add, and a kernel
around one elementwise body (load n values, apply it, store n values)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from xpu_passes.dialects import make_context
from xpu_passes.frontend import ParsedModule, parse_module


def parse(text: str) -> ParsedModule:
    return parse_module(make_context(), text, "test.mlir")


def module(text: str) -> ModuleOp:
    return parse(text).module


# A masked 1D copy-and-add with `other`: y[i] = x[i] + 1 for i < n, 64-wide programs.
MASKED = """
module {
  tt.func public @add_one(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) {
    %c64 = arith.constant 64 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c64 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %s = tt.splat %start : i32 -> tensor<64xi32>
    %offs = arith.addi %s, %r : tensor<64xi32>
    %ns = tt.splat %n : i32 -> tensor<64xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<64xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %other = arith.constant dense<-5.0> : tensor<64xf32>
    %v = tt.load %xa, %mask, %other : tensor<64x!tt.ptr<f32>>
    %one = arith.constant dense<1.0> : tensor<64xf32>
    %w = arith.addf %v, %one : tensor<64xf32>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %ya, %w, %mask : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}
"""


def unary_kernel(body: str, src: str, dst: str, n: int = 8) -> str:
    """A kernel loading n `src` values, applying `body` (%v -> %w), storing n `dst` values."""
    return f"""
module {{
  tt.func public @k(%x: !tt.ptr<{src}>, %y: !tt.ptr<{dst}>) {{
    %r = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32>
    %xp = tt.splat %x : !tt.ptr<{src}> -> tensor<{n}x!tt.ptr<{src}>>
    %xa = tt.addptr %xp, %r : tensor<{n}x!tt.ptr<{src}>>, tensor<{n}xi32>
    %yp = tt.splat %y : !tt.ptr<{dst}> -> tensor<{n}x!tt.ptr<{dst}>>
    %ya = tt.addptr %yp, %r : tensor<{n}x!tt.ptr<{dst}>>, tensor<{n}xi32>
    %v = tt.load %xa : tensor<{n}x!tt.ptr<{src}>>
    {body}
    tt.store %ya, %w : tensor<{n}x!tt.ptr<{dst}>>
    tt.return
  }}
}}
"""
