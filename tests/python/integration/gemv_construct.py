"""A GEMV step written for the SLM-message tests: a 32x64 tile dequantized from packed ints (bit
`row % 32` of an i32 per element), scaled per row by a 32x1 f16 column, summed along axis 0 and
stored; one warp of 32 lanes. `reduce_in` is the layout of the product and the reduction:
"#tile" ([1,4]x[2,16]: pairs of lanes hold different rows of a column, the column converted into
it) or "#row" ([1,2]x[1,32]: every lane holds whole columns, the tile shuffled into it and the column
broadcast to every lane)."""

from __future__ import annotations

LAYOUTS = {
    "#tile": "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>",
    "#row": "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>",
    "#col": "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>",
}


def gemv(reduce_in: str) -> str:
    L = reduce_in
    tile = "%f" if L == "#tile" else "%ft"
    shuffle = (f"    %ft = ttg.convert_layout %f : tensor<32x64xf16, #tile> -> tensor<32x64xf16, {L}>\n"
               if L != "#tile" else "")
    aliases = "".join(f"{k} = {v}\n" for k, v in LAYOUTS.items())
    return aliases + f"""module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "xpu", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @gemv_bits(%w: !tt.ptr<i32> {{tt.divisibility = 16 : i32}}, %x: !tt.ptr<f16> {{tt.divisibility = 16 : i32}}, %out: !tt.ptr<f16> {{tt.divisibility = 16 : i32}}) {{
    %c64 = arith.constant dense<64> : tensor<32x1xi32, #tile>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #tile>
    %one = arith.constant dense<1> : tensor<32x64xi32, #tile>
    %r = tt.make_range {{end = 32 : i32, start = 0 : i32}} : tensor<32xi32, #ttg.slice<{{dim = 1, parent = #tile}}>>
    %c = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 0, parent = #tile}}>>
    %rows = tt.expand_dims %r {{axis = 1 : i32}} : tensor<32xi32, #ttg.slice<{{dim = 1, parent = #tile}}>> -> tensor<32x1xi32, #tile>
    %cols = tt.expand_dims %c {{axis = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 0, parent = #tile}}>> -> tensor<1x64xi32, #tile>
    %roff = arith.muli %rows, %c64 : tensor<32x1xi32, #tile>
    %rb = tt.broadcast %roff : tensor<32x1xi32, #tile> -> tensor<32x64xi32, #tile>
    %cb = tt.broadcast %cols : tensor<1x64xi32, #tile> -> tensor<32x64xi32, #tile>
    %off = arith.addi %rb, %cb : tensor<32x64xi32, #tile>
    %wb = tt.splat %w : !tt.ptr<i32> -> tensor<32x64x!tt.ptr<i32>, #tile>
    %wp = tt.addptr %wb, %off : tensor<32x64x!tt.ptr<i32>, #tile>, tensor<32x64xi32, #tile>
    %packed = tt.load %wp : tensor<32x64x!tt.ptr<i32>, #tile>
    %bit = arith.remsi %rows, %c32 : tensor<32x1xi32, #tile>
    %bits = tt.broadcast %bit : tensor<32x1xi32, #tile> -> tensor<32x64xi32, #tile>
    %sh = arith.shrsi %packed, %bits : tensor<32x64xi32, #tile>
    %q = arith.andi %sh, %one : tensor<32x64xi32, #tile>
    %f = arith.sitofp %q : tensor<32x64xi32, #tile> to tensor<32x64xf16, #tile>
{shuffle}    %xr = tt.make_range {{end = 32 : i32, start = 0 : i32}} : tensor<32xi32, #ttg.slice<{{dim = 1, parent = #col}}>>
    %xe = tt.expand_dims %xr {{axis = 1 : i32}} : tensor<32xi32, #ttg.slice<{{dim = 1, parent = #col}}>> -> tensor<32x1xi32, #col>
    %xb = tt.splat %x : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>, #col>
    %xp = tt.addptr %xb, %xe : tensor<32x1x!tt.ptr<f16>, #col>, tensor<32x1xi32, #col>
    %xc = tt.load %xp : tensor<32x1x!tt.ptr<f16>, #col>
    %xl = ttg.convert_layout %xc : tensor<32x1xf16, #col> -> tensor<32x1xf16, {L}>
    %xt = tt.broadcast %xl : tensor<32x1xf16, {L}> -> tensor<32x64xf16, {L}>
    %p = arith.mulf %xt, {tile} : tensor<32x64xf16, {L}>
    %s = "tt.reduce"(%p) <{{axis = 0 : i32}}> ({{
    ^bb0(%a: f16, %b: f16):
      %t = arith.addf %a, %b : f16
      tt.reduce.return %t : f16
    }}) : (tensor<32x64xf16, {L}>) -> tensor<64xf16, #ttg.slice<{{dim = 0, parent = {L}}}>>
    %oc = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 0, parent = {L}}}>>
    %ob = tt.splat %out : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #ttg.slice<{{dim = 0, parent = {L}}}>>
    %op = tt.addptr %ob, %oc : tensor<64x!tt.ptr<f16>, #ttg.slice<{{dim = 0, parent = {L}}}>>, tensor<64xi32, #ttg.slice<{{dim = 0, parent = {L}}}>>
    tt.store %op, %s : tensor<64x!tt.ptr<f16>, #ttg.slice<{{dim = 0, parent = {L}}}>>
    tt.return
  }}
}}
"""
