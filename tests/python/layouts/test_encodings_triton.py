"""The linear maps of TTGIR layouts (layouts/encodings.py) against triton-xpu's lowering: a store
in a layout and in our `#ttg.linear` spelling of it lower to the same code, and a conversion
between two layouts of the same placement is free."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Sequence

import pytest
from xdsl.ir import Attribute

from xpu_passes.layouts import from_linear, same_placement, to_linear
from xpu_passes.layouts.linear import mixed_transpositions, reorders_registers
from xpu_passes.layouts.scratch import tile_shape

from layouts.layout_attrs import EPI_4W, MMA_4W, MMA_FA, blocked, dot, dpas, random_layout, spell
from layouts.triton_layouts import HEADER, convert_module, forked, needs_triton, triton_llir


def store_module(layout: Attribute, shape: Sequence[int], warps: int) -> str:
    """Each element stores its own linear index at that index: the lowering spells out
    which register of which lane/warp holds which element."""
    m, n = shape
    s0 = f"#ttg.slice<{{dim = 1, parent = #L}}>"
    s1 = f"#ttg.slice<{{dim = 0, parent = #L}}>"
    return (
        f"#L = {spell(layout)}\n" + HEADER.format(w=warps)
        + "  tt.func public @k(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {\n"
        f"    %r0 = tt.make_range {{end = {m} : i32, start = 0 : i32}} : tensor<{m}xi32, {s0}>\n"
        f"    %r1 = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32, {s1}>\n"
        f"    %e0 = tt.expand_dims %r0 {{axis = 1 : i32}} : tensor<{m}xi32, {s0}> -> tensor<{m}x1xi32, #L>\n"
        f"    %e1 = tt.expand_dims %r1 {{axis = 0 : i32}} : tensor<{n}xi32, {s1}> -> tensor<1x{n}xi32, #L>\n"
        f"    %c = arith.constant dense<{n}> : tensor<{m}x1xi32, #L>\n"
        f"    %m = arith.muli %e0, %c : tensor<{m}x1xi32, #L>\n"
        f"    %b0 = tt.broadcast %m : tensor<{m}x1xi32, #L> -> tensor<{m}x{n}xi32, #L>\n"
        f"    %b1 = tt.broadcast %e1 : tensor<1x{n}xi32, #L> -> tensor<{m}x{n}xi32, #L>\n"
        f"    %off = arith.addi %b0, %b1 : tensor<{m}x{n}xi32, #L>\n"
        f"    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<{m}x{n}x!tt.ptr<i32>, #L>\n"
        f"    %a = tt.addptr %ps, %off : tensor<{m}x{n}x!tt.ptr<i32>, #L>, tensor<{m}x{n}xi32, #L>\n"
        f"    tt.store %a, %off : tensor<{m}x{n}x!tt.ptr<i32>, #L>\n"
        "    tt.return\n  }\n}\n"
    )


def store_code(layout: Attribute, shape: Sequence[int], warps: int) -> str:
    _, llir = triton_llir(store_module(layout, shape, warps), warps)
    body = llir[llir.index("define") :]
    return re.sub(r"^!.*$|!dbg ![0-9]+", "", body, flags=re.M)


@pytest.mark.triton
@needs_triton
def test_maps_match_triton_lowering() -> None:
    """triton-xpu lowers a store in layout X and in our `#ttg.linear` spelling of X to the
    same code, and to different code once two registers trade places."""
    rng = random.Random(7)
    cases: list[tuple[Attribute, tuple[int, int], int]] = [
        (EPI_4W, (64, 128), 4),
        (MMA_4W, (64, 128), 4),
        (dot(0, MMA_4W), (64, 32), 4),
        (dot(1, MMA_4W), (32, 128), 4),
        (dot(0, MMA_FA), (128, 64), 8),
    ]
    for _ in range(500):
        if len(cases) >= 12:
            break
        warps = rng.choice([1, 2, 4, 8])
        shape = (rng.choice([16, 32, 64, 128]), rng.choice([16, 32, 64, 128]))
        layout = random_layout(rng, rng.choice(["blocked", "dpas", "dot_a", "dot_b"]), warps, shape)
        # triton-xpu 3.3 mislowers DPAS-family tensors smaller than the layout's tile (it
        # treats half the lanes as replicas and drops their stores); we follow Intel's map.
        if "dpas" in spell(layout) and any(s < t for s, t in zip(shape, tile_shape(layout, shape))):
            continue
        if to_linear(layout, shape).is_injective():  # replicas change the store masks, not the map
            cases.append((layout, shape, warps))
    for layout, shape, warps in cases:
        ll = to_linear(layout, shape)
        status, same = forked(lambda: store_code(layout, shape, warps) == store_code(from_linear(ll), shape, warps))
        assert status == "ok" and same, (spell(layout), shape)
    layout, shape, warps = cases[0]
    ll = to_linear(layout, shape)
    swapped = dataclasses.replace(ll, register=(ll.register[1], ll.register[0]) + ll.register[2:])
    assert store_code(layout, shape, warps) != store_code(from_linear(swapped), shape, warps)


def store_module_3d(layout: Attribute, shape: Sequence[int], warps: int) -> str:
    """store_module for rank 3: the ranges live in slices of slices of the layout."""
    b, m, n = shape

    def t(*dims: int) -> str:
        return "x".join(map(str, dims)) + "xi32"

    def sl(d: int, parent: str) -> str:
        return f"#ttg.slice<{{dim = {d}, parent = {parent}}}>"

    s2, s1 = sl(2, "#L"), sl(1, "#L")
    lines = [
        f"#L = {spell(layout)}",
        HEADER.format(w=warps).rstrip("\n"),
        "  tt.func public @k(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {",
        f"    %r0 = tt.make_range {{end = {b} : i32, start = 0 : i32}} : tensor<{t(b)}, {sl(1, s2)}>",
        f"    %r1 = tt.make_range {{end = {m} : i32, start = 0 : i32}} : tensor<{t(m)}, {sl(0, s2)}>",
        f"    %r2 = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{t(n)}, {sl(0, s1)}>",
        f"    %a0 = tt.expand_dims %r0 {{axis = 1 : i32}} : tensor<{t(b)}, {sl(1, s2)}> -> tensor<{t(b, 1)}, {s2}>",
        f"    %b0 = tt.expand_dims %a0 {{axis = 2 : i32}} : tensor<{t(b, 1)}, {s2}> -> tensor<{t(b, 1, 1)}, #L>",
        f"    %a1 = tt.expand_dims %r1 {{axis = 0 : i32}} : tensor<{t(m)}, {sl(0, s2)}> -> tensor<{t(1, m)}, {s2}>",
        f"    %b1 = tt.expand_dims %a1 {{axis = 2 : i32}} : tensor<{t(1, m)}, {s2}> -> tensor<{t(1, m, 1)}, #L>",
        f"    %a2 = tt.expand_dims %r2 {{axis = 0 : i32}} : tensor<{t(n)}, {sl(0, s1)}> -> tensor<{t(1, n)}, {s1}>",
        f"    %b2 = tt.expand_dims %a2 {{axis = 1 : i32}} : tensor<{t(1, n)}, {s1}> -> tensor<{t(1, 1, n)}, #L>",
        f"    %c0 = arith.constant dense<{m * n}> : tensor<{t(b, 1, 1)}, #L>",
        f"    %c1 = arith.constant dense<{n}> : tensor<{t(1, m, 1)}, #L>",
        f"    %m0 = arith.muli %b0, %c0 : tensor<{t(b, 1, 1)}, #L>",
        f"    %m1 = arith.muli %b1, %c1 : tensor<{t(1, m, 1)}, #L>",
        f"    %e0 = tt.broadcast %m0 : tensor<{t(b, 1, 1)}, #L> -> tensor<{t(b, m, n)}, #L>",
        f"    %e1 = tt.broadcast %m1 : tensor<{t(1, m, 1)}, #L> -> tensor<{t(b, m, n)}, #L>",
        f"    %e2 = tt.broadcast %b2 : tensor<{t(1, 1, n)}, #L> -> tensor<{t(b, m, n)}, #L>",
        f"    %s = arith.addi %e0, %e1 : tensor<{t(b, m, n)}, #L>",
        f"    %off = arith.addi %s, %e2 : tensor<{t(b, m, n)}, #L>",
        f"    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<{b}x{m}x{n}x!tt.ptr<i32>, #L>",
        f"    %a = tt.addptr %ps, %off : tensor<{b}x{m}x{n}x!tt.ptr<i32>, #L>, tensor<{t(b, m, n)}, #L>",
        f"    tt.store %a, %off : tensor<{b}x{m}x{n}x!tt.ptr<i32>, #L>",
        "    tt.return",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.triton
@needs_triton
@pytest.mark.parametrize(
    "layout,shape",
    [
        (blocked([1, 1, 4], [1, 2, 8], [2, 2, 1], [2, 1, 0]), (4, 16, 64)),
        (blocked([2, 1, 1], [2, 8, 1], [1, 1, 4], [0, 1, 2]), (4, 16, 8)),
        (dpas([2, 2, 1], [1, 2, 1]), (4, 32, 32)),
        (dpas([1, 2, 2], [1, 2, 2]), (2, 64, 64)),
    ],
    ids=["blocked-a", "blocked-b", "dpas-a", "dpas-b"],
)
def test_rank3_maps_match_triton_lowering(layout: Attribute, shape: tuple[int, int, int]) -> None:
    warps = 1 << len(to_linear(layout, shape).warp)

    def code(x: Attribute) -> str:
        _, llir = triton_llir(store_module_3d(x, shape, warps), warps)
        return re.sub(r"^!.*$|!dbg ![0-9]+", "", llir[llir.index("define") :], flags=re.M)

    status, same = forked(lambda: code(layout) == code(from_linear(to_linear(layout, shape))))
    assert status == "ok" and same


@pytest.mark.triton
@needs_triton
def test_same_placement_means_a_free_conversion() -> None:
    """same_placement(a, b) => triton-xpu converts a -> b with no SLM and no shuffles."""
    rng = random.Random(3)
    checked = 0
    for _ in range(30):
        if checked >= 6:
            break
        warps = rng.choice([2, 4, 8])
        shape = (rng.choice([32, 64, 128]), rng.choice([32, 64, 128]))
        a = random_layout(rng, rng.choice(["blocked", "dpas", "dot_a"]), warps, shape)
        for b in (from_linear(to_linear(a, shape)), random_layout(rng, "blocked", warps, shape)):
            status, res = forked(lambda: triton_llir(convert_module(a, b, shape, warps, "f32"), warps))
            if status != "ok":
                continue
            shared, llir = res
            free = shared == 0 and "shuffle" not in llir and "addrspace(3)" not in llir
            if same_placement(a, b, shape):
                assert free, (spell(a), spell(b), shape)
                checked += 1
            else:
                assert reorders_registers(to_linear(a, shape), to_linear(b, shape)) or not free or (
                    mixed_transpositions(to_linear(a, shape), to_linear(b, shape)) == 1
                )
    assert checked >= 6
