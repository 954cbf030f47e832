"""What PVC pays for a final TTGIR, estimated from the layout algebra: memory messages and registers.

The whole-stage guard (stage_figures.judge_stages) compares ours with triton-xpu's stage by what the
TTGIR shows (SLM, conversions, 2D block I/O). Two results with the same of those can still differ
at the ISA (IGC): a tensor-of-pointer access in a DPAS or dot-operand layout takes one gather or
scatter per narrow vector where a blocked layout takes a few wide ones, and a tile kept in
registers instead of going through SLM raises what a lane holds past the register file (spill).
`estimate` gives both, per kernel, from one parse of the print:

- gathers / scatters: the messages of each tensor-of-pointer load / store in its layout
  (layouts/memory.py: one per vector of contiguous elements, per warp, as the addresses' axis
  facts allow, with triton's rule for a range compared with a bound: `k < K` masks whole
  vectors), counted once per op as IGC's static counts are (equal to IGC's on the corpus'
  GEMM/attention rows and gemlite's GEMM); a block-pointer load / store in a layout that is not
  a 2D block one (DPAS, its operands) takes gathers / scatters too, as IGC merges its elements
  (layouts/memory.block_pointer_messages; raised attention backward: 72 as IGC, was 8);
- SLM writes: the store messages filling local_alloc / local_store buffers from registers (one per
  vector of a lane's registers along the shared layout's fastest dim): a tile stored across its
  register order writes element by element (flag_gems _attn_fwd, K: 48 -> 160, IGC's SLM
  messages 1,413 -> 2,485);
- SLM messages: those writes plus the loads and stores of conversions through SLM and the loads of
  local_load (layouts/slm_messages.py: one per vector, uniform reads merged; gemlite's GEMV W1:
  a 32x1 column into lanes holding different rows, 17 where native's 3, as IGC);
- peak (asked for: `registers`; it decides nothing): the most register bytes a lane holds at any
  op: every data tensor live there in its layout (layouts/pressure.py's tensor_bytes: floats only,
  IGC recomputes addresses and masks), plus the messages' addresses and predicates in flight at
  a tensor-of-pointer access;
- stored_2d (reported, decides nothing): the register bytes per lane of tiles written by 2D block
  stores (block-pointer stores in a DPAS or operand layout), held until written where a conversion
  through SLM streams them out. In a kernel over the register file IGC may spill more for it
  (flag_gems flash_varlen_fwd: +192 B of 47,360) or far less (raised corpus GEMMs: 9,984 -> 0):
  docs/never-worse.md's table, so it is shown in the guards' remarks, not judged.

The per-position guard (never_worse._decide) and the whole-stage one weigh the same `estimate`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, SSAValue

from xpu_passes.analysis.axis_info import AxisInfoAnalysis
from xpu_passes.analysis.values import constant_int, known_divisibility, make_tensor_ptr_of
from xpu_passes.dialects import tt, ttg
from xpu_passes.layouts.encodings import LayoutError
from xpu_passes.layouts.memoize import linear_of
from xpu_passes.layouts.memory import MAX_VECTOR_BYTES, Messages, block_2d_layout, block_pointer_messages
from xpu_passes.layouts.pressure import MESSAGE_BYTES, budget, tensor_bytes
from xpu_passes.layouts.propagation import encoding
from xpu_passes.layouts.scratch import element_bits
from xpu_passes.layouts.slm_messages import op_messages


@dataclass(frozen=True)
class Estimate:
    gathers: int  # messages of tensor-of-pointer loads (and block-pointer loads not 2D), per warp, each op once
    scatters: int  # ... of stores
    peak: int | None = None  # register bytes per lane at the fullest op (None: not estimated, `registers`)
    lanes: int = 16
    slm_writes: int = 0  # SLM store messages a lane issues to fill local_alloc / local_store buffers, each op once
    stored_2d: int = 0  # register bytes per lane of tiles written by 2D block stores (reported only)
    slm_messages: int = 0  # SLM messages a lane issues: slm_writes + conversions + local_loads (layouts/slm_messages)

    @property
    def over(self) -> int | None:
        """Bytes per lane beyond the large register file: what IGC would spill, by this estimate."""
        return None if self.peak is None else max(0, self.peak - budget(lanes=self.lanes))

    def losses(self, native: Estimate) -> list[str]:
        """What is worse here than in `native` by IGC's judge: more gathers or scatters. (Not `over`:
        it does not separate the rows where IGC spills more (docs/never-worse.md's table: the same
        peak on ours and native's where ours spills more, gemm_tensor_ptr 64x128 1,600 B both, IGC
        9,984 vs 11,328; lower on ours where it spills more, streamk 256x256); so it is not computed
        for the guards, `estimate(..., registers=True)` for a report.)"""
        out = []
        if self.gathers > native.gathers:
            out.append(f"gathers {self.gathers} > {native.gathers} (estimated)")
        if self.scatters > native.scatters:
            out.append(f"scatters {self.scatters} > {native.scatters} (estimated)")
        # (writes apart from all SLM messages: more writes with fewer messages in all lost at the ISA, fla
        # parallel_nsa_bwd_kernel_dq w2: 64 writes vs 8, 80 messages vs 136 estimated; IGC 144 vs 136, +19%)
        if self.slm_writes > native.slm_writes:
            out.append(f"SLM writes {self.slm_writes} > {native.slm_writes} (estimated)")
        if self.slm_messages > native.slm_messages:
            out.append(f"SLM messages {self.slm_messages} > {native.slm_messages} (estimated)")
        return out

    def __str__(self) -> str:
        over = "" if self.over is None else f", ~{self.over} B/lane over the GRF"
        slm = f", ~{self.slm_writes} SLM writes" if self.slm_writes else ""
        slm += f", ~{self.slm_messages} SLM messages" if self.slm_messages else ""
        st = f", ~{self.stored_2d} B/lane written by 2D block stores" if self.stored_2d else ""
        return f"~{self.gathers} gathers, ~{self.scatters} scatters{slm}{st}{over}"


def estimate(module: ModuleOp, registers: bool = False, facts: AxisInfoAnalysis | None = None) -> Estimate:
    """The estimate of `module` (a parsed TTGIR); `registers`: with the register peak (a walk of
    every block's live sets: not on the guards' path, where it decides nothing). `facts`: the module's
    axis facts if a caller has them (the guards' figures took them: the same analysis of the same,
    unchanged module), else computed."""
    # (imported here: the stage guard imports this module; RLC's costs only when it estimates)
    from xpu_passes.transforms.remove_layout_conversions.costs import messages_of

    facts = AxisInfoAnalysis(module) if facts is None else facts
    gathers = scatters = 0
    extra: dict[int, int] = {}  # id(access) -> its messages' addresses and predicates, per lane
    lanes = 16
    slm = stored_2d = slm_messages = 0
    for op in module.walk():
        if isinstance(op, ttg.LocalAllocOp | ttg.LocalStoreOp):
            slm += _slm_writes(op)
            continue
        if (n := op_messages(op)) is not None:
            slm_messages += n
            continue
        if not isinstance(op, tt.LoadOp | tt.StoreOp):
            continue
        m = messages_of(op, facts)
        if m is None:
            m = block_pointer_access(op, facts)
        if m is None:
            if isinstance(op, tt.StoreOp):
                stored_2d += _stored_2d(op)
            continue
        lanes = m.lanes
        if isinstance(op, tt.LoadOp):
            gathers += m.messages
        else:
            scatters += m.messages
        extra[id(op)] = m.messages * MESSAGE_BYTES
    if not registers:
        return Estimate(gathers, scatters, None, lanes, slm, stored_2d, slm + slm_messages)
    peak = max((_peak(b, 0, extra) for r in module.regions for b in r.blocks), default=0)
    return Estimate(gathers, scatters, peak, lanes, slm, stored_2d, slm + slm_messages)


def _stored_2d(op: tt.StoreOp) -> int:
    """Register bytes per lane of the tile a block-pointer store writes with 2D block stores (0: not
    such a store: a tensor of pointers, or a layout lowered to scatters)."""
    t = op.ptr.type
    pointee = t.pointee if isinstance(t, tt.PointerType) else None
    if not isinstance(pointee, TensorType) or not block_2d_layout(encoding(pointee)):
        return 0
    return tensor_bytes(op.value.type)


def _slm_writes(op: ttg.LocalAllocOp | ttg.LocalStoreOp) -> int:
    """The SLM store messages a lane issues to write a register tensor into a shared buffer: one per
    vector of its registers adjacent along the shared layout's fastest dim (16 bytes at most), as
    triton's lowering of a distributed tensor to shared memory makes them. A tile whose registers run
    down the columns stored into a row-major buffer takes one message per element (flag_gems
    _attn_fwd's K tile: IGC's SLM messages 1,413 -> 2,485)."""
    src = op.src
    if src is None or not isinstance(t := src.type, TensorType) or (layout := encoding(t)) is None:
        return 0
    dst = op.result.type if isinstance(op, ttg.LocalAllocOp) else op.dst.type
    shared = getattr(dst, "encoding", None)
    order = shared.get("order") if isinstance(shared, ttg.SwizzledSharedEncodingAttr | ttg.SharedEncodingAttr) else None
    try:
        ll = linear_of(layout, tuple(t.get_shape()))
        bits = element_bits(t.element_type)
    except (LayoutError, ValueError):
        return 0
    if not order:
        return 0
    d, run = int(order[0]), 1  # type: ignore[index]
    while tuple(run if k == d else 0 for k in range(ll.rank)) in ll.register:
        run *= 2
    vec = max(1, min(run, MAX_VECTOR_BYTES // max(1, bits // 8)))
    return -(-(1 << len(ll.register)) // vec)


def block_pointer_access(op: tt.LoadOp | tt.StoreOp, facts: AxisInfoAnalysis) -> Messages | None:
    """The messages of a block-pointer access that is not a 2D block message (None: not such an
    access, or a layout the algebra does not know): its unit-stride dim and alignment from the
    `tt.make_tensor_ptr` it comes from (none traced: one element per message)."""
    t = op.ptr.type
    pointee = t.pointee if isinstance(t, tt.PointerType) else None
    if not isinstance(pointee, TensorType) or block_2d_layout(layout := encoding(pointee)) or layout is None:
        return None
    try:
        bits = element_bits(pointee.element_type)
    except LayoutError:
        return None
    dim, aligned = None, 1
    if (mtp := make_tensor_ptr_of(op.ptr)) is not None:
        dim = next((i for i, s in enumerate(mtp.strides) if constant_int(s) == 1), None)
        if dim is not None:
            eb = max(1, bits // 8)
            aligned = min([_divisibility(mtp.base, facts) // eb, _divisibility(mtp.offsets[dim], facts)]
                          + [_divisibility(s, facts) for i, s in enumerate(mtp.strides) if i != dim])
    checked = op.boundaryCheck is not None and len(op.boundaryCheck.get_values()) > 0
    try:
        return block_pointer_messages(layout, pointee.get_shape(), bits, dim, aligned, isinstance(op, tt.StoreOp),
                                      checked)
    except (LayoutError, ValueError):
        return None


def _divisibility(v: SSAValue, facts: AxisInfoAnalysis) -> int:
    """What is known to divide the scalar `v` (bytes for a pointer): axis facts, or the value's own."""
    info = facts.of(v)
    return max(known_divisibility(v), info.divisibility[0] if info.divisibility else 1)


def _last_uses(block: Block) -> tuple[dict[Operation, int], dict[int, int]]:
    """(op -> index in `block`, id(value) -> index of the last op of `block` holding a use of it)."""
    index = {op: i for i, op in enumerate(block.ops)}
    last: dict[int, int] = {}
    for op, i in index.items():
        for inner in op.walk():
            for v in inner.operands:
                if last.get(id(v), -1) < i:
                    last[id(v)] = i
    return index, last


def _peak(block: Block, outer: int, extra: dict[int, int]) -> int:
    """The most bytes a lane holds at an op of `block` (or inside one), `outer` held around it."""
    index, last = _last_uses(block)
    n = len(index)
    # the live set at op i: block args and results defined before i, last used at or after i
    delta = [0] * (n + 1)
    for a in block.args:
        if (size := tensor_bytes(a.type)) and id(a) in last:
            delta[0] += size
            delta[last[id(a)] + 1] -= size
    sizes: list[list[tuple[SSAValue, int]]] = []
    for op, i in index.items():
        mine = [(r, s) for r in op.results if (s := tensor_bytes(r.type))]
        sizes.append(mine)
        for r, s in mine:
            if id(r) in last:  # (live from the next op to its last use; at op i itself as a result)
                delta[i + 1] += s
                delta[last[id(r)] + 1] -= s
    best, live = 0, 0
    for op, i in index.items():
        live += delta[i]
        here = outer + live + sum(s for _, s in sizes[i]) + extra.get(id(op), 0)
        best = max(best, here)
        if op.regions:
            # inside: what stays live past this op (its operands handed on as block args are the body's)
            across = live - sum(tensor_bytes(v.type) for v in set(op.operands) if last.get(id(v)) == i)
            for region in op.regions:
                for b in region.blocks:
                    best = max(best, _peak(b, outer + across, extra))
    return best


def read_print(text: str) -> ModuleOp:
    """A final TTGIR's print as the guards read it (ops we do not know kept, no verifier: triton's
    own print); raises what the parser raises."""
    from xpu_passes.dialects import make_context
    from xpu_passes.frontend.parser import parse_module

    return parse_module(make_context(allow_unregistered=True), text, "<ttgir>", verify=False).module


def estimate_text(text: str, registers: bool = False) -> Estimate | None:
    """The estimate of a final TTGIR's print (None: a print our parser does not read: not judged)."""
    try:
        return estimate(read_print(text), registers)
    except Exception:  # noqa: BLE001 - an estimate is advice: a print it cannot read is compared without it
        return None
