"""A construct written for the guards' shortcuts' tests (test_same_module, test_guard_facts): a masked store
of a 64x128 f32 tile whose bound is a constant. A bound that is a multiple of the vector (128) masks whole
vectors: 32 scatters; a bound of 3 masks each element: 128."""

from __future__ import annotations

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 16], warpsPerCTA = [2, 2], order = [1, 0]}>"
OTHER = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 1], warpsPerCTA = [2, 2], order = [0, 1]}>"


def store(bound: int = 128, order: tuple[int, ...] = (0, 1, 2), locs: tuple[str, str] = ("#loc1", "#loc2"),
          layout: str = BLOCKED, inner: bool = False, swap_ops: bool = False, functions: int = 1,
          attr: str = "") -> str:
    """The store, its three constants defined in `order`, named as triton's printer names them (by order);
    `inner`: the row stride defined in a second run, after the first op; `swap_ops`: two independent ops
    in the other order; `functions`: copies of the function; `attr`: a discardable attribute on the store."""
    consts = [f"arith.constant dense<128> : tensor<64x1xi32, #blocked> loc({locs[0]})",
              f"arith.constant dense<{bound}> : tensor<1x128xi32, #blocked> loc({locs[0]})",
              f"arith.constant dense<0.000000e+00> : tensor<64x128xf32, #blocked> loc({locs[0]})"]
    names = {i: ("%cst" if k == 0 else f"%cst_{k - 1}") for k, i in enumerate(order)}
    defs = [f"    {names[i]} = {consts[i]}" for i in order if not (inner and i == 0)]
    rows = ["    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> loc(#loc2)",
            "    %1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> loc(#loc2)"]
    if swap_ops:
        rows = rows[::-1]
    stride = f"    {names[0]} = {consts[0]}" if inner else ""
    body = "\n".join(defs + rows[:1] + ([stride] if inner else []) + rows[1:]) + f"""
    %2 = tt.expand_dims %0 {{axis = 1 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 1, parent = #blocked}}>> -> tensor<64x1xi32, #blocked> loc(#loc2)
    %3 = tt.expand_dims %1 {{axis = 0 : i32}} : tensor<128xi32, #ttg.slice<{{dim = 0, parent = #blocked}}>> -> tensor<1x128xi32, #blocked> loc(#loc2)
    %4 = arith.muli %2, {names[0]} : tensor<64x1xi32, #blocked> loc({locs[1]})
    %5 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked> loc(#loc2)
    %6 = tt.addptr %5, %4 : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked> loc(#loc2)
    %7 = tt.broadcast %6 : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x128x!tt.ptr<f32>, #blocked> loc(#loc2)
    %8 = tt.broadcast %3 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked> loc(#loc2)
    %9 = tt.addptr %7, %8 : tensor<64x128x!tt.ptr<f32>, #blocked>, tensor<64x128xi32, #blocked> loc(#loc2)
    %10 = arith.cmpi slt, %3, {names[1]} : tensor<1x128xi32, #blocked> loc(#loc2)
    %11 = tt.broadcast %10 : tensor<1x128xi1, #blocked> -> tensor<64x128xi1, #blocked> loc(#loc2)
    tt.store %9, {names[2]}, %11{attr} : tensor<64x128x!tt.ptr<f32>, #blocked> loc(#loc2)
    tt.return loc(#loc2)"""
    funcs = "\n".join(f"""  tt.func public @store{k}(%arg0: !tt.ptr<f32> {{tt.divisibility = 16 : i32}} loc("k.py":1:0)) attributes {{noinline = false}} {{
{body}
  }} loc(#loc)""" for k in range(functions))
    return f"""#blocked = {layout}
#loc = loc("k.py":1:0)
#loc1 = loc(unknown)
#loc2 = loc("k.py":2:0)
#loc3 = loc("k.py":3:0)
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 16 : i32}} {{
{funcs}
}} loc(#loc)
"""
