"""What each pass needs in a module's text to have work: a round trip whose passes all miss it in
triton's print is skipped (its output would be its input), and native passes proved idle are dropped."""

from __future__ import annotations

import re
from collections.abc import Callable

from xpu_passes import registry
from xpu_passes.integration.stages import ESC, LEGAL, NMD, OBIO, OSV, RAISE, RLC, RVL, SFD, SLICE, SLICE_RED, Stage
from xpu_passes.transforms.slice_epilogue.find import BRANCHY

# A pass -> text that must occur in the module for the pass to have anything to do: a round trip
# whose passes all miss theirs in triton's print is skipped (its output would be its input).
# A pass may declare the same as a class attribute `needs_text` (a tuple of strings).
NEEDS_TEXT: dict[str, tuple[str, ...]] = {
    # Every rewrite starts at a conversion, and block pointers are anchored only to the layout
    # a conversion of one of their loads/stores asks for: without one, nothing changes.
    RLC: ("convert_layout",),
    # Only loads tagged block_io that feed a tt.dot get a Subgroup2DBlock layout.
    OBIO: ("block_io", "tt.dot"),
    # Only Subgroup2DBlock layouts are legalized.
    LEGAL: ("subgroup_2d_block",),
    # Only epilogues stored through a boundary-checked block pointer are sliced.
    SLICE: ("boundaryCheck",),
    # Only a tt.reduce of a tile it loads is computed in parts.
    SLICE_RED: ("tt.reduce", "tt.load"),
    # Only the loads of dot operands in loops move.
    RVL: ("tt.dot", "scf.for"),
    # Only values stored beside another of another width are reordered.
    OSV: ("tt.store",),
    # Only a conversion with a load before it moves.
    ESC: ("convert_layout", "tt.load"),
    # Only a dim every store masks with a compare is narrowed.
    NMD: ("tt.store", "arith.cmpi", "tt.make_range"),
    # Only a dot of operands staged in SLM, lowered to FMAs (a blocked result), is split.
    SFD: ("tt.dot", "ttg.local_load"),
}
# The same, where a pass needs more than strings: a test of the text (a skipped round trip costs
# a parse and a print, ~15 ms on a GEMM).
_BOUNDED_STORE = re.compile(r"tt\.store [^\n]*boundaryCheck")
_GATHER = re.compile(r"tt\.load [^\n]*: tensor<")  # (a block-pointer load's type is !tt.ptr<tensor<...>>)
# A load/store through a tensor of pointers of rank 2 or more (the type after ':' is its pointer's).
_TILE_OF_POINTERS = re.compile(r"tt\.(?:load|store) [^\n]*: tensor<\d+x\d+x[^\n]*!tt\.ptr<")
# A loop carrying a tensor of pointers or of integers (or so it seems: the result types of the line are read loosely).
_CARRIED_POINTERS = re.compile(r"scf\.for [^\n]*-> \([^\n]*tensor<[^>\n]*(?:!tt\.ptr<|xi\d+[,>])")
_LOAD_TILE = re.compile(r"tt\.load [^\n]*tensor<(\d+)x(\d+)x")


_STORED_ELEMENT = re.compile(r"tt\.store [^\n]*!tt\.ptr<(?:tensor<[\dx]*)?(\w+)")


def _stores_of_two_types(text: str) -> bool:
    """OrderStoreValues' possible work: stores of two element types (values of one width are left as they are)."""
    return len(set(_STORED_ELEMENT.findall(text))) >= 2


_INT_SPLAT = re.compile(r"(%[\w.$-]+) = arith\.constant dense<(-?\d+)> : tensor<[^>\n]*xi\d+,")
_CMP_CONSTANT = re.compile(r"arith\.cmpi (?:[su]l[te], %[\w.$-]+, (%[\w.$-]+)|[su]g[te], (%[\w.$-]+), %[\w.$-]+) :")
_RANGE_END = re.compile(r"tt\.make_range \{end = (\d+) : i32, start = (\d+)")


def _masked_below_a_constant(text: str) -> bool:
    """NarrowMaskedDims' possible work: an integer compared below a splat constant smaller than a range
    (a mask like `pid * 16 + arange(16) < 1`; masks against a runtime extent compare with a tt.splat)."""
    consts = dict(_INT_SPLAT.findall(text))
    bounds = [int(consts[n]) for pair in _CMP_CONSTANT.findall(text) for n in pair if n in consts]
    longest = max((int(e) - int(s) for e, s in _RANGE_END.findall(text)), default=0)
    return any(k < longest for k in bounds)


# A tt.dot whose result is in a blocked layout (lowered to FMAs; DPAS results print as #mma).
_FMA_DOT = re.compile(r"= tt\.dot [^\n]*-> tensor<[\dx]+\w+, #(?:blocked\d*>|ttg\.blocked<)")


def _reorders_or_moves(text: str) -> bool:
    """ReduceVariableLiveness' possible work: a read from SLM (its operand-read order) or a 2D load of
    at least 16K elements (Intel's rule wants >= 32 KB; 16K of the narrowest, 16-bit, data)."""
    return "ttg.local_load" in text or any(int(a) * int(b) >= 16384 for a, b in _LOAD_TILE.findall(text))


NEEDS_MATCH: dict[str, Callable[[str], bool]] = {
    RVL: _reorders_or_moves,
    NMD: _masked_below_a_constant,
    SFD: lambda text: _FMA_DOT.search(text) is not None,
    OSV: _stores_of_two_types,
    # A store through a boundary-checked block pointer, of an epilogue that branches per element
    # (slice_epilogue.BRANCHY) or gathers (a load of a tensor of pointers): else nothing to slice for.
    SLICE: lambda text: (_BOUNDED_STORE.search(text) is not None
                         and (any(op in text for op in BRANCHY) or _GATHER.search(text) is not None)),
    # Raising with dot-only (the only way it declares needs_text): it plans tensor-of-pointer accesses of rank 2
    # (raise_block_pointer/candidates.py; 1D ones are refused), and else only prunes loop-carried pointer or
    # offset tensors left advancing themselves (build.prune_pointer_args): neither in the text, nothing changes.
    RAISE: lambda text: _TILE_OF_POINTERS.search(text) is not None or _CARRIED_POINTERS.search(text) is not None,
}
# A native pass -> text without which it has nothing to do, that neither our passes nor the native
# passes before it create: missing from the stage's input, the pass is dropped, and the round trips
# on either side of it become one (softmax, norms: our RemoveLayoutConversions runs merge).
NATIVE_NEEDS_TEXT: dict[str, tuple[str, ...]] = {
    "tritonintelgpu-accelerate-matmul": ("tt.dot",),  # rewrites tt.dot / tt.dot_scaled only
}


def needs_text(stage: Stage) -> tuple[str, ...] | None:
    """What a pass needs in the text to have work, if it says (None: assume it always has): the pass's own
    declaration (it reads its options), else NEEDS_TEXT's."""
    return getattr(stage.instance, "needs_text", None) or NEEDS_TEXT.get(stage.name)


def needs_match(stage: Stage) -> Callable[[str], bool]:
    """A test of the text a pass's work needs beyond strings: the pass's own (it reads its options), else
    NEEDS_MATCH's."""
    return getattr(stage.instance, "needs_match", None) or NEEDS_MATCH.get(stage.name, _anything)


def idle(stages: list[Stage], text: str) -> bool:
    """Provably nothing to do: each pass misses something it needs (so leaves the module as it is,
    and the next one sees the same text)."""
    for s in stages:
        needed = needs_text(s)
        if not needed or all(n in text for n in needed) and needs_match(s)(text):
            return False
    return True


def _anything(text: str) -> bool:
    return True


def drop_idle_natives(stages: list[Stage], text: str) -> list[Stage]:
    """`stages` without the native passes NATIVE_NEEDS_TEXT proves idle on the stage's input `text`
    (only with none but our Python passes: another might create what they need)."""
    if any(s.python and s.name not in registry.OURS for s in stages):
        return stages
    return [s for s in stages
            if s.python or s.name not in NATIVE_NEEDS_TEXT or all(n in text for n in NATIVE_NEEDS_TEXT[s.name])]
