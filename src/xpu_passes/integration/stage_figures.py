"""Figures of a TTGIR stage's result, read from triton's own module: what the final kernel is judged by.

RemoveLayoutConversions' figures (`solution.figures`) judge one position; a kernel is judged after
the whole stage (third-party benchmark, corpus_compare): the SLM triton-xpu allocates, the
conversions left, and the 2D block messages of loads and stores. Different inputs at each position
(ours earlier in the stage) can make the end worse though each position is not. These figures are
cheap enough to take on every compile: SLM by triton-xpu's own allocation, run on a copy (the
passes make_llir runs before it), the rest from the module's print. Same SLM and conversions can
still cost more at the ISA (gathers, scatters, spill): `estimate` holds what isa_estimate makes
of the print (one parse: ~6-12 ms of CPU a side on the corpus' GEMMs), taken only when the figures above do not decide.
`judge_stages` (stage_guard.compare_stage's judge) weighs them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from xpu_passes.frontend.spelling import DIALECTS
from xpu_passes.integration.isa_estimate import Estimate
from xpu_passes.integration.occupancy import SLM_LIMIT, fewer_work_groups, warps_of
from xpu_passes.integration.same_module import same_module

# Loop nesting multiplies what an access or conversion weighs (as RemoveLayoutConversions' costs.LOOP_WEIGHT).
LOOP_WEIGHT = 8
# make_llir's passes up to its SLM allocation that change what is allocated.
_ALLOCATION = ("intel-decompose-unsupported-conversions", "allocate-shared-memory")


@dataclass(frozen=True)
class StageFigures:
    shared: int  # SLM bytes triton-xpu allocates for the kernel (-1: not allocated, see cheap_figures)
    converts: int  # ttg.convert_layout left
    block_io: int  # loop-weighted elements of loads/stores in a layout 3.3 lowers to 2D block messages
    block_writes: int = 0  # of which stores: reads and writes are compared apart (one must not pay for the other)
    # tensor-of-pointer loads loaded once per copy of their elements (copied_loads): a result with them
    # loses to one without, whatever the other figures (see stage_guard.compare_stage's veto)
    copied: int = 0
    # what PVC pays beyond the TTGIR (integration/isa_estimate.py; None: not estimated): messages of
    # tensor-of-pointer loads and stores, and register bytes per lane over the large register file
    estimate: Estimate | None = None
    # the largest scratch of one conversion, scan or reduction, in bytes (RemoveLayoutConversions' SLM
    # figure, read from our parse of the print; -1: not computed): what pays for more conversions
    scratch: int = -1
    warps: int = 0  # the module's ttg.num-warps (0: unknown): what SLM costs in occupancy

    def losses(self, native: StageFigures) -> list[str]:
        """The figures in which these are worse than `native`'s (empty: no worse in any)."""
        out = []
        # (SLM costs what it takes from occupancy: work-groups per Xe-core, integration/occupancy.py)
        if native.shared >= 0 and fewer_work_groups(self.shared, native.shared, self.warps or native.warps):
            out.append(f"SLM {self.shared} > {native.shared}")
        if self.converts > native.converts and not self.pays_for_conversions(native):
            out.append(f"conversions {self.converts} > {native.converts}")
        reads, native_reads = self.block_io - self.block_writes, native.block_io - native.block_writes
        if reads < native_reads:
            out.append(f"2D block read elements {reads} < {native_reads}")
        if self.block_writes < native.block_writes:
            out.append(f"2D block write elements {self.block_writes} < {native.block_writes}")
        if self.copied and not native.copied:
            out.append(f"{self.copied} tensor-of-pointer load(s) of copied elements, triton-xpu's none")
        if self.estimate is not None and native.estimate is not None:
            out += self.estimate.losses(native.estimate)
        return out

    def pays_for_conversions(self, native: StageFigures) -> bool:
        """Whether more conversions than `native`'s are no loss: both scratches computed and these need
        strictly less (the conversions' SLM). A conversion costs its scratch: more of them in less move less
        (corpus rope rows: 1 -> 2 conversions, 2,176 -> 256 bytes; at the ISA SLM messages 32 -> 6,
        instructions -15%). Every corpus row where ours has more conversions and is worse at the ISA needs
        more (group_norm_bwd 512 -> 16,896 bytes). Not the SLM triton-xpu allocates: moe_gemm 16x64x64
        without raising allocates 4,352 bytes against native's 10,240 (native stages an operand through
        SLM) with a larger conversion scratch (4,352 against 2,304), and is worse at the ISA (gathers
        82 -> 85, instructions +9%)."""
        return 0 <= self.scratch < native.scratch

    def estimated(self, e: Estimate | None) -> StageFigures:
        """These figures with the estimate `e` (None: not estimated, not compared)."""
        return dataclasses.replace(self, estimate=e)

    def __str__(self) -> str:
        slm = f"{self.shared} bytes of SLM" if self.shared >= 0 else "SLM not allocated"
        copied = f", {self.copied} load(s) of copied elements" if self.copied else ""
        est = f", {self.estimate}" if self.estimate is not None else ""
        scratch = f", {self.scratch} bytes of conversion scratch" if self.scratch >= 0 else ""
        return f"{slm}, {self.converts} conversion(s){scratch}, {self.block_io} 2D block I/O elements{copied}{est}"


def stage_figures(mod: Any, text: str | None = None) -> StageFigures:
    """`mod`: a triton module after the TTGIR stage (left as it is); `text`: its print, if at hand."""
    text = str(mod) if text is None else text
    return StageFigures(allocated_shared(text, mod.context), text.count("ttg.convert_layout"), *_block_io(text),
                        copied_loads(text), warps=warps_of(text))


def cheap_figures(text: str) -> StageFigures:
    """The figures of a print without the SLM (-1): what decides most comparisons, without an allocation."""
    return StageFigures(-1, text.count("ttg.convert_layout"), *_block_io(text), copied_loads(text),
                        warps=warps_of(text))


def allocated_shared(text: str, context: Any) -> int:
    """SLM bytes triton-xpu's allocation gives the module printed as `text` (on a copy)."""
    from xpu_passes import registry
    from xpu_passes.integration import oracle
    from xpu_passes.integration.native_passes import run_native

    if allocates_nothing(text):
        return 0
    copy = oracle.parse(text, context)
    run_native(copy, [registry.PassSpec(name, {}) for name in _ALLOCATION], {})
    return int(copy.get_int_attr("ttg.shared") or 0)


# A word of every op triton's allocation gives SLM to (scratch: conversions, reductions, scans, gathers,
# histograms, atomics; buffers: local_alloc, memdesc values; a call: its callee's), and then some
# (print/assert, warp specialization, tensor maps): a print without one, locations aside, allocates nothing.
_MAY_ALLOCATE = re.compile(r"convert_layout|reduce|scan|gather|histogram|atomic|alloc|memdesc|call|print|assert|"
                           r"warp_spec|tensormap")


def allocates_nothing(text: str) -> bool:
    """Whether triton-xpu's allocation provably gives the module printed as `text` no SLM (no op that
    may have any: `_MAY_ALLOCATE`), without running it (on a copy, as `allocated_shared` does)."""
    return next(_may_allocate(text), None) is None


def _may_allocate(text: str) -> Iterator[str]:
    """The lines of `text`, locations stripped, with an op that may get SLM (`_MAY_ALLOCATE`)."""
    if _MAY_ALLOCATE.search(text) is None:
        return
    for line in text.splitlines():
        if not line.startswith("#loc") and _MAY_ALLOCATE.search(bare := _LOC.sub("", line)):
            yield bare


# Ops whose SLM is the scratch of a reduction or scan across warps (what `_MAY_ALLOCATE` matches of them).
_REDUCTION = re.compile(r"\btt\.(?:reduce|scan)\b|\btt\.reduce\.return\b|\btt\.scan\.return\b")


# A layout alias of a print (`#blocked1 = #ttg.blocked<...>`): the distributed layouts a module uses (slices
# are printed inline, on their parent's alias).
_LAYOUT_ALIAS = re.compile(r"^#\w+ = #(?:ttg|triton_gpu|ttig|triton_intel_gpu)\.(?!slice)\w+<", re.M)


def nothing_to_win(native_text: str) -> str:
    """Why our TTGIR stage cannot beat triton-xpu's final TTGIR `native_text` in the figures the stage guard
    judges (and, checked on rows, at the ISA), for a kernel whose TTIR has no tt.dot ("" when it might:
    then ours runs and is judged).

    Proved from the figures (`StageFigures.losses`, `isa_estimate.Estimate.losses`): conversions: none left
    (a count: ours cannot have fewer); 2D block reads/writes: without a tt.dot neither side has a DPAS
    layout (accelerate-matmul and our block I/O encoding act on tt.dot only), both 0; loads of copied
    elements: none; SLM: none beyond reductions' and scans' scratch (no local_alloc, atomics, gathers,
    histograms, calls, prints: `_MAY_ALLOCATE`); SLM writes need local_alloc/local_store, excluded.
    Not proved: gathers/scatters and what the stage guard does not weigh (spill). Both RemoveLayoutConversions
    start from the conversions coalesce adds around memory ops and may remove them in different ways, both
    leaving none, with different layouts: liger qwen2vl_mrope (two blocked layouts; at the ISA ours spills
    576 B less, every figure equal). So only a print with a single distributed layout (its slices aside)
    qualifies: every value is in it, no choice between layouts was left (rows: liger layer_norm_fwd,
    swiglu, geglu, flag_gems apply_rotary_pos_emb, reshape_and_cache: the same ISA as ours).
    The third-party rows where ours is strictly better at the ISA without a tt.dot (liger rms_norm_backward,
    jsd, group_norm_forward, gemlite gemv_splitK, qwen2vl_mrope) are not skipped."""
    if "convert_layout" in native_text or len(_LAYOUT_ALIAS.findall(native_text)) > 1:
        return ""
    if copied_loads(native_text):
        return ""
    lines = list(_may_allocate(native_text))
    if any(not _REDUCTION.search(line) for line in lines):
        return ""
    return "no conversion left, one layout, " + ("SLM only for reductions and scans" if lines else "no SLM")


_ALIAS = re.compile(r"^(#[\w.$-]+) = (.*)$", re.M)
_LOC = re.compile(r"\s*loc\(.*$")
_ACCESS = re.compile(r"^( *)(?:%\S+ = )?tt\.(load|store) ")
_TENSOR = re.compile(r"tensor<([0-9x]+)x[a-z0-9]+, (#[\w.]+(?:<\{.*?\}>)?)>")
_DPAS = ("triton_intel_gpu.dpas", "ttig.dpas")


def block_io_elements(text: str) -> int:
    """Loop-weighted elements of loads and stores that lower to 2D block messages (see _block_io)."""
    return _block_io(text)[0]


def _block_io(text: str) -> tuple[int, int]:
    """(all, of which stores): loop-weighted elements of the loads tagged `block_io` and the stores of block pointers (or
    tagged) whose layout is DPAS or a DPAS dot operand: what triton-xpu 3.3 lowers to 2D block
    reads/writes (a tagged load in another layout becomes gathers). Depth from the print's indent."""
    dpas = {m[1] for m in _ALIAS.finditer(text) if m[2].lstrip("#").startswith(_DPAS)}
    total = writes = 0
    for line in text.splitlines():
        m = _ACCESS.match(line)
        if m is None:
            continue
        line = _LOC.sub("", line)
        tagged = "block_io" in line
        if m[2] == "load" and not tagged:
            continue
        head, _, ty = line.rpartition(" : ")
        if m[2] == "store" and not (tagged or ty.startswith("!tt.ptr<tensor<")):
            continue
        t = _TENSOR.search(ty)
        if t is None or not _lowers_2d(t[2], dpas):
            continue
        n = 1
        for d in t[1].split("x"):
            n *= int(d)
        depth = max(0, (len(m[1]) - 4) // 2)  # (a function's body is indented by 4, each region by 2 more)
        total += n * LOOP_WEIGHT ** depth
        writes += n * LOOP_WEIGHT ** depth if m[2] == "store" else 0
    return total, writes


def _lowers_2d(enc: str, dpas: set[str]) -> bool:
    if enc in dpas or enc.lstrip("#").startswith(_DPAS):
        return True
    if enc.startswith("#ttg.dot_op<"):
        parent = re.search(r"parent = (#[\w.]+)", enc)
        return parent is not None and (parent[1] in dpas or parent[1].lstrip("#").startswith(_DPAS))
    return False


_POINTER_LOAD = re.compile(r"^ *(?:%\S+ = )?tt\.load .* : (tensor<[0-9x]+x!tt\.ptr<.*)$")
_POINTEE = re.compile(r"!tt\.ptr<([^,<>]+)(?:, \d+)?>")
_THREADS = re.compile(r'"ttg\.threads-per-warp" = (\d+)')
_ALIAS_USE = re.compile(r"#[\w.$-]+")
# (a load's result type, expanded, threads per warp) -> copies_overflow: the same few types come back
_COPIES: dict[tuple[str, int], bool] = {}


def copied_loads(text: str) -> int:
    """Tensor-of-pointer loads of a print whose layout holds copies of their elements past a warp's
    registers (`layouts.lowering.copies_overflow`): triton-xpu 3.3 loads them once per copy, element
    by element (what the positions' guard vetoes with `copied_gather_loads`). A lane's registers that
    hold the same element (zero or dependent register bases) count once: one address, one load (a 1x64
    f16 vector on every lane of 4 warps, 4 registers per element: 4 KB a warp, not 16; gemlite
    gemv_revsplitK, whose native stage is far better at the ISA). The positions' count also merges
    equal addresses by the axis facts, so this one is never below it. From the print: only
    the distinct result types of such loads are parsed (their aliases expanded)."""
    types = [_POINTEE.sub(r"\1", m[1]) for m in map(_POINTER_LOAD.match, map(_strip_loc, _load_lines(text))) if m]
    if not types:
        return 0
    threads = int(m[1]) if (m := _THREADS.search(text)) else 16
    aliases = {a[1]: a[2] for a in _ALIAS.finditer(text) if not a[2].startswith("loc(")}

    def expand(t: str, depth: int = 0) -> str:
        return _ALIAS_USE.sub(lambda u: expand(aliases[u[0]], depth + 1) if u[0] in aliases and depth < 8 else u[0], t)

    return sum(_copies_overflow(_canonical(expand(t)), threads) for t in types)


def _canonical(type_text: str) -> str:
    """Our dialects' names (frontend.spelling: `ttg`, `ttig`) in a type printed by triton-xpu 3.3."""
    for canonical, old in DIALECTS:
        type_text = type_text.replace(f"#{old}.", f"#{canonical}.")
    return type_text


def _load_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if "tt.load " in ln and "!tt.ptr<" in ln]


def _strip_loc(line: str) -> str:
    return _LOC.sub("", line)


def _copies_overflow(type_text: str, threads: int) -> bool:
    key = (type_text, threads)
    hit = _COPIES.get(key)
    if hit is None:
        from xdsl.dialects.builtin import TensorType
        from xdsl.parser import Parser

        from xpu_passes.dialects import make_context
        from xpu_passes.layouts.lowering import copies_overflow

        try:
            t = Parser(make_context(), type_text).parse_type()
            # (registers holding the same element hold the same address: loaded once, as the positions' veto counts)
            hit = copies_overflow(t, threads, (1,) * len(t.get_shape()) if isinstance(t, TensorType) else None)
        except Exception:  # noqa: BLE001 - a type our parser does not read: not judged (as the positions' guard)
            hit = False
        if len(_COPIES) > 4096:
            _COPIES.clear()
        _COPIES[key] = hit
    return hit


def judge_stages(mine_text: str, their_text: str, context: Any) -> tuple[list[str], str]:
    """Our final TTGIR against triton-xpu's (prints): the figures in which ours is worse (empty: ours
    is kept) and the remark. What PVC pays beyond the TTGIR (isa_estimate: gathers, scatters,
    registers over the GRF) and SLM (allocated on copies, in triton's `context`) are taken only when
    the cheaper figures do not decide, or decide by conversions alone: more conversions whose largest
    scratch is strictly smaller are no loss (`StageFigures.pays_for_conversions`). A result loading
    copies of a tensor-of-pointer load's elements (`copied_loads`) loses to one without; so native's is
    not kept when it has them and ours has not, whatever its other figures (the positions' veto,
    `never_worse._decide`). Nor is it kept when it needs more SLM than PVC has and ours fits: it could
    not launch (isa.judge's TRADE)."""
    mine, other = cheap_figures(mine_text), cheap_figures(their_text)
    losses = mine.losses(other)
    veto = other.copied > 0 and not mine.copied
    # Provably the same module (up to the order of constants, and locations: same_module): every figure is
    # equal, a tie, ours kept without estimating or allocating either (liger cross_entropy, fla parallel_nsa_fwd)
    same = not losses and same_module(mine_text, their_text)
    # (more conversions alone: a smaller scratch may pay for them, StageFigures.pays_for_conversions)
    if all(loss.startswith("conversions ") for loss in losses) and not veto and not same:
        (est, scratch), (their_est, their_scratch) = _estimated(mine_text, bool(losses)), _estimated(their_text,
                                                                                                     bool(losses))
        mine = dataclasses.replace(mine, estimate=est, scratch=scratch)
        other = dataclasses.replace(other, estimate=their_est, scratch=their_scratch)
        # (SLM: triton-xpu's allocation of each, on copies)
        mine = dataclasses.replace(mine, shared=_allocated(mine_text, context))
        other = dataclasses.replace(other, shared=_allocated(their_text, context))
        losses = mine.losses(other)
        if losses and other.shared > SLM_LIMIT >= mine.shared:
            return [], (f"our stage kept: it would leave {', '.join(losses)} but triton-xpu's needs {other.shared} "
                        f"bytes of SLM, over PVC's {SLM_LIMIT} (ours: {mine}; native: {other})")
    if veto and losses:
        return [], (f"our stage kept: triton-xpu's would leave {', '.join(losses)} but loads {other.copied} "
                    f"tensor-of-pointer load(s) of copied elements, element by element (ours: {mine}; native: {other})")
    if losses:
        return losses, f"triton-xpu's stage kept: ours would leave {', '.join(losses)} (ours: {mine}; native: {other})"
    if mine.converts > other.converts:
        return [], (f"our stage kept: conversions {mine.converts} > {other.converts} but their scratch "
                    f"{mine.scratch} < {other.scratch} bytes (ours: {mine}; native: {other})")
    if same:
        alike = "" if mine_text == their_text else " up to the order of its constants"
        return [], f"our stage kept: triton-xpu's is the same module{alike} ({mine})"
    return [], f"our stage kept: {mine}; native: {other}"


def _allocated(text: str, context: Any) -> int:
    """triton-xpu's SLM allocation of a print (-1: not allocated, a text it rejects: SLM not compared, and
    it pays for no conversion)."""
    try:
        return allocated_shared(text, context)
    except Exception:  # noqa: BLE001 - figures are advice: what cannot be allocated is judged without it
        return -1


# The final TTGIRs compare_raising read in this compile: print -> (its estimate, its largest scratch). The judge
# reads the kept one (and native's, when it is our unraised stage's print) from here instead of parsing it
# again. Keyed by the whole print, whose function both answers are; per compile (`known_texts`, compare_stage's).
_KNOWN: ContextVar[dict[str, tuple[Estimate, int]] | None] = ContextVar("xpu_passes_stage_texts", default=None)


@contextmanager
def known_texts() -> Iterator[None]:
    """A compile's stage comparison: what `remember` is told serves `_estimated` until it ends."""
    token = _KNOWN.set({})
    try:
        yield
    finally:
        _KNOWN.reset(token)


def remember(text: str, estimate: Estimate, scratch: int) -> None:
    """`text`'s estimate and largest conversion/scan/reduce scratch, read by the caller (outside `known_texts`:
    forgotten)."""
    known = _KNOWN.get()
    if known is not None:
        known[text] = (estimate, scratch)


def _estimated(text: str, scratch: bool) -> tuple[Estimate | None, int]:
    """What PVC pays for a final TTGIR's print beyond its figures (isa_estimate; None: a print our parser
    does not read, not judged) and, if asked (`scratch`), its largest conversion/scan/reduce scratch in
    bytes (RemoveLayoutConversions' SLM figure; -1: not asked or not read): one parse for both, none for
    a print this compile's raising comparison read (`remember`)."""
    known = _KNOWN.get()
    if known is not None and (hit := known.get(text)) is not None:
        return hit[0], hit[1] if scratch else -1
    from xpu_passes.integration import parsed_prints
    from xpu_passes.integration.isa_estimate import estimate, read_print
    from xpu_passes.transforms.remove_layout_conversions.costs import facts_of, facts_scope
    from xpu_passes.transforms.remove_layout_conversions.solution import figures

    try:  # (as a round trip parses it: the passes after the comparison take the kept one's module)
        module = parsed_prints.parse(text).module
    except Exception:  # noqa: BLE001 - ops our context does not know: read as the guards read prints
        module = None
    try:
        module = read_print(text) if module is None else module
        if not scratch:
            return estimate(module), -1
        with facts_scope():  # (the module's axis facts once, for every access and the estimate)
            return estimate(module, facts=facts_of(module)), figures(module).slm
    except Exception:  # noqa: BLE001 - an estimate is advice: a print it cannot read is compared without it
        return None, -1
