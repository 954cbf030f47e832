"""Every op class that declares (or derives) a fast form reads and prints as its own syntax does.

Generated from the classes: for each class whose form is not None (dialects/declared.py,
frontend/fast/syntax.py), the first sample of its form that xDSL's own parser accepts for
the op is parsed by the general path; its print through the op's own printer equals the
fast printer's; the fast parse of that print equals the general parse, and took the fast
path for the op. A class with no accepted sample fails: a new form needs its samples here.
"""

from __future__ import annotations

import pytest

from xpu_passes.dialects import all_dialects, make_context
from xpu_passes.dialects.declared import upstream_classes
from xpu_passes.frontend import TTGIRError, parse_module, parser, print_module
from xpu_passes.frontend.fast import printer as fastprint
from xpu_passes.frontend.fast.syntax import form_name

HEAD = """#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
#mma = #ttig.dpas<{repeatCount = 8, systolicDepth = 8, executionSize = 16, opsPerChan = 2, threadsPerWarp = 16, warpsPerCTA = [4, 1], repCluster = [1, 1], A = [8, 16], B = [16, 16], C = [8, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 16 : i32} {
"""
T = "tensor<4xf32, #b>"
TI = "tensor<4xi32, #b>"
P = "tensor<4x!tt.ptr<f32>, #b>"
A = "tensor<8x16xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>"
B = "tensor<16x16xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>"
C = "tensor<8x16xf32, #mma>"


def _func(args: str, body: str, results: str = "", ret: str = "tt.return") -> str:
    return HEAD + f"  tt.func @f({args}){results} {{\n    {body}\n    {ret}\n  }}\n}}\n"


def _reduce(op: str, ret: str) -> str:
    return _func(f"%t: {T}", f'%r = "{op}"(%t) <{{axis = 0 : i32}}> ({{\n    ^bb0(%x: f32, %y: f32):\n'
                 f"      %s = arith.addf %x, %y : f32\n      {ret} %s : f32\n    }}) : ({T}) -> f32")


def _scan(op: str, ret: str) -> str:
    return _func(f"%t: {T}", f'%r = "{op}"(%t) <{{axis = 0 : i32, reverse = false}}> ({{\n    ^bb0(%x: f32, %y: f32):\n'
                 f"      %s = arith.addf %x, %y : f32\n      {ret} %s : f32\n    }}) : ({T}) -> {T}")


def _for(op: str, ret: str) -> str:
    return _func("%lb: i32, %ub: i32, %a: f32", f"%r = {op} %i = %lb to %ub step %lb iter_args(%x = %a) -> (f32) : i32 {{\n"
                 f"      {ret} %x : f32\n    }}")


_TYPES = ["i32", "f32", TI, T, "i64", "f16"]
_CASTS = [("i32", "i64"), ("i64", "i32"), ("f16", "f32"), ("f32", "f16"), ("i32", "f32"), ("f32", "i32"),
          ("i32", "index"), ("index", "i32"), (TI, "tensor<4xi64, #b>"), (T, "tensor<4xf16, #b>")]
_ARROWS = [("f32", T, ""), (T, "tensor<4xf32, #b2>", ""), ("tensor<1x4xf32, #b1>", "tensor<4x4xf32, #b1>", ""),
           ("tensor<4xf32, #ttg.slice<{dim = 0, parent = #b1}>>", "tensor<1x4xf32, #b1>", " {axis = 0 : i32}"),
           (TI, T, ""), ("tensor<4xi64, #b>", P, ""), (P, "tensor<4xi64, #b>", ""),
           ("tensor<4xf32>", "tensor<2x2xf32>", "")]
_MTP = "<tensor<16x16xf16>>"

# Form -> samples (text with NAME for the op's name; RET for its region's terminator).
SAMPLES: dict[str, list[str]] = {
    "binary": [_func(f"%a: {t}, %b: {t}", f"%0 = NAME %a, %b : {t}") for t in _TYPES],
    "cast": [_func(f"%a: {s}", f"%0 = NAME %a : {s} to {d}") for s, d in _CASTS],
    "arrow": [_func(f"%a: {s}", f"%0 = NAME %a{a} : {s} -> {d}") for s, d, a in _ARROWS],
    "two_types": [_func(f"%a: {P}, %b: {TI}", f"%0 = NAME %a, %b : {P}, {TI}"),
                  _func("%a: !tt.ptr<f32>, %b: i32", "%0 = NAME %a, %b : !tt.ptr<f32>, i32")],
    "constant": [_func("", "%0 = NAME 7 : i32"), _func("", f"%0 = NAME dense<1.000000e+00> : {T}")],
    "compare": [_func(f"%a: {t}, %b: {t}", f"%0 = NAME {p}, %a, %b : {t}")
                for t, p in (("i32", "slt"), (TI, "eq"), ("f32", "olt"), (T, "une"))],
    "select": [_func(f"%c: i1, %a: {T}, %b: {T}", f"%0 = NAME %c, %a, %b : {T}"),
               _func(f"%c: tensor<4xi1, #b>, %a: {T}, %b: {T}", f"%0 = NAME %c, %a, %b : tensor<4xi1, #b>, {T}")],
    "attrs_result": [_func("", f"%0 = NAME {{end = 4 : i32, start = 0 : i32}} : {TI}"), _func("", "%0 = NAME : f32")],
    "program_query": [_func("", "%0 = NAME y : i32")],
    "unary": [_func(f"%a: {t}", f"%0 = NAME %a : {t}") for t in ("f32", T)],
    "dot": [_func(f"%a: {A}, %b: {B}, %c: {C}", f"%0 = NAME %a, %b, %c{x} : {A} * {B} -> {C}")
            for x in ("", ", inputPrecision = tf32")],
    "load": [_func(f"%p: {P}, %m: tensor<4xi1, #b>, %o: {T}", f"%0 = NAME %p{x} : {P}") for x in ("", ", %m", ", %m, %o")],
    "store": [_func(f"%p: {P}, %v: {T}, %m: tensor<4xi1, #b>", f"NAME %p, %v{x} : {P}") for x in ("", ", %m")],
    "prefetch": [_func(f"%p: {P}, %m: tensor<4xi1, #b>", f"NAME %p{x} {{isVolatile = false}} : {P}") for x in ("", ", %m")],
    "make_tensor_ptr": [_func("%p: !tt.ptr<f16>, %s: i64, %o: i32",
                              f"%0 = NAME %p, [%s, %s], [%s, %s], [%o, %o] {{order = array<i32: 1, 0>}} : {_MTP}")],
    "advance": [_func(f"%p: !tt.ptr<{_MTP[1:-1]}>, %o: i32", f"%0 = NAME %p, [%o, %o] : {_MTP}")],
    "return": [_func("%a: f32", "", " -> f32", ret="NAME %a : f32"), _reduce("tt.reduce", "NAME"),
               _scan("tt.scan", "NAME"), _for("scf.for", "NAME")],
    "generic_region": [_reduce("NAME", "tt.reduce.return"), _scan("NAME", "tt.scan.return")],
    "for": [_for("NAME", "scf.yield")],
    "func": [HEAD + "  NAME public @g(%a: i32 {tt.divisibility = 16 : i32}, %b: f32) {\n    tt.return\n  }\n}\n"],
}


def _declaring() -> list[type]:
    ops = {op for d in all_dialects() for op in d.operations}
    missing = [c for c in upstream_classes() if c not in ops]
    assert not missing, missing  # (every upstream class declared is one our context loads)
    return sorted((c for c in ops if form_name(c) is not None), key=lambda c: c.name)  # type: ignore[attr-defined]


def _generic(text: str) -> str:
    m = parse_module(make_context(), text, "s.mlir")
    return print_module(m.module, m.spelling, debuginfo=True, generic=True)


def _parse_slow(text: str, monkeypatch: pytest.MonkeyPatch) -> str | None:
    with monkeypatch.context() as m:
        m.setattr(parser, "parse_fast", lambda p, start, *lex: None)
        m.setattr(parser, "parse_block_args", lambda p, block: False)
        try:
            parsed = parse_module(make_context(), text, "s.mlir")
        except TTGIRError:
            return None
        with_own = _print(parsed, monkeypatch, fast=False)
        generic = print_module(parsed.module, parsed.spelling, debuginfo=True, generic=True)
    return with_own if with_own == _print(parsed, monkeypatch, fast=True) else f"PRINTS DIFFER\n{generic}"


def _print(parsed: parser.ParsedModule, monkeypatch: pytest.MonkeyPatch, fast: bool) -> str:
    fastprint.clear()
    return print_module(parsed.module, parsed.spelling, debuginfo=True, fast=fast)


@pytest.mark.parametrize("cls", _declaring(), ids=lambda c: c.name)
def test_declared_form_reads_and_prints_as_the_ops_own_syntax(cls: type, monkeypatch: pytest.MonkeyPatch) -> None:
    form = form_name(cls)
    samples = [s.replace("NAME", cls.name) for s in SAMPLES[form]]  # type: ignore[attr-defined,index]
    printed = next((p for s in samples if (p := _parse_slow(s, monkeypatch)) is not None), None)
    assert printed is not None, f"{cls.name}: no sample of form {form!r} parses with xDSL's parser"  # type: ignore[attr-defined]
    assert not printed.startswith("PRINTS DIFFER"), printed  # the op's own print == the fast printer's
    taken = []
    original = parser.parse_fast

    def counting(p: object, start: int, *lex: bool) -> object:
        op = original(p, start, *lex)  # type: ignore[arg-type]
        if op is not None:
            taken.append(type(op))
        return op

    monkeypatch.setattr(parser, "parse_fast", counting)
    fast = _generic(printed)
    monkeypatch.undo()
    assert cls in taken, f"{cls.name}: the fast path did not read {printed}"  # type: ignore[attr-defined]
    monkeypatch.setattr(parser, "parse_fast", lambda p, start, *lex: None)
    monkeypatch.setattr(parser, "parse_block_args", lambda p, block: False)
    assert fast == _generic(printed)


def test_every_form_has_samples_and_every_sample_form_is_used() -> None:
    used = {form_name(c) for c in _declaring()}
    assert used == set(SAMPLES), (used ^ set(SAMPLES))
