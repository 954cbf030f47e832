"""Block pointers anchored to the layout their accesses are converted to (RemoveLayoutConversions'
first step): Intel's rule that a 2D block access can produce or consume any layout, so the
pointer takes the layout its users want and their conversions become no-ops. Every change goes
through `ir/journal.py` (judged and undone like any rewrite)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation

from xpu_passes.analysis.block_pointers import collect_family
from xpu_passes.dialects import tt, ttg
from xpu_passes.dialects.ttig import Subgroup2DBlockEncodingAttr
from xpu_passes.ir import journal
from xpu_passes.layouts.lowering import load_refused, store_refused
from xpu_passes.layouts.propagation import encoding, retype_family, with_encoding
from xpu_passes.ir.walk_order import walk_list


def _wanted_layout(access: Operation) -> Attribute | None:
    """The layout an access's neighbours want: what all its conversions go to / come from."""
    if isinstance(access, tt.LoadOp):
        users = [u.operation for u in access.result.uses]
        targets = {encoding(u.result.type) for u in users if isinstance(u, ttg.ConvertLayoutOp)}
        if users and len(targets) == 1 and all(isinstance(u, ttg.ConvertLayoutOp) for u in users):
            return targets.pop()
        return encoding(access.result.type)
    if isinstance(access, tt.StoreOp):
        src = access.value.owner
        if isinstance(src, ttg.ConvertLayoutOp):
            return encoding(src.src.type)
        return encoding(access.value.type)
    return None  # prefetch follows the pointer


def anchor_block_pointers(module: ModuleOp) -> int:
    """Retype block-pointer families to the layout their loads/stores are converted to.

    Intel's rule: a 2D block access can produce (or consume) any layout, so the
    pointer takes the layout its users want and the conversions become no-ops.
    """
    changed = 0
    for root in [o for o in walk_list(module) if type(o) is tt.MakeTensorPtrOp]:
        fam = collect_family(root)
        wanted = {_wanted_layout(a) for a in fam.accesses} - {None}
        block = root.result.type.pointee  # type: ignore[union-attr]
        if fam.unsupported is not None or len(wanted) != 1 or not isinstance(block, TensorType):
            continue
        if isinstance(encoding(block), Subgroup2DBlockEncodingAttr):
            continue  # the layout of its 2D block reads: an anchor (legalization folds it if it can)
        layout = wanted.pop()
        if layout == encoding(block) or layout is None:
            continue
        if load_refused(block, layout) is not None and any(isinstance(a, tt.LoadOp) for a in fam.accesses):
            continue  # triton-xpu cannot lower that load (layouts/lowering.py): its conversion stays
        if any(isinstance(a, tt.StoreOp) and store_refused(a, layout) for a in fam.accesses):
            continue  # a store native would not make (layouts/lowering.py): its conversion stays
        retype_family(fam, layout)
        for access in fam.accesses:
            if isinstance(access, tt.LoadOp):
                journal.replace_value_with_new_type(access.result, with_encoding(access.result.type, layout))
            elif isinstance(access, tt.StoreOp) and isinstance(access.value.owner, ttg.ConvertLayoutOp):
                cvt = access.value.owner
                journal.set_operand(access, 1, cvt.src)
                if not cvt.result.uses:
                    journal.erase_op(cvt)
        changed += 1
    return changed
