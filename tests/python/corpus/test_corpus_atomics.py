"""The interpreter's atomics (added for the split-K/stream-K GEMMs and the layer-norm lock):
lanes in row-major order, each returning what it read; masks; a spin lock over a grid.

Expected values are computed by hand from the inputs.
"""

from __future__ import annotations

import numpy as np
import pytest

from xpu_passes.dialects import make_context
from xpu_passes.frontend import parse_module
from xpu_passes.interp import run_kernel

# Every program adds 1.5 to x[i % 2] from 4 lanes (lane 3 masked off) and stores the old values.
RMW = """
module {
  tt.func public @k(%x: !tt.ptr<f32>, %old: !tt.ptr<f32>) {
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %c2 = arith.constant dense<2> : tensor<4xi32>
    %c3 = arith.constant dense<3> : tensor<4xi32>
    %i = arith.remsi %r, %c2 : tensor<4xi32>
    %m = arith.cmpi slt, %r, %c3 : tensor<4xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %p = tt.addptr %xs, %i : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %v = arith.constant dense<1.5> : tensor<4xf32>
    %o = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<4x!tt.ptr<f32>>, tensor<4xf32>, tensor<4xi1>) -> tensor<4xf32>
    %pid = tt.get_program_id x : i32
    %c4 = arith.constant 4 : i32
    %base = arith.muli %pid, %c4 : i32
    %bs = tt.splat %base : i32 -> tensor<4xi32>
    %off = arith.addi %bs, %r : tensor<4xi32>
    %os = tt.splat %old : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %q = tt.addptr %os, %off : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %q, %o : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}
"""

# A program takes the lock (spins while atomic_cas(lock, 0, 1) returns 1), bumps a counter
# with a plain load/store, records the counter it saw, and releases with atomic_xchg.
LOCK = """
module {
  tt.func public @k(%lock: !tt.ptr<i32>, %count: !tt.ptr<i32>, %seen: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.while : () -> () {
      %o = tt.atomic_cas acq_rel, gpu, %lock, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
      %busy = arith.cmpi eq, %o, %c1 : i32
      scf.condition(%busy)
    } do {
      scf.yield
    }
    %n = tt.load %count : !tt.ptr<i32>
    %pid = tt.get_program_id x : i32
    %s = tt.addptr %seen, %pid : !tt.ptr<i32>, i32
    tt.store %s, %n : !tt.ptr<i32>
    %n1 = arith.addi %n, %c1 : i32
    tt.store %count, %n1 : !tt.ptr<i32>
    %r = tt.atomic_rmw exch, acq_rel, gpu, %lock, %c0 : (!tt.ptr<i32>, i32) -> i32
    tt.return
  }
}
"""


# cas(lock, 0, 1) twice (takes it, then finds it taken), then exch(lock, 0) (releases it).
CAS = """
module {
  tt.func public @k(%lock: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %a = tt.atomic_cas acq_rel, gpu, %lock, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
    %b = tt.atomic_cas acq_rel, gpu, %lock, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
    %t = tt.load %lock : !tt.ptr<i32>
    %c = tt.atomic_rmw exch, acq_rel, gpu, %lock, %c0 : (!tt.ptr<i32>, i32) -> i32
    tt.store %out, %a : !tt.ptr<i32>
    %o1 = tt.addptr %out, %c1 : !tt.ptr<i32>, i32
    tt.store %o1, %b : !tt.ptr<i32>
    %o2 = tt.addptr %out, %c2 : !tt.ptr<i32>, i32
    %o3 = tt.addptr %o2, %c1 : !tt.ptr<i32>, i32
    tt.store %o2, %t : !tt.ptr<i32>
    tt.store %o3, %c : !tt.ptr<i32>
    tt.return
  }
}
"""


def _module(text: str):
    return parse_module(make_context(), text, "atomics.mlir").module


def test_atomic_add_lanes_in_order_masked_lanes_untouched() -> None:
    x = np.array([10.0, 20.0, -7.0], np.float32)
    old = np.full(8, -1.0, np.float32)
    run_kernel(_module(RMW), [x, old], (2,))
    # Program 0: lanes 0,1,2 -> x[0], x[1], x[0]; program 1 the same on the updated values.
    np.testing.assert_array_equal(x, [10.0 + 4 * 1.5, 20.0 + 2 * 1.5, -7.0])
    np.testing.assert_array_equal(old[:3], [10.0, 20.0, 11.5])
    np.testing.assert_array_equal(old[4:7], [13.0, 21.5, 14.5])
    assert old[3] == 0 and old[7] == 0  # masked-off lanes read nothing


def test_bf16_atomic_add_rounds_in_memory() -> None:
    """bf16 lives in float32 buffers: each add is rounded to bf16, as the hardware stores it."""
    text = RMW.replace("f32>", "bf16>").replace("dense<1.5>", "dense<1.0e-02>")  # 0.01 is 0.010009765625 in bf16
    x = np.array([1.0, 256.0, 0.0], np.float32)
    old = np.zeros(8, np.float32)
    run_kernel(_module(text), [x, old], (1,))
    # 1 + 0.01 -> 1.0078125 (bf16), + 0.01 -> 1.015625; 256 + 0.01 stays 256 in bf16.
    np.testing.assert_array_equal(x, [1.015625, 256.0, 0.0])


def test_compare_and_swap_returns_the_old_value() -> None:
    lock, out = np.zeros(1, np.int32), np.full(4, -1, np.int32)
    run_kernel(_module(CAS), [lock, out], (1,))
    np.testing.assert_array_equal(out, [0, 1, 1, 1])  # took it; found it taken; it was 1; released
    assert lock[0] == 0


def test_spin_lock_serializes_programs() -> None:
    module = _module(LOCK)
    lock, count, seen = np.zeros(1, np.int32), np.zeros(1, np.int32), np.full(5, -1, np.int32)
    run_kernel(module, [lock, count, seen], (5,))
    assert lock[0] == 0 and count[0] == 5
    np.testing.assert_array_equal(seen, np.arange(5))
